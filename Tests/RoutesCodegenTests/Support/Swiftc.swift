import Foundation
import Testing

/// Locations, processes and the Swift compiler, for the tests that compile generated code.
enum Swiftc {
    /// The package root (four levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let standInSources = packageRoot.appendingPathComponent("Tests/CodegenStandIn/Sources")

    /// The stand-in's modules, each after those it imports: SwiftUI's `View`, and
    /// ComposableNavigator, which imports SwiftUI without re-exporting it (as the library).
    static let standInModules = ["Combine", "SwiftUI", "ComposableNavigator"]

    /// `swiftc`: `SWIFTC`, else the first on `PATH`.
    static let executable: URL? = {
        if let env = ProcessInfo.processInfo.environment["SWIFTC"] { return URL(fileURLWithPath: env) }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    /// The built `routes` executable: `ROUTES_BIN`, or the one beside the test bundle.
    static let routesBinary: URL = {
        if let env = ProcessInfo.processInfo.environment["ROUTES_BIN"] { return URL(fileURLWithPath: env) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        }
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("routes").path) && dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("routes")
    }()

    struct Run {
        var status: Int32
        var output: String
    }

    /// Runs a program and collects stdout and stderr together (through a file, so that no
    /// pipe fills up).
    static func run(_ executable: URL, _ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("codegen-out-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outURL) }
        let handle = try FileHandle(forWritingTo: outURL)
        process.standardOutput = handle
        process.standardError = handle
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? handle.close()
        let data = (try? Data(contentsOf: outURL)) ?? Data()
        return Run(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    /// Writes `sources` into a temporary directory, compiles them with the stand-ins into an
    /// executable of `module`, runs it without arguments, and removes the directory.
    static func compileAndRun(_ sources: [(name: String, text: String)], module: String) throws -> Run {
        let dir = try temporaryDirectory(module)
        defer { try? FileManager.default.removeItem(at: dir) }
        let executable = dir.appendingPathComponent(module)
        try compile(write(sources, in: dir), module: module, product: .executable(executable))
        return try run(executable, [])
    }

    /// Writes each `(name, text)` source into `directory`; the files' URLs, in order.
    static func write(_ sources: [(name: String, text: String)], in directory: URL) throws -> [URL] {
        try sources.map { name, text in
            let url = directory.appendingPathComponent(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url
        }
    }

    static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("routes-codegen-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.resolvingSymlinksInPath()
    }

    /// The stand-in's modules, built once per test process (in Swift 5 mode, as the library
    /// and SwiftUI are built): a folder holding `SwiftUI.swiftmodule`, `libSwiftUI.a`,
    /// `ComposableNavigator.swiftmodule` and `libComposableNavigator.a`.
    static let standIn: Result<URL, CompileFailure> = {
        guard let swiftc = executable else { return .failure(CompileFailure(output: "swiftc not found on PATH (set SWIFTC)")) }
        do {
            // One folder per checkout (not per run), rebuilt by every run.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for b in packageRoot.path.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("routes-codegen-stand-in-\(String(hash, radix: 16))")
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for module in standInModules {
                let folder = standInSources.appendingPathComponent(module)
                let sources = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                    .filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0).path }
                let r = try run(swiftc, ["-module-name", module, "-parse-as-library", "-swift-version", "5", "-I", dir.path,
                                         "-emit-library", "-static", "-emit-module",
                                         "-emit-module-path", dir.appendingPathComponent("\(module).swiftmodule").path,
                                         "-o", dir.appendingPathComponent("lib\(module).a").path] + sources)
                guard r.status == 0, !r.output.contains("warning:") else { return .failure(CompileFailure(output: "\(module): \(r.output)")) }
            }
            return .success(dir)
        } catch {
            return .failure(CompileFailure(output: "\(error)"))
        }
    }()

    struct CompileFailure: Error, CustomStringConvertible {
        var output: String
        var description: String { output }
    }

    enum Product {
        /// One module type-checked and through the compiler's diagnostic passes (`-emit-sil`:
        /// everything that warns, without code generation).
        case checked
        /// One module type-checked only (faster; the diagnostics of the later passes, such as
        /// Swift 6's isolation regions, are not emitted).
        case typechecked
        /// An executable linked with the stand-in.
        case executable(URL)
    }

    /// Compiles files (the generated code and what the test adds) against the stand-ins, in
    /// Swift 6 mode (or `swiftVersion`). Returns the compiler's output; throws when it fails
    /// or warns.
    @discardableResult
    static func compile(_ files: [URL], module: String, product: Product, swiftVersion: String = "6",
                        extraArguments: [String] = []) throws -> String {
        guard let swiftc = executable else { throw CompileFailure(output: "swiftc not found on PATH (set SWIFTC)") }
        let standIn = try Swiftc.standIn.get()
        var arguments = ["-module-name", module, "-swift-version", swiftVersion, "-I", standIn.path, "-Onone"]
        switch product {
        case .checked:
            arguments += ["-parse-as-library", "-wmo", "-emit-sil", "-o", "/dev/null"]
        case .typechecked:
            arguments += ["-parse-as-library", "-wmo", "-typecheck"]
        case .executable(let url):
            arguments += ["-L", standIn.path] + standInModules.reversed().map { "-l" + $0 } + ["-o", url.path]
        }
        let r = try run(swiftc, arguments + extraArguments + files.map(\.path))
        if r.status != 0 || r.output.contains("warning:") || r.output.contains("error:") {
            throw CompileFailure(output: r.output)
        }
        return r.output
    }
}
