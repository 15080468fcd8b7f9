// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "routes",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "routes", targets: ["routes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The json-c C library, exposed to Swift. Nothing else lives here.
        .systemLibrary(
            name: "CJSONC",
            pkgConfig: "json-c",
            providers: [.apt(["libjson-c-dev"]), .brew(["json-c"])]
        ),
        // One small, safe Swift layer over json-c: build, read, serialize.
        .target(name: "RoutesJSON", dependencies: ["CJSONC"]),
        // Source text, tokens, the resilient parser, the lossless syntax tree, line index.
        .target(name: "RoutesSyntax"),
        // The PathBuilder model, declarations, name resolution, programs of imported files.
        .target(name: "RoutesModel", dependencies: ["RoutesSyntax"]),
        // Build semantics, path resolution, the analyses of SPEC §5, the routing-tree preview.
        .target(name: "RoutesAnalysis", dependencies: ["RoutesModel", "RoutesSyntax"]),
        // Editor features as plain Swift values over a project and byte offsets.
        .target(name: "RoutesIDE", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax"]),
        // The language server: framing, JSON-RPC, lifecycle, documents, dispatch.
        .target(name: "RoutesLSP", dependencies: ["RoutesIDE", "RoutesFormats", "RoutesAnalysis", "RoutesModel", "RoutesSyntax", "RoutesJSON"]),
        // JSON encodings shared by the CLI and the language server (diagnostics, trees).
        .target(name: "RoutesFormats", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax", "RoutesJSON"]),
        .executableTarget(
            name: "routes",
            dependencies: [
                "RoutesJSON", "RoutesSyntax", "RoutesModel", "RoutesAnalysis", "RoutesFormats", "RoutesLSP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RoutesJSONTests", dependencies: ["RoutesJSON"]),
        .testTarget(name: "RoutesSyntaxTests", dependencies: ["RoutesSyntax"]),
        .testTarget(name: "RoutesModelTests", dependencies: ["RoutesModel", "RoutesSyntax"]),
        .testTarget(name: "RoutesAnalysisTests", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax"]),
        .testTarget(name: "RoutesIDETests", dependencies: ["RoutesIDE", "RoutesAnalysis", "RoutesModel", "RoutesSyntax"]),
        .testTarget(name: "RoutesLSPTests", dependencies: ["RoutesLSP", "RoutesJSON"]),
        .testTarget(name: "RoutesCLITests", dependencies: ["RoutesJSON"]),
    ],
    swiftLanguageModes: [.v6]
)
