// swift-tools-version:6.0
import PackageDescription

// A stand-in for ComposableNavigator 0.2.0 and the part of SwiftUI it names, for tests on
// Linux, where SwiftUI does not exist: the public signatures that `routes gen swift`
// generates calls to and that an app's wiring calls, with path builders that resolve paths
// as the library's do, and the SwiftUI navigation that the SwiftUI target calls. Three
// modules, as the real ones are: `SwiftUI` re-exports `Combine`; `ComposableNavigator` imports
// `SwiftUI` without re-exporting it. All three are compiled in Swift 5 mode, as the library's
// package (tools version 5.3) and Apple's SwiftUI are. See README.md. Never ship it in an app.
let package = Package(
    name: "ComposableNavigatorStandIn",
    products: [
        .library(name: "Combine", targets: ["Combine"]),
        .library(name: "SwiftUI", targets: ["SwiftUI"]),
        .library(name: "ComposableNavigator", targets: ["ComposableNavigator"]),
    ],
    targets: [
        .target(name: "Combine", swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "SwiftUI", dependencies: ["Combine"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .target(name: "ComposableNavigator", dependencies: ["SwiftUI"], swiftSettings: [.swiftLanguageMode(.v5)]),
    ],
    swiftLanguageModes: [.v6]
)
