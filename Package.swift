// swift-tools-version:6.0
import PackageDescription
import Foundation

// Release builds skip the run-time exclusivity checks (the compile-time ones stay): they took
// about a tenth of the instructions of a lint (Benchmarks/Pipeline under callgrind). Debug
// builds, and so the tests, keep them.
let release: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "routes",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "routes", targets: ["routes"]),
        // Generates Swift from a target's .routes files on every build (`routes gen swift`).
        .plugin(name: "RoutesGenerator", targets: ["RoutesGenerator"]),
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
        // glibc's malloc_trim, for the language server's idle moments; a lint's heap in huge
        // pages.
        // (DWARF 4, as the Swift modules' debug info: valgrind 3.19 cannot read clang's
        // default DWARF 5, and callgrind is how instructions are counted here.)
        .target(name: "CMalloc", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // One small, safe Swift layer over json-c: build, read, serialize.
        .target(name: "RoutesJSON", dependencies: ["CJSONC"], swiftSettings: release),
        // Source text, tokens, the resilient parser, the lossless syntax tree, line index.
        .target(name: "RoutesSyntax", swiftSettings: release),
        // The PathBuilder model, declarations, name resolution, programs of imported files.
        .target(name: "RoutesModel", dependencies: ["CMalloc", "RoutesSyntax"], swiftSettings: release),
        // Build semantics, path resolution, the rules' analyses (docs/rules.md), the
        // routing-tree preview.
        .target(name: "RoutesAnalysis", dependencies: ["CMalloc", "RoutesModel", "RoutesSyntax"], swiftSettings: release),
        // Editor features as plain Swift values over a project and byte offsets.
        .target(name: "RoutesIDE", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax"], swiftSettings: release),
        // The language server: framing, JSON-RPC, lifecycle, documents, dispatch.
        // Projects as they are on disk: workspace roots, routes.json, which files a lint reads.
        .target(name: "RoutesWorkspace", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax", "RoutesJSON"], swiftSettings: release),
        .target(name: "RoutesLSP", dependencies: ["CMalloc", "RoutesIDE", "RoutesEncoding", "RoutesWorkspace", "RoutesAnalysis", "RoutesModel", "RoutesSyntax", "RoutesJSON"], swiftSettings: release),
        // JSON encodings shared by the CLI and the language server (diagnostics, trees).
        .target(name: "RoutesEncoding", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax", "RoutesJSON"], swiftSettings: release),
        // Swift code generation from checked programs (`routes gen swift`): one file per target.
        .target(name: "RoutesCodegen", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax"], swiftSettings: release),
        .executableTarget(
            name: "routes",
            dependencies: [
                "CMalloc", "RoutesJSON", "RoutesSyntax", "RoutesModel", "RoutesAnalysis", "RoutesEncoding", "RoutesIDE", "RoutesLSP", "RoutesCodegen", "RoutesWorkspace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: release
        ),
        .plugin(name: "RoutesGenerator", capability: .buildTool(), dependencies: ["routes"]),
        // Helpers shared by the test targets (the seeded generator, an entangled program).
        .target(name: "TestSupport", dependencies: ["RoutesModel", "RoutesSyntax"], path: "Tests/TestSupport"),
        // The oracles the property tests and the fuzz targets share (the formatter's
        // properties), and how a fuzz input is split into files.
        .target(name: "Oracles", dependencies: ["RoutesAnalysis", "RoutesModel", "RoutesSyntax", "TestSupport"], path: "Tests/Oracles"),
        .testTarget(name: "RoutesJSONTests", dependencies: ["RoutesJSON", "TestSupport"]),
        .testTarget(name: "RoutesSyntaxTests", dependencies: ["RoutesSyntax", "TestSupport"]),
        .testTarget(name: "RoutesModelTests", dependencies: ["CMalloc", "RoutesModel", "RoutesSyntax", "TestSupport"]),
        // (With RoutesIDE for the property test of fixes, which needs the generators of programs here.)
        .testTarget(name: "RoutesAnalysisTests", dependencies: ["RoutesAnalysis", "RoutesIDE", "RoutesModel", "RoutesSyntax", "TestSupport", "Oracles"]),
        .testTarget(name: "RoutesIDETests", dependencies: ["RoutesIDE", "RoutesAnalysis", "RoutesModel", "RoutesSyntax", "TestSupport"]),
        .testTarget(name: "RoutesLSPTests", dependencies: ["RoutesLSP", "RoutesJSON", "TestSupport"]),
        .testTarget(name: "RoutesCLITests", dependencies: ["RoutesJSON", "TestSupport"]),
        .testTarget(name: "RoutesWorkspaceTests", dependencies: ["RoutesWorkspace", "RoutesAnalysis", "RoutesModel", "RoutesSyntax", "TestSupport"]),
        .testTarget(name: "RoutesCodegenTests", dependencies: ["RoutesCodegen", "RoutesAnalysis", "RoutesEncoding", "RoutesJSON", "RoutesModel", "RoutesSyntax", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (see docs/robustness.md, Fuzzing). Declared only when ROUTES_FUZZ is set,
// because they have no `main` of their own: libFuzzer supplies it when they are built with
// `swift build --sanitize=fuzzer`. `scripts/fuzz.sh` builds and runs them.
if ProcessInfo.processInfo.environment["ROUTES_FUZZ"] != nil {
    package.targets += [
        .target(name: "FuzzSupport", dependencies: ["RoutesAnalysis", "RoutesEncoding", "RoutesIDE", "RoutesModel", "RoutesSyntax", "RoutesJSON", "Oracles"], path: "Fuzz/Support"),
        .executableTarget(name: "fuzz-analysis", dependencies: ["FuzzSupport", "Oracles"], path: "Fuzz/Analysis"),
        .executableTarget(name: "fuzz-server", dependencies: ["FuzzSupport", "RoutesLSP", "RoutesJSON"], path: "Fuzz/Server"),
        .executableTarget(name: "fuzz-programs", dependencies: ["FuzzSupport"], path: "Fuzz/Programs"),
        .executableTarget(name: "fuzz-format", dependencies: ["FuzzSupport", "Oracles"], path: "Fuzz/Format"),
    ]
}

// The pipeline's phases timed in process (Benchmarks/Pipeline): `ROUTES_BENCH=1 swift run -c
// release routes-pipeline FILE…`.
if ProcessInfo.processInfo.environment["ROUTES_BENCH"] != nil {
    package.targets.append(.executableTarget(name: "routes-pipeline", dependencies: ["RoutesAnalysis", "RoutesIDE", "RoutesModel", "RoutesSyntax"], path: "Benchmarks/Pipeline"))
}
