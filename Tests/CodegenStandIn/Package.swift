// swift-tools-version:6.0
import PackageDescription

// A stand-in for ComposableNavigator 0.2.0, for tests on Linux, where SwiftUI does not
// exist: the public signatures that `routes gen swift` generates calls to, with path
// builders that resolve paths as the library's do. See README.md. Never ship it in an app.
let package = Package(
    name: "ComposableNavigatorStandIn",
    products: [
        .library(name: "ComposableNavigator", targets: ["ComposableNavigator"]),
    ],
    targets: [
        .target(name: "ComposableNavigator"),
    ],
    swiftLanguageModes: [.v6]
)
