import Foundation
import RoutesJSON
import Testing

/// Projects as they are on disk: workspace roots (routes.json, .git), files shared by several
/// programs, standard input, and the CI formats.
@Suite struct WorkspaceCommandTests {
    func write(_ files: [String: String], in dir: URL) throws {
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Two apps over one library; only Pad uses `split`.
    static let apps: [String: String] = [
        "routes.json": "{}\n",
        "Lib.routes": "screen Home\nscreen Split\nflag leftover\nbuilder split { screen Split }\n",
        "Phone.routes": "import \"Lib.routes\"\nroot { screen Home }\n",
        "Pad.routes": "import \"Lib.routes\"\nroot { screen Home { split } }\n",
    ]

    /// The case: `split` and `Split` are used by Pad, so neither is reported; the one
    /// flag no program uses is, once; and the library's diagnostics are the same whichever
    /// path names it.
    @Test func aSharedLibraryGetsTheSameDiagnosticsWhateverIsLinted() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(Self.apps, in: dir)
        func libraryLines(_ r: Support.Result) -> [String] {
            r.stdout.split(separator: "\n").filter { $0.contains("Lib.routes:") && $0.contains(": warning:") }.map(String.init)
        }
        let folder = try Support.run(["lint", "."], in: dir)
        #expect(libraryLines(folder) == ["Lib.routes:3:6: warning: flag `leftover` is never used [unused-declaration]"], "\(folder.stdout)")
        for args in [["Lib.routes"], ["Pad.routes"], ["Phone.routes"], ["Phone.routes", "Lib.routes"]] {
            let r = try Support.run(["lint"] + args, in: dir)
            #expect(libraryLines(r) == libraryLines(folder), "routes lint \(args): \(r.stdout)")
        }
        // From a subfolder the root is still the folder of routes.json.
        try write(["sub/Extra.routes": "import \"../Lib.routes\"\nroot { screen Home }\n"], in: dir)
        let sub = try Support.run(["lint", "."], in: dir.appendingPathComponent("sub"))
        #expect(sub.status == 0 || sub.status == 1)
        #expect(!sub.stdout.contains("outside the workspace"), "\(sub.stdout)")
        #expect(!sub.stdout.contains("undefined-name"))
    }

    /// `cd app && routes lint .` with an import of `../lib`: the repository (its .git) is the
    /// root, so the import is inside it.
    @Test func aGitRepositoryIsTheRootWithoutAConfig() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try write([
            "lib/Lib.routes": "screen Home\n",
            "app/App.routes": "import \"../lib/Lib.routes\"\nroot { screen Home }\n",
        ], in: dir)
        let r = try Support.run(["lint", "."], in: dir.appendingPathComponent("app"))
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout == "0 errors, 0 warnings in 2 files\n")
    }

    @Test func standardInputIsLintedUnderTheNameItIsGiven() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["Lib.routes": "screen Home\n"], in: dir)
        let text = "import \"Lib.routes\"\nflag leftover\nroot { screen Home }\n"
        let r = try Support.run(["lint", "--stdin-filename", "App.routes", "-"], in: dir, stdin: text)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("App.routes:2:6: warning: flag `leftover` is never used [unused-declaration]"), "\(r.stdout)")
        let unnamed = try Support.run(["lint", "-"], in: dir, stdin: "root { screen Nope }\n")
        #expect(unnamed.status == 1)
        #expect(unnamed.stdout.hasPrefix("stdin.routes:1:15: error: cannot find screen `Nope` in scope"), "\(unnamed.stdout)")
        let misuse = try Support.run(["lint", "--stdin-filename", "App.routes", "Lib.routes"], in: dir)
        #expect(misuse.status == 2)
    }

    @Test func githubAnnotationsCarryTheRuleIdInTheTitle() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": "screen Home\nflag leftover\nroot { screen Nope }\n"], in: dir)
        let r = try Support.run(["lint", "--format", "github", "App.routes", "Missing.routes"], in: dir)
        #expect(r.status == 2)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("::warning file=App.routes,line=2,col=6,endLine=2,endColumn=14,title=unused-declaration::flag `leftover` is never used"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("::error file=App.routes,line=3,col=15,") && $0.contains("title=undefined-name::cannot find screen `Nope` in scope") })
        #expect(lines.contains("::error file=Missing.routes::cannot read 'Missing.routes': no such file or directory"))
        #expect(lines.last == "1 error, 2 warnings in 1 file")
    }

    @Test func aSymbolicLinkToItselfIsNotCalledMissing() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": "import \"Loop.routes\"\nscreen Home\nroot { screen Home }\n"], in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("Loop.routes").path, withDestinationPath: "Loop.routes")
        let named = try Support.run(["lint", "Loop.routes"], in: dir)
        #expect(named.status == 2)
        #expect(named.stderr.contains("cannot read 'Loop.routes': too many levels of symbolic links"), "\(named.stderr)")
        let folder = try Support.run(["lint", "."], in: dir)
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("cannot read 'Loop.routes': too many levels of symbolic links"), "\(folder.stderr)")
        #expect(folder.stdout.hasPrefix("App.routes:1:8: error: cannot read `Loop.routes`: too many levels of symbolic links [import-error]"), "\(folder.stdout)")
    }

    @Test func anUnreadableArgumentIsInTheJSONAndTheSARIF() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": "screen Home\nroot { screen Home }\n"], in: dir)
        let json = try Support.run(["lint", "--format", "json", "App.routes", "Missing.routes"], in: dir)
        #expect(json.status == 2)
        let value = try JSON.parse(json.stdout)
        #expect(value["errors"]?[0]?["path"] == "Missing.routes")
        #expect(value["errors"]?[0]?["message"]?.stringValue?.contains("no such file") == true)
        // The summary counts the diagnostics listed, as the text's summary line does.
        #expect(value["summary"]?["errors"] == 0)
        let text = try Support.run(["lint", "App.routes", "Missing.routes"], in: dir)
        #expect(text.status == 2)
        #expect(text.stdout.hasSuffix("0 errors, 0 warnings in 1 file\n"), "\(text.stdout)")
        let sarif = try Support.run(["lint", "--format", "sarif", "App.routes", "Missing.routes"], in: dir)
        let invocation = try JSON.parse(sarif.stdout)["runs"]?[0]?["invocations"]?[0]
        #expect(invocation?["executionSuccessful"] == false)
        #expect(invocation?["toolExecutionNotifications"]?[0]?["message"]?["text"]?.stringValue?.contains("Missing.routes") == true)
        let clean = try Support.run(["lint", "--format", "sarif", "App.routes"], in: dir)
        #expect(try JSON.parse(clean.stdout)["runs"]?[0]?["invocations"]?[0]?["executionSuccessful"] == true)
    }

    @Test func theReportCanGoToAFile() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": "screen Home\nflag leftover\nroot { screen Home }\n"], in: dir)
        let r = try Support.run(["lint", "--format", "json", "--output-file", "report.json", "App.routes"], in: dir)
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        let report = try JSON.parse(String(contentsOf: dir.appendingPathComponent("report.json"), encoding: .utf8))
        #expect(report["summary"]?["warnings"] == 1)
        let bad = try Support.run(["lint", "--output-file", "no/such/folder/report.txt", "App.routes"], in: dir)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("cannot write 'no/such/folder/report.txt'"))
    }

    @Test func aConfigWithProblemsIsReportedWithItsPositionAndFailsTheLint() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write([
            "routes.json": "{\n  // comments are fine\n  \"rules\": { \"shadowed-brnach\": \"off\" }\n}\n",
            "App.routes": "screen Home\nroot { screen Home }\n",
        ], in: dir)
        let r = try Support.run(["lint", "."], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("routes.json:3:14: error: unknown rule `shadowed-brnach`; did you mean `shadowed-branch`?"), "\(r.stderr)")
        // A huge config is refused, not read.
        try Data(repeating: 0x20, count: (16 << 20) + 1).write(to: dir.appendingPathComponent("routes.json"))
        let huge = try Support.run(["lint", "."], in: dir)
        #expect(huge.status == 2)
        #expect(huge.stderr.contains("the file is too large"), "\(huge.stderr)")
    }

    @Test func theVersionIsPrinted() throws {
        let r = try Support.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("routes "))
    }
}
