// swift-tools-version:6.0
import PackageDescription

// A reading app whose navigation the RoutesGenerator plugin of the routes package (`../..`)
// generates from Reader.routes on every build, for SwiftUI's NavigationStack: routes.json
// says `"swiftTarget": "swiftui"` (docs/codegen.md, "SwiftUI's NavigationStack"). It needs
// SwiftUI only, iOS 16 or later.
//
// On Linux, where SwiftUI does not exist, it builds against the test-only stand-in of
// SwiftUI (Tests/CodegenStandIn), and the executable ReaderDemo prints what a few
// navigations show (`make example`).
#if os(Linux)
let swiftUI: [Package.Dependency] = [.package(name: "CodegenStandIn", path: "../../Tests/CodegenStandIn")]
let swiftUIProducts: [Target.Dependency] = [.product(name: "SwiftUI", package: "CodegenStandIn")]
#else
let swiftUI: [Package.Dependency] = []
let swiftUIProducts: [Target.Dependency] = []
#endif

let package = Package(
    name: "ReaderPackage",
    // iOS 16: NavigationStack. macOS 13: what the routes package declares, whose `routes`
    // tool the plugin runs on the Mac that builds.
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "ReaderApp", targets: ["ReaderApp"]),
    ],
    dependencies: [.package(name: "routes", path: "../..")] + swiftUI,
    targets: [
        .target(
            name: "ReaderApp",
            dependencies: swiftUIProducts,
            plugins: [.plugin(name: "RoutesGenerator", package: "routes")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

#if os(Linux)
package.targets.append(.executableTarget(name: "ReaderDemo", dependencies: ["ReaderApp"] + swiftUIProducts))
#endif
