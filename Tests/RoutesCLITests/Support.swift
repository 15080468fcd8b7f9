import Foundation
import Testing

/// Locations and process helpers shared by the CLI tests.
enum Support {
    /// The package root (three levels above this file).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// The built `routes` executable: `ROUTES_BIN`, or the one beside the test bundle.
    static let binary: URL = {
        if let env = ProcessInfo.processInfo.environment["ROUTES_BIN"] {
            return URL(fileURLWithPath: env)
        }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        }
        // On Linux the tests run from `.build/<config>/routesPackageTests.xctest`.
        while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("routes").path)
                && dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.appendingPathComponent("routes")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `routes` with arguments in a directory and collects its output.
    /// - Parameter stdinFile: a file (or folder) to give as standard input, in place of `stdin`.
    static func run(_ arguments: [String], in directory: URL? = nil, stdin: String? = nil,
                    environment: [String: String] = [:], stdinFile: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        env["ROUTES_PROFILE"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        // stderr goes to a file so that neither pipe can fill up while the other is read.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("routes-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let errHandle = try FileHandle(forWritingTo: errURL)
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = errHandle
        if let stdinFile {
            guard let handle = FileHandle(forReadingAtPath: stdinFile) else { throw CocoaError(.fileReadNoSuchFile) }
            process.standardInput = handle
        } else {
            process.standardInput = input
        }
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errHandle.close()
        let errData = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("routes-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.resolvingSymlinksInPath()
    }
}
