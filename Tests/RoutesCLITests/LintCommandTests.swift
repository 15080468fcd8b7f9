import Foundation
import RoutesJSON
import Testing
import TestSupport

@Suite struct LintCommandTests {
    func write(_ files: [String: String], in dir: URL) throws {
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// n flag pairs tested together in `anyOf` branches, every x declared before every y: the
    /// exact analysis would need 2^n decision-diagram nodes.
    static func entangled(_ n: Int) -> String { entangledRoutes(pairs: n, last: ["screen A", "screen B"]) }

    @Test func anAnalysisOverItsBudgetSaysSoOnStderrAndFailsUnderDenyWarnings() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": Self.entangled(24)], in: dir)
        let r = try Support.run(["lint", "App.routes"], in: dir)
        #expect(r.status == 0, "nothing in the file breaks a rule that could be checked")
        #expect(r.stdout == "0 errors, 0 warnings in 1 file\n")
        #expect(r.stderr.hasPrefix("routes: warning: the analysis stopped: the routing conditions are too entangled"))
        let strict = try Support.run(["lint", "--deny-warnings", "App.routes"], in: dir)
        #expect(strict.status == 1, "an unchecked program does not pass a strict CI")
        // The same shape with fewer pairs is analysed in full, silently.
        try write(["Small.routes": Self.entangled(8)], in: dir)
        let small = try Support.run(["lint", "--deny-warnings", "Small.routes"], in: dir)
        #expect(small.status == 0)
        #expect(small.stderr.isEmpty)
    }

    @Test func cleanProgramExitsZero() throws {
        let r = try Support.run(["lint", "Examples/Seed/App.routes"], in: Support.packageRoot)
        #expect(r.status == 0)
        #expect(r.stdout == "0 errors, 0 warnings in 1 file\n")
    }

    @Test func directoriesAreSearchedRecursivelyAndPathsPrintedAsGiven() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["a/One.routes": "screen A\nroot { screen B }", "a/b/Two.routes": "screen C", "a/.hidden/X.routes": "junk", "a/notes.txt": "junk"], in: dir)
        let r = try Support.run(["lint", "./a", "--format", "json"], in: dir)
        #expect(r.status == 1)
        let json = try JSON.parse(r.stdout)
        let paths = json["files"]?.arrayValue?.compactMap { $0["path"]?.stringValue }
        #expect(paths == ["a/One.routes", "a/b/Two.routes"])
        #expect(json["summary"]?["errors"]?.intValue == 1)
        #expect(json["version"]?.intValue == 1)
    }

    @Test func defaultPathIsTheCurrentDirectory() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": "screen A\nroot { screen A }"], in: dir)
        let r = try Support.run(["lint"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout.contains("in 1 file"))
    }

    @Test func missingArgumentExitsTwoButStillLintsTheRest() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["Bad.routes": "root { screen Nope }"], in: dir)
        let r = try Support.run(["lint", "Bad.routes", "does-not-exist.routes"], in: dir)
        #expect(r.status == 2)  // 2 wins over 1
        #expect(r.stderr.contains("does-not-exist.routes"))
        #expect(r.stdout.contains("undefined-name"))
    }

    @Test func unreadableArgumentExitsTwo() throws {
        guard getuid() != 0 else { return }  // root reads everything
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["X.routes": "screen X"], in: dir)
        chmod(dir.appendingPathComponent("X.routes").path, 0)
        let r = try Support.run(["lint", "X.routes"], in: dir)
        #expect(r.status == 2)
    }

    @Test func filesTooLargeOrNotRegularAreReportedNotSkippedOrAwaited() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["Bad.routes": "root { screen Nope }"], in: dir)
        let big = dir.appendingPathComponent("big.routes").path
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 17 << 20) == 0)
        #expect(mkfifo(dir.appendingPathComponent("pipe.routes").path, 0o600) == 0)
        // Found in a directory: each is named, the rest is still linted, and nothing blocks on
        // the FIFO (which has no writer).
        let r = try Support.run(["lint", "."], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("routes: error: cannot read 'big.routes': the file is too large (17.0 MiB; the limit is 16.0 MiB)"))
        #expect(r.stderr.contains("routes: error: cannot read 'pipe.routes': not a regular file"))
        #expect(r.stdout.contains("undefined-name"))
        // Named on the command line, and devices.
        let named = try Support.run(["lint", "big.routes", "/dev/zero"], in: dir)
        #expect(named.status == 2)
        #expect(named.stderr.contains("cannot read '/dev/zero': not a regular file"))
        #expect(try Support.run(["tree", "big.routes"], in: dir).stderr.contains("too large"))
    }

    @Test func aFolderThatCannotBeListedExitsTwo() throws {
        guard getuid() != 0 else { return }  // root lists everything
        let dir = try Support.temporaryDirectory()
        defer {
            chmod(dir.appendingPathComponent("locked").path, 0o755)
            try? FileManager.default.removeItem(at: dir)
        }
        try write(["Bad.routes": "root { screen Nope }", "locked/In.routes": "screen X"], in: dir)
        chmod(dir.appendingPathComponent("locked").path, 0)
        let r = try Support.run(["lint", "."], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot read 'locked'"))
    }

    @Test func badUsageExitsTwo() throws {
        #expect(try Support.run(["lint", "--format", "yaml"]).status == 2)
        #expect(try Support.run(["lint", "--no-such-flag"]).status == 2)
        #expect(try Support.run(["frobnicate"]).status == 2)
        #expect(try Support.run(["lint", "--root", "/definitely/not/here"]).status == 2)
    }

    /// A bad `--root` is the subcommand's usage error: its message and its usage line.
    @Test(arguments: [["lint", "--root", "/definitely/not/here"], ["tree", "App.routes", "--root", "/definitely/not/here"]])
    func aRootThatIsNoDirectoryPrintsTheSubcommandsUsage(_ arguments: [String]) throws {
        let r = try Support.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--root /definitely/not/here: not a directory"))
        #expect(r.stderr.contains("Usage: routes \(arguments[0]) "))
    }

    @Test func versionAndHelpExitZero() throws {
        let v = try Support.run(["--version"])
        #expect(v.status == 0)
        #expect(v.stdout.hasPrefix("routes 0."))
        let h = try Support.run(["help"])
        #expect(h.status == 0)
        #expect(h.stdout.contains("lint"))
        let lh = try Support.run(["lint", "--help"])
        #expect(lh.status == 0)
        #expect(lh.stdout.contains("--deny-warnings"))
    }

    @Test func importedFilesAreCheckedAndListed() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": "import \"lib/Lib.routes\"\nroot { screen L }", "lib/Lib.routes": "screen L\nroot2"], in: dir)
        let r = try Support.run(["lint", "App.routes", "--format", "json"], in: dir)
        let json = try JSON.parse(r.stdout)
        let files = json["files"]?.arrayValue ?? []
        #expect(files.compactMap { $0["path"]?.stringValue } == ["App.routes", "lib/Lib.routes"])
        #expect(files[1]["diagnostics"]?[0]?["rule"]?.stringValue == "syntax-error")
        #expect(r.status == 1)
    }

    @Test func eachFileIsCheckedOnceEvenWhenNamedTwice() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["A.routes": "root { screen Nope }"], in: dir)
        let r = try Support.run(["lint", "A.routes", ".", "A.routes"], in: dir)
        #expect(r.stdout.components(separatedBy: "[undefined-name]").count == 2)
        #expect(r.stdout.hasSuffix("1 error, 0 warnings in 1 file\n"))
    }

    @Test func colorAlwaysAddsEscapesAndNeverDoesNot() throws {
        let args = ["lint", "Tests/Fixtures/undefined-name/no-suggestion-when-nothing-is-close.routes"]
        let plain = try Support.run(args + ["--color", "never"], in: Support.packageRoot)
        let colored = try Support.run(args + ["--color", "always"], in: Support.packageRoot)
        #expect(!plain.stdout.contains("\u{1B}["))
        #expect(colored.stdout.contains("\u{1B}[1;31merror"))
        // Piped output in auto mode is plain.
        #expect(!(try Support.run(args, in: Support.packageRoot).stdout.contains("\u{1B}[")))
    }

    @Test func sarifListsEveryRuleAndUsesUTF16Columns() throws {
        let r = try Support.run(["lint", "--format", "sarif", "Tests/Fixtures/positions/sarif.routes"], in: Support.packageRoot)
        let json = try JSON.parse(r.stdout)
        #expect(json["version"]?.stringValue == "2.1.0")
        let run = json["runs"]?[0]
        #expect(run?["columnKind"]?.stringValue == "utf16CodeUnits")
        #expect(run?["tool"]?["driver"]?["rules"]?.arrayValue?.count == 13)
        let region = run?["results"]?[0]?["locations"]?[0]?["physicalLocation"]?["region"]
        #expect(region?["startColumn"]?.intValue == 15)
        #expect(region?["endColumn"]?.intValue == 17)
    }

    @Test func textOutputIsSortedByFileThenPosition() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["b.routes": "root { screen X }\nscreen Y\nroot { screen Z }", "a.routes": "root { screen Q }"], in: dir)
        let r = try Support.run(["lint", "b.routes", "a.routes"], in: dir)
        let heads = r.stdout.split(separator: "\n").filter { $0.contains(": error:") }.map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
        #expect(heads == ["b.routes:1", "b.routes:3", "b.routes:3", "a.routes:1"])
    }
}
