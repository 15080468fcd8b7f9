// swift-tools-version:6.0
import PackageDescription

// The seed app's navigation, generated from its .routes file on every build by the
// RoutesGenerator plugin of the routes package (`../..`): a library that the app's target
// depends on (docs/codegen.md, "Wiring the generated code into the app").
//
// On Apple's platforms it depends on ComposableNavigator 0.2.0 itself. The library builds
// for iOS only (it imports UIKit), so on a Mac the package is built for iOS:
//     xcodebuild -scheme SeedApp -destination 'generic/platform=iOS Simulator'
// On Linux, where neither SwiftUI nor UIKit exists, it builds against the test-only
// stand-ins of ComposableNavigator and SwiftUI (Tests/CodegenStandIn), and the executable
// SeedDemo prints what a few paths build (`make example`).
#if os(Linux)
let navigator: [Package.Dependency] = [.package(name: "CodegenStandIn", path: "../../Tests/CodegenStandIn")]
let navigatorProducts: [Target.Dependency] = [
    .product(name: "ComposableNavigator", package: "CodegenStandIn"),
    .product(name: "SwiftUI", package: "CodegenStandIn"),
]
#else
let navigator: [Package.Dependency] = [.package(url: "https://github.com/Bahn-X/swift-composable-navigator", exact: "0.2.0")]
let navigatorProducts: [Target.Dependency] = [.product(name: "ComposableNavigator", package: "swift-composable-navigator")]
#endif

let package = Package(
    name: "SeedPackage",
    // iOS 13: what ComposableNavigator 0.2.0 declares. macOS 13: what the routes package
    // declares, whose `routes` tool the plugin runs on the Mac that builds.
    platforms: [.iOS(.v13), .macOS(.v13)],
    products: [
        .library(name: "SeedApp", targets: ["SeedApp"]),
    ],
    dependencies: [.package(name: "routes", path: "../..")] + navigator,
    targets: [
        .target(
            name: "SeedApp",
            dependencies: navigatorProducts,
            plugins: [.plugin(name: "RoutesGenerator", package: "routes")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

#if os(Linux)
package.targets.append(.executableTarget(name: "SeedDemo", dependencies: ["SeedApp"]))
#endif
