// swift-tools-version:6.0
import PackageDescription

// The seed app as a package whose navigation is generated from its .routes file on every
// build, by the RoutesGenerator plugin of the routes package (`../..`). On Linux, where
// SwiftUI does not exist, it builds against the test-only stand-ins for ComposableNavigator
// and SwiftUI (Tests/CodegenStandIn); an app for Apple's platforms depends on the library
// itself.
let package = Package(
    name: "SeedPackage",
    dependencies: [
        .package(name: "routes", path: "../.."),
        .package(name: "CodegenStandIn", path: "../../Tests/CodegenStandIn"),
    ],
    targets: [
        .executableTarget(
            name: "SeedApp",
            dependencies: [
                .product(name: "ComposableNavigator", package: "CodegenStandIn"),
                .product(name: "SwiftUI", package: "CodegenStandIn"),
            ],
            plugins: [.plugin(name: "RoutesGenerator", package: "routes")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
