import Foundation
import RoutesJSON
import Testing

/// `routes lint --fix` and `--unsafe-fixes` (README.md, Fixes): what is rewritten, what is
/// printed, the exit status, standard input; and how `routes rules` and `routes explain` show
/// a rule's fixes.
@Suite struct FixCommandTests {
    static let fixable = """
        screen Home
        /// Never tested.
        flag isBeta
        dependency catalogStore: CatalogStore
        root { screen Home uses catalogStor } // routes:ignore shadowed-branch

        """

    func folder(_ files: [String: String]) throws -> URL {
        let dir = try Support.temporaryDirectory()
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    func read(_ dir: URL, _ name: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func fixAppliesTheSafeFixesAndExitsWithWhatRemains() throws {
        let dir = try folder(["App.routes": Self.fixable])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--color", "never", "--fix", "App.routes"], in: dir)
        #expect(r.status == 1, "the misspelt name remains: \(r.stdout)")
        #expect(try read(dir, "App.routes") == """
            screen Home
            dependency catalogStore: CatalogStore
            root { screen Home uses catalogStor }

            """)
        #expect(r.stdout.contains("App.routes:3:6: fixed: Remove the unused flag `isBeta` [unused-declaration]"), "\(r.stdout)")
        #expect(r.stdout.contains("fixed: Remove the suppression comment [unused-suppression]"))
        #expect(r.stdout.contains("error: cannot find dependency or optional `catalogStor`"))
        #expect(r.stdout.hasSuffix("1 error, 0 warnings in 1 file (2 fixed)\n"))
        // Only the file is left in the folder: the rewrite's temporary file is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["App.routes"])
    }

    /// A file that an import's fix brings into the report is reported, not edited: its
    /// warnings were never shown before the run.
    @Test func aFileAnImportsFixBringsInIsNotEdited() throws {
        let shared = "screen Home\n/// For the settings screen, still to come.\ndependency settingsStore: SettingsStore\n"
        let dir = try folder(["routes.json": "{}\n", "App.routes": "import \"Shard.routes\"\nroot { screen Home }\n",
                              "Shared.routes": shared])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--color", "never", "--fix", "--unsafe-fixes", "App.routes"], in: dir)
        #expect(try read(dir, "App.routes") == "import \"Shared.routes\"\nroot { screen Home }\n", "\(r.stdout)")
        #expect(try read(dir, "Shared.routes") == shared)
        #expect(r.stdout.contains("Shared.routes:3:12: warning: dependency `settingsStore` is never used"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("0 errors, 1 warning in 2 files (1 fixed)\n"), "\(r.stdout)")
        // Named, it is edited.
        let both = try Support.run(["lint", "--color", "never", "--fix", "--unsafe-fixes", "App.routes", "Shared.routes"], in: dir)
        #expect(try read(dir, "Shared.routes") == "screen Home\n", "\(both.stdout)")
    }

    @Test func unsafeFixesApplyTheRestAndTheExitStatusBecomesZero() throws {
        let dir = try folder(["App.routes": Self.fixable])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--color", "never", "--fix", "--unsafe-fixes", "App.routes"], in: dir)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(try read(dir, "App.routes") == """
            screen Home
            dependency catalogStore: CatalogStore
            root { screen Home uses catalogStore }

            """)
        #expect(r.stdout.hasSuffix("0 errors, 0 warnings in 1 file (3 fixed)\n"))
    }

    @Test func unsafeFixesWithoutFixIsABadUsage() throws {
        let dir = try folder(["App.routes": Self.fixable])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--unsafe-fixes", "App.routes"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--unsafe-fixes applies fixes with --fix"))
        #expect(try read(dir, "App.routes") == Self.fixable)
    }

    @Test func filesWithoutFixesAreNotWrittenAndRewrittenFilesKeepTheirPermissions() throws {
        let dir = try folder(["App.routes": "import \"Lib.routes\"\nroot { b }\n", "Lib.routes": "screen Home\nbuilder b { screen Home }\nflag unused\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        try fm.setAttributes([.posixPermissions: 0o640], ofItemAtPath: dir.appendingPathComponent("Lib.routes").path)
        let appBefore = try fm.attributesOfItem(atPath: dir.appendingPathComponent("App.routes").path)
        let r = try Support.run(["lint", "--fix", "."], in: dir)
        #expect(r.status == 0, "\(r.stdout)")
        #expect(try read(dir, "Lib.routes") == "screen Home\nbuilder b { screen Home }\n")
        let lib = try fm.attributesOfItem(atPath: dir.appendingPathComponent("Lib.routes").path)
        #expect((lib[.posixPermissions] as? Int) == 0o640)
        // The file no fix changed is the same file, untouched.
        let appAfter = try fm.attributesOfItem(atPath: dir.appendingPathComponent("App.routes").path)
        #expect(appAfter[.systemFileNumber] as? Int == appBefore[.systemFileNumber] as? Int)
        #expect(appAfter[.modificationDate] as? Date == appBefore[.modificationDate] as? Date)
    }

    @Test func onlyTheReportedFilesAreEdited() throws {
        // The library's unused flag is reported when the library is linted, not the app.
        let dir = try folder(["routes.json": "{}", "App.routes": "import \"Lib.routes\"\nflag unusedHere\nroot { b }\n",
                              "Lib.routes": "screen Home\nbuilder b { screen Home }\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--fix", "Lib.routes"], in: dir)
        #expect(r.status == 0)
        #expect(try read(dir, "App.routes") == "import \"Lib.routes\"\nflag unusedHere\nroot { b }\n")
    }

    @Test func standardInputGetsTheFixedTextOnStandardOutputAndTheReportOnStandardError() throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--color", "never", "--fix", "--stdin-filename", "App.routes", "-"], in: dir,
                                stdin: "screen Home\nflag x // why\nroot { screen Home }\n")
        #expect(r.status == 0)
        #expect(r.stdout == "screen Home\n// why\nroot { screen Home }\n")
        #expect(r.stderr.contains("App.routes:2:6: fixed: Remove the unused flag `x` [unused-declaration]"))
        #expect(r.stderr.hasSuffix("0 errors, 0 warnings in 1 file (1 fixed)\n"))
        // Nothing was written to disk.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        // Nothing to fix: the text comes back as it was.
        let clean = try Support.run(["lint", "--fix", "-"], in: dir, stdin: "screen Home\nroot { screen Home }")
        #expect(clean.stdout == "screen Home\nroot { screen Home }")
        #expect(clean.status == 0)
    }

    /// Standard input that is not valid UTF-8 is not fixed, and comes back byte for byte (it was
    /// read with replacement characters, which must not reach an editor's buffer).
    @Test func standardInputThatIsNotUTF8ComesBackByteForByte() throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let input: [UInt8] = Array("screen Home\nflag x\nroot { screen Home } // caf".utf8) + [0xE9, 0x0A]
        let inURL = dir.appendingPathComponent("in.bin"), outURL = dir.appendingPathComponent("out.bin")
        try Data(input).write(to: inURL)
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let process = Process()
        process.executableURL = Support.binary
        process.arguments = ["lint", "--fix", "-"]
        process.currentDirectoryURL = dir
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(Array(try Data(contentsOf: outURL)) == input)
    }

    @Test func jsonListsWhatWasFixed() throws {
        let dir = try folder(["App.routes": "screen Home\nflag x\nroot { screen Home }\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--fix", "--format", "json", "App.routes"], in: dir)
        let json = try JSON.parse(r.stdout)
        #expect(json["summary"]?["fixed"] == 1)
        let fixed = try #require(json["fixed"]?.arrayValue?.first)
        #expect(fixed["path"] == "App.routes")
        #expect(fixed["rule"] == "unused-declaration")
        #expect(fixed["range"]?["start"]?["line"] == 1)
        #expect(fixed["range"]?["start"]?["character"] == 5)
        // Without --fix there is no such key.
        let plain = try JSON.parse(try Support.run(["lint", "--format", "json", "App.routes"], in: dir).stdout)
        #expect(plain["fixed"] == nil && plain["summary"]?["fixed"] == nil)
    }

    @Test func aFileThatIsNotValidUTF8IsNotRewritten() throws {
        let dir = try folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes: [UInt8] = Array("screen Home\nflag x // caf".utf8) + [0xE9] + Array("\nroot { screen Home }\n".utf8)
        let url = dir.appendingPathComponent("App.routes")
        try Data(bytes).write(to: url)
        let r = try Support.run(["lint", "--fix", "App.routes"], in: dir)
        #expect(r.stderr.contains("App.routes is not valid UTF-8: not fixed"))
        #expect(r.status == 1)
        #expect(try Data(contentsOf: url) == Data(bytes))
    }

    @Test func fixesThatUndoEachOtherStop() throws {
        // No such pair among the fixes offered: the rounds end because nothing is left.
        let dir = try folder(["App.routes": "screen Home\nscreen Detail\nroot { anyOf { screen Home screen Home { screen Detail } } }\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Support.run(["lint", "--color", "never", "--fix", "--unsafe-fixes", "App.routes"], in: dir)
        #expect(!r.stderr.contains("stopped fixing"), "\(r.stderr)")
        #expect(r.stdout.contains("(1 fixed)"), "\(r.stdout)")
        #expect(try read(dir, "App.routes") == "screen Home\nscreen Detail\nroot { anyOf { screen Home } }\n")
    }

    @Test func rulesAndExplainShowTheFixes() throws {
        let list = try Support.run(["rules"]).stdout.split(separator: "\n")
        #expect(list.contains { $0.hasPrefix("unused-declaration") && $0.contains("fix: safe") })
        #expect(list.contains { $0.hasPrefix("undefined-name") && $0.contains("fix: unsafe") })
        #expect(list.contains { $0.hasPrefix("builder-cycle") && $0.contains("fix: none") })
        let json = try JSON.parse(try Support.run(["rules", "--format", "json"]).stdout)
        let unused = json["rules"]?.arrayValue?.first { $0["id"] == "unused-declaration" }
        #expect(unused?["fixable"] == "safe")
        #expect(unused?["fixes"]?.arrayValue?.map { $0["applicability"]?.stringValue } == ["safe", "unsafe"])
        let explained = try Support.run(["explain", "unused-suppression"]).stdout
        #expect(explained.contains("Automatic fixes\nSafe (`routes lint --fix`): Remove the rule id"))
        #expect(try Support.run(["explain", "builder-cycle"]).stdout.contains("Automatic fixes\nNone."))
    }
}
