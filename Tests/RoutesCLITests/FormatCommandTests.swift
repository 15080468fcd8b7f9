import Foundation
import Testing

/// `routes fmt` (README.md, Formatting; docs/formatting.md), running the built binary: in
/// place, `--check`, `--diff`, standard input, folders and routes.json's `exclude`, exit codes,
/// files it must not touch.
@Suite struct FormatCommandTests {
    static let messy = "screen   Home\nroot {\nscreen Home\n}\n"
    static let tidy = "screen Home\nroot {\n  screen Home\n}\n"

    func write(_ files: [String: String], in dir: URL) throws {
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    func read(_ name: String, in dir: URL) throws -> String {
        String(decoding: try Data(contentsOf: dir.appendingPathComponent(name)), as: UTF8.self)
    }

    func attributes(_ name: String, in dir: URL) throws -> [FileAttributeKey: Any] {
        try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)
    }

    /// Every formatter fixture, through the binary: standard input to standard output.
    @Test(arguments: ["comments", "crlf", "bom", "syntax-errors", "suppressions", "whitespace-only"])
    func standardInputGivesTheFixturesFormat(_ name: String) throws {
        let dir = Support.fixtures.appendingPathComponent("fmt")
        let input = try Data(contentsOf: dir.appendingPathComponent(name + ".routes"))
        let expected = try Data(contentsOf: dir.appendingPathComponent(name + ".formatted"))
        let temp = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        // Byte for byte: through a file (CRLF, a byte-order mark), in place.
        try input.write(to: temp.appendingPathComponent("App.routes"))
        let r = try Support.run(["fmt", "App.routes"], in: temp)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try Data(contentsOf: temp.appendingPathComponent("App.routes")) == expected)
        // And through standard input.
        let s = try Support.run(["fmt", "-"], in: temp, stdin: String(decoding: input, as: UTF8.self))
        #expect(s.status == 0)
        #expect(s.stdout == String(decoding: expected, as: UTF8.self))
    }

    @Test func inPlaceRewritesOnlyWhatChangesAndKeepsPermissions() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["A.routes": Self.messy, "Sub/B.routes": Self.tidy, "notes.txt": "screen   X\n"], in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: dir.appendingPathComponent("A.routes").path)
        let untouched = try attributes("Sub/B.routes", in: dir)[.modificationDate] as? Date
        let inode = try attributes("Sub/B.routes", in: dir)[.systemFileNumber] as? Int
        Thread.sleep(forTimeInterval: 0.02)
        let r = try Support.run(["fmt", "."], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "1 file reformatted, 1 file already formatted\n")
        #expect(try read("A.routes", in: dir) == Self.tidy)
        #expect((try attributes("A.routes", in: dir)[.posixPermissions] as? Int) == 0o640)
        // A formatted file is not written at all.
        #expect((try attributes("Sub/B.routes", in: dir)[.modificationDate] as? Date) == untouched)
        #expect((try attributes("Sub/B.routes", in: dir)[.systemFileNumber] as? Int) == inode)
        // Not a .routes file: not searched for.
        #expect(try read("notes.txt", in: dir) == "screen   X\n")
        // No temporary file is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aSymbolicLinkStaysALinkAndItsTargetIsFormatted() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["real/A.routes": Self.messy], in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("Link.routes").path, withDestinationPath: "real/A.routes")
        let r = try Support.run(["fmt", "Link.routes"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("Link.routes").path) == "real/A.routes")
        #expect(try read("real/A.routes", in: dir) == Self.tidy)
    }

    @Test func aFileWithHardLinksIsFormattedInPlaceForEveryLink() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["A.routes": Self.messy], in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.linkItem(at: dir.appendingPathComponent("A.routes"), to: dir.appendingPathComponent("elsewhere/Twin.txt"))
        let inode = try attributes("A.routes", in: dir)[.systemFileNumber] as? Int
        let r = try Support.run(["fmt", "A.routes"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try read("A.routes", in: dir) == Self.tidy)
        #expect(try read("elsewhere/Twin.txt", in: dir) == Self.tidy, "the other link sees the new text")
        #expect((try attributes("A.routes", in: dir)[.systemFileNumber] as? Int) == inode)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func checkListsWhatWouldChangeAndChangesNothing() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["A.routes": Self.messy, "B.routes": Self.tidy], in: dir)
        let r = try Support.run(["fmt", "--check", "."], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout == "would reformat: A.routes\n1 file would be reformatted, 1 file already formatted\n")
        #expect(try read("A.routes", in: dir) == Self.messy)
        // Once formatted, --check passes.
        _ = try Support.run(["fmt", "."], in: dir)
        let again = try Support.run(["fmt", "--check", "."], in: dir)
        #expect(again.status == 0)
        #expect(again.stdout == "0 files would be reformatted, 2 files already formatted\n")
    }

    @Test func diffPrintsAUnifiedDiffThatPatchApplies() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["A.routes": Self.messy, "B.routes": Self.tidy], in: dir)
        let r = try Support.run(["fmt", "--diff", "."], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout == """
            --- A.routes
            +++ A.routes
            @@ -1,4 +1,4 @@
            -screen   Home
            +screen Home
             root {
            -screen Home
            +  screen Home
             }

            """)
        #expect(r.stderr == "1 file would be reformatted, 1 file already formatted\n")
        #expect(try read("A.routes", in: dir) == Self.messy)
        // The diff applies with patch(1) and gives the formatted file.
        let patch = Process()
        patch.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        patch.arguments = ["patch", "-s", "-p0"]
        patch.currentDirectoryURL = dir
        let input = Pipe()
        patch.standardInput = input
        try patch.run()
        input.fileHandleForWriting.write(Data(r.stdout.utf8))
        try input.fileHandleForWriting.close()
        patch.waitUntilExit()
        #expect(patch.terminationStatus == 0)
        #expect(try read("A.routes", in: dir) == Self.tidy)
    }

    @Test func diffOfATextWithoutFinalLineBreakSaysSo() throws {
        let r = try Support.run(["fmt", "--diff", "-", "--stdin-filename", "X.routes"], stdin: "screen  A")
        #expect(r.status == 1)
        #expect(r.stdout == "--- X.routes\n+++ X.routes\n@@ -1,1 +1,1 @@\n-screen  A\n\\ No newline at end of file\n+screen A\n")
    }

    @Test func standardInput() throws {
        let r = try Support.run(["fmt", "-"], stdin: Self.messy)
        #expect(r.status == 0)
        #expect(r.stdout == Self.tidy)
        #expect(r.stderr.isEmpty)
        let check = try Support.run(["fmt", "--check", "-", "--stdin-filename", "App.routes"], stdin: Self.messy)
        #expect(check.status == 1)
        #expect(check.stdout == "would reformat: App.routes\n")
        let clean = try Support.run(["fmt", "--check", "-"], stdin: Self.tidy)
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
        // With syntax errors: formatted around them, with a note on stderr.
        let broken = try Support.run(["fmt", "-"], stdin: "screen   A\nflag f = 1\n")
        #expect(broken.status == 0)
        #expect(broken.stdout == "screen A\nflag f = 1\n")
        #expect(broken.stderr.contains("stdin.routes has syntax errors"))
    }

    @Test func excludedFilesAreLeftOutOfFolders() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["routes.json": "{\"exclude\": [\"Generated\"]}\n", "A.routes": Self.messy, "Generated/G.routes": Self.messy], in: dir)
        let r = try Support.run(["fmt", "."], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try read("A.routes", in: dir) == Self.tidy)
        #expect(try read("Generated/G.routes", in: dir) == Self.messy)
        // Named directly, an excluded file is formatted.
        _ = try Support.run(["fmt", "Generated/G.routes"], in: dir)
        #expect(try read("Generated/G.routes", in: dir) == Self.tidy)
    }

    @Test func aConfigWithProblemsFormatsNothing() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["routes.json": "{\"exclude\": 3}\n", "A.routes": Self.messy], in: dir)
        let r = try Support.run(["fmt", "."], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("routes.json:1:13: error:"), "\(r.stderr)")
        #expect(r.stderr.contains("nothing was formatted"))
        #expect(try read("A.routes", in: dir) == Self.messy)
    }

    @Test func unreadableAndRefusedFilesExitTwoAndStayUntouched() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["A.routes": Self.messy], in: dir)
        let bad: [UInt8] = Array("screen   B // ".utf8) + [0xFF, 0x0A]
        try Data(bad).write(to: dir.appendingPathComponent("Bad.routes"))
        let r = try Support.run(["fmt", "A.routes", "Bad.routes", "Missing.routes"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot read 'Missing.routes'"), "\(r.stderr)")
        #expect(r.stderr.contains("cannot format 'Bad.routes': the file is not valid UTF-8"), "\(r.stderr)")
        #expect(r.stdout == "1 file reformatted, 0 files already formatted, 1 file left as it was (see above)\n")
        // The others are still formatted; the refused one keeps its bytes.
        #expect(try read("A.routes", in: dir) == Self.tidy)
        #expect([UInt8](try Data(contentsOf: dir.appendingPathComponent("Bad.routes"))) == bad)
        // --check: 2 wins over 1.
        try write(["A.routes": Self.messy], in: dir)
        #expect(try Support.run(["fmt", "--check", "A.routes", "Bad.routes"], in: dir).status == 2)
    }

    @Test func aReadOnlyFolderIsAnErrorAndTheFileStays() throws {
        guard getuid() != 0 else { return }  // root writes anywhere
        let dir = try Support.temporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent("ro").path)
            try? FileManager.default.removeItem(at: dir)
        }
        try write(["ro/A.routes": Self.messy], in: dir)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.appendingPathComponent("ro").path)
        let r = try Support.run(["fmt", "ro/A.routes"], in: dir)
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot write 'ro/A.routes'"), "\(r.stderr)")
        #expect(try read("ro/A.routes", in: dir) == Self.messy)
    }

    /// The repository's examples are in the canonical layout (the fixtures are not: their
    /// layout is what they test).
    @Test func theExamplesAreFormatted() throws {
        let r = try Support.run(["fmt", "--check", "Examples"], in: Support.packageRoot)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("0 files would be reformatted"), "\(r.stdout)")
    }

    @Test func usageErrorsExitTwo() throws {
        let mixed = try Support.run(["fmt", "-", "A.routes"], stdin: "")
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("formatted alone"))
        let name = try Support.run(["fmt", "--stdin-filename", "X.routes", "."])
        #expect(name.status == 2)
        #expect(try Support.run(["fmt", "--nope"]).status == 2)
    }
}
