import Foundation
import RoutesJSON
import Testing
import TestSupport

@Suite struct LintCommandTests {
    /// Blocks nested as deep as the parser reads (199: one level under its limit of 200),
    /// of each kind that recurses: the debug build's stack holds them (a parser function on
    /// that recursion whose frame grew made `routes lint` crash here, where the parser's
    /// own tests, on another stack, passed).
    static let deepNestings: [(name: String, open: String, inner: String)] = [
        ("screens", "screen A {\n", "empty"), ("anyOf", "anyOf {\n", "screen A"),
        ("if let", "if let o {\n", "screen A"), ("else", "conditional f { screen A } else {\n", "screen A"),
        ("else if let", "if let o { screen A } else {\n", "screen A"),
    ]

    @Test(arguments: deepNestings.map(\.name))
    func nestingAsDeepAsTheParserReadsIsLinted(_ name: String) throws {
        let nesting = try #require(Self.deepNestings.first { $0.name == name })
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let depth = 199
        let text = "screen A\nflag f\noptional o: O\nroot {\n" + String(repeating: nesting.open, count: depth) + nesting.inner + "\n"
            + String(repeating: "}\n", count: depth) + "}\n"
        try write(["App.routes": text, "routes.json": "{}\n"], in: dir)
        let r = try Support.run(["lint", "App.routes"], in: dir)
        #expect(r.status == 0 || r.status == 1, "\(r.stderr.prefix(400))")
        #expect(r.stdout.contains("0 errors"), "\(r.stdout.suffix(300))")
    }

    func write(_ files: [String: String], in dir: URL) throws {
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// n flag pairs tested together in `anyOf` branches after every x was tested alone: the
    /// exact analysis would need 2^n decision-diagram nodes.
    static func entangled(_ n: Int) -> String { entangledRoutes(pairs: n, last: ["screen A", "screen B"]) }

    /// A program over the analysis's limit is an error at its `root`, naming the limit; the
    /// rules that need no analysis still report (an unused flag); the exit status is 1.
    /// Standard input that cannot be read is an error, not an empty text that lints clean;
    /// the lint reports it as it does a path that cannot be read, and lints the other paths.
    @Test func unreadableStandardInputExitsTwo() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "screen Home\nroot { screen Home { screen Nope } }\n".write(to: dir.appendingPathComponent("Bad.routes"), atomically: true, encoding: .utf8)
        let formatted = try Support.run(["fmt", "-"], stdinFile: dir.path)
        #expect(formatted.status == 2)
        #expect(formatted.stderr.contains("cannot read standard input"), "\(formatted.stderr)")
        #expect(formatted.stdout.isEmpty)
        let alone = try Support.run(["lint", "-"], in: dir, stdinFile: dir.path)
        #expect(alone.status == 2)
        #expect(alone.stderr.contains("cannot read standard input"), "\(alone.stderr)")
        #expect(alone.stdout.contains("in 0 files"), "\(alone.stdout)")
        let beside = try Support.run(["lint", "Bad.routes", "-"], in: dir, stdinFile: dir.path)
        #expect(beside.status == 2)
        #expect(beside.stdout.contains("cannot find screen `Nope`"), "\(beside.stdout)")
        let json = try Support.run(["lint", "--format", "json", "Bad.routes", "-"], in: dir, stdinFile: dir.path)
        #expect(json.status == 2)
        #expect(json.stdout.contains("\"undefined-name\""), "\(json.stdout)")
        #expect(json.stdout.contains("cannot read standard input"), "\(json.stdout)")
    }

    /// A `.routes` link to nothing, found in a folder, is reported unreadable (exit 2), as
    /// the other files found there that cannot be read are; the others are linted.
    @Test func aLinkToNothingFoundInAFolderIsReported() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("app"), withIntermediateDirectories: true)
        try "screen A\nroot { screen A }\n".write(to: dir.appendingPathComponent("app/App.routes"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("app/Gone.routes").path, withDestinationPath: "../nowhere.routes")
        for arguments in [["lint", "app"], ["fmt", "--check", "app"]] {
            let r = try Support.run(arguments, in: dir)
            #expect(r.status == 2, "\(arguments)")
            #expect(r.stderr.contains("cannot read 'app/Gone.routes'"), "\(arguments): \(r.stderr)")
        }
        #expect(try Support.run(["lint", "app"], in: dir).stdout.contains("in 1 file"))
    }

    @Test func anAnalysisOverItsLimitIsAnErrorAtTheRootAndTheOtherRulesStillRun() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["App.routes": "flag unusedFlag\n" + Self.entangled(24)], in: dir)
        let r = try Support.run(["lint", "App.routes"], in: dir)
        #expect(r.status == 1, "an unchecked program does not pass")
        #expect(r.stdout.contains("App.routes:1:6: warning: flag `unusedFlag` is never used [unused-declaration]"), "\(r.stdout)")
        let root = 3 + 2 * 24 + 1
        #expect(r.stdout.contains("App.routes:\(root):1: error: the analysis of this program stopped at its limit of \(1 << 21) decision-diagram nodes"), "\(r.stdout)")
        #expect(r.stdout.contains("[analysis-limit]"))
        #expect(r.stdout.hasSuffix("1 error, 1 warning in 1 file\n"))
        #expect(r.stderr.isEmpty, "the finding is a diagnostic, not a note on stderr: \(r.stderr)")
        // The same shape with fewer pairs is analysed in full.
        try write(["Small.routes": Self.entangled(8)], in: dir)
        let small = try Support.run(["lint", "--deny-warnings", "Small.routes"], in: dir)
        #expect(small.status == 0, "\(small.stdout)")
    }

    /// A shared builder's unreachable screen is explained at a use in one of the programs
    /// that share it: the same one whatever order the programs are named in.
    @Test func aSharedFilesWordsDoNotDependOnTheOrderOfThePrograms() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = "screen Home\nscreen Results\nscreen Other\nbuilder search {\n  anyOf {\n    screen Results\n    screen Other\n  }\n}\n"
        func app(_ name: String) -> String {
            "import \"../lib/Lib.routes\"\nroot {\n  screen Home {\n    anyOf {\n      screen Results\n      search\n    }\n  }\n}\n"
        }
        try write(["lib/Lib.routes": lib, "b/App.routes": app("b"), "a/App.routes": app("a")], in: dir)
        let forwards = try Support.run(["lint", "a", "b", "lib"], in: dir)
        let backwards = try Support.run(["lint", "b", "a", "lib"], in: dir)
        let line = { (r: Support.Result) in r.stdout.split(separator: "\n").first { $0.contains("is never built") }.map(String.init) }
        #expect(line(forwards)?.contains("at ../a/App.routes:6:7, an earlier branch of the `anyOf` at ../a/App.routes:4:5") == true, "\(forwards.stdout)")
        #expect(line(backwards) == line(forwards), "\(backwards.stdout)")
    }

    /// A warning in a library two apps share is judged over both apps' evaluations together:
    /// a branch one app finds shadowed and the other never builds anything with is shadowed,
    /// and a screen neither app builds is unreachable also where one app reported the branch
    /// around it instead (while nothing inside what the union reports is reported again).
    @Test(arguments: [
        (["builder b {\n  anyOf {\n    conditional g { screen A } else { empty }\n    conditional f { screen A } else { empty }\n  }\n}\n",
          "root { screen Home { conditional g { b } else { empty } } }\n",
          "root { screen Home { conditional g { empty } else { conditional f { empty } else { b } } } }\n"],
         ["Lib.routes:3 unreachable-screen", "Lib.routes:9 shadowed-branch"]),  // (`B` is placed nowhere here)
        (["builder b {\n  anyOf {\n    conditional g { screen A } else { empty }\n    screen A { conditional f { empty } else { screen B } }\n  }\n}\n",
          "root { screen Home { conditional g { b } else { empty } } }\n",
          "root { screen Home { conditional g { empty } else { conditional f { b } else { empty } } } }\n"],
         ["Lib.routes:9 unreachable-screen"]),
        // A push one app builds after a sheet that allows none, and the other never builds.
        (["screen Sheet sheet(allowsPush: false)\nscreen Pushed\nbuilder inner { screen Pushed }\n",
          "root { screen Sheet { inner } }\n",
          "root { screen Home { conditional f { conditional f { empty } else { inner } } else { empty } } }\n"],
         ["Lib.routes:2 unreachable-screen", "Lib.routes:3 unreachable-screen", "Lib.routes:5 unused-declaration", "Lib.routes:8 push-in-sheet"]),
    ])
    func aSharedLibrarysWarningsHoldOverTheUnionOfTheApps(_ texts: [String], _ expected: [String]) throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write([
            "Lib.routes": "screen Home\nscreen A\nscreen B\nflag f\nflag g\n" + texts[0],
            "One.routes": "import \"Lib.routes\"\n" + texts[1],
            "Two.routes": "import \"Lib.routes\"\n" + texts[2],
        ], in: dir)
        let r = try Support.run(["lint", "--format", "json", "."], in: dir)
        let files = try JSON.parse(r.stdout)["files"]?.arrayValue ?? []
        let found = files.flatMap { file in
            (file["diagnostics"]?.arrayValue ?? []).map { d in
                "\(file["path"]?.stringValue ?? ""):\((d["range"]?["start"]?["line"]?.intValue ?? -1) + 1) \(d["rule"]?.stringValue ?? "")"
            }
        }
        #expect(found == expected, "\(r.stdout)")
    }

    /// A long line is shown around each diagnostic's range, not whole for each: a line of
    /// 20,000 unexpected characters printed its 80 KB once per error (gigabytes).
    @Test func aLongLineIsShownAroundTheRange() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["Long.routes": "screen Home\nroot { screen Home }\n" + String(repeating: "é@# ", count: 2_000) + "\n"], in: dir)
        let r = try Support.run(["lint", "Long.routes"], in: dir)
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 * 2_000 + 2, "one error per run, each with its line and caret")
        #expect(lines.allSatisfy { $0.unicodeScalars.count < 300 }, "a snippet is cut")
        // The 1,001st error: `…`, the text before it, and its caret under it.
        let header = try #require(lines.firstIndex { $0.hasPrefix("Long.routes:3:4001:") })
        #expect(lines[header + 1].hasPrefix("…") && lines[header + 1].hasSuffix("…"))
        let caret = try #require(lines[header + 2].unicodeScalars.firstIndex(of: "^"))
        let column = lines[header + 2].unicodeScalars.distance(from: lines[header + 2].unicodeScalars.startIndex, to: caret)
        #expect(String(lines[header + 1].unicodeScalars.dropFirst(column).prefix(3)) == "é@#")
    }

    /// A NUL in an import path would cut it short where the file system reads it: no file has
    /// such a path.
    @Test func anImportPathWithANulIsAnImportError() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["Lib.routes": "screen Home\n", "App.routes": "import \"Lib.routes\\u{0}x\"\nroot { screen Home }\n"], in: dir)
        let r = try Support.run(["lint", "App.routes"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.contains("App.routes:1:8: error: cannot read `Lib.routes\\u{0}x`: a path cannot hold a NUL character"), "\(r.stdout)")
        #expect(r.stdout.contains("[import-error]") && !r.stdout.contains("undefined-name"))
    }

    /// The limit forced low with `ROUTES_ANALYSIS_NODE_LIMIT`: a small program with a real
    /// missing dependency and an unused flag stops, keeps the unused flag, loses the
    /// missing dependency (which needs the analysis) and exits 1, in every format.
    /// A file named alone whose program stopped at its limit does not read clean: the
    /// program's error is reported at its `root`, in the file that declares it.
    @Test func anImportedFileOfAProgramOverItsLimitIsNotReportedClean() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["routes.json": "{}", "App.routes": "import \"Lib.routes\"\n" + Self.entangled(24),
                   "Lib.routes": "builder cyc { cyc }\n", "Other.routes": "screen O\nroot { screen O }\n"], in: dir)
        let r = try Support.run(["lint", "Lib.routes"], in: dir)
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stdout.contains("App.routes:\(3 + 2 * 24 + 1):1: error: the analysis of this program stopped at its limit"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("1 error, 1 warning in 2 files\n"), "\(r.stdout)")
        let json = try JSON.parse(try Support.run(["lint", "--format", "json", "Lib.routes"], in: dir).stdout)
        let paths = json["files"]?.arrayValue?.compactMap { $0["path"]?.stringValue } ?? []
        #expect(paths.sorted() == ["App.routes", "Lib.routes"])
        // Only that error of the program's root file: not its other findings, and not a
        // program that does not contain the file.
        let app = json["files"]?.arrayValue?.first { $0["path"]?.stringValue == "App.routes" }
        #expect(app?["diagnostics"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } == ["analysis-limit"])
    }

    @Test func aLimitForcedLowStopsTheAnalysisWithAnErrorInEveryFormat() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = "screen P\nscreen X\ndependency d: D from P\nflag unusedFlag\nroot {\n  anyOf {\n    screen X uses d\n    screen P\n  }\n}\n"
        try write(["App.routes": text], in: dir)
        let full = try Support.run(["lint", "App.routes"], in: dir)
        #expect(full.stdout.contains("[missing-dependency]"))
        let low = ["ROUTES_ANALYSIS_NODE_LIMIT": "3"]
        let r = try Support.run(["lint", "App.routes"], in: dir, environment: low)
        #expect(r.status == 1)
        #expect(r.stdout.contains("App.routes:5:1: error: the analysis of this program stopped at its limit of 3 decision-diagram nodes (or 96 steps)"), "\(r.stdout)")
        #expect(r.stdout.contains("[unused-declaration]"))
        #expect(!r.stdout.contains("[missing-dependency]"))
        let json = try Support.run(["lint", "--format", "json", "App.routes"], in: dir, environment: low)
        #expect(json.status == 1)
        let value = try JSON.parse(json.stdout)
        let rules = value["files"]?[0]?["diagnostics"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } ?? []
        #expect(rules.sorted() == ["analysis-limit", "unused-declaration"])
        #expect(value["summary"]?["errors"] == 1)
        let sarif = try Support.run(["lint", "--format", "sarif", "App.routes"], in: dir, environment: low)
        #expect(sarif.status == 1)
        #expect(sarif.stdout.contains("\"ruleId\": \"analysis-limit\"") || sarif.stdout.contains("\"ruleId\":\"analysis-limit\""))
    }

    /// `ROUTES_PROFILE` adds a line per phase on standard error, in the order of their times,
    /// and changes nothing else.
    @Test func aProfileListsThePhasesOnStandardErrorOnly() throws {
        let arguments = ["lint", "Examples/Seed/App.routes"]
        let plain = try Support.run(arguments, in: Support.packageRoot)
        let profiled = try Support.run(arguments, in: Support.packageRoot, environment: ["ROUTES_PROFILE": "1"])
        #expect(profiled.stdout == plain.stdout && profiled.status == plain.status)
        #expect(plain.stderr.isEmpty)
        let lines = profiled.stderr.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("routes: profile: ") }, "\(profiled.stderr)")
        // `routes: profile: MS ms  +MS ms  cpu +MS ms  all +MS ms  N faults  rss R MB peak P MB  malloc M MB  THREAD PHASE`
        // (the resident sizes and malloc's blocks in use on Linux).
        let fields = lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        let times = fields.compactMap { Double($0[2]) }
        #expect(times.count == lines.count && times == times.sorted())
        #if os(Linux)
        let sizes = 9
        #expect(fields.allSatisfy { $0[14] == "rss" && $0[16] == "MB" && $0[17] == "peak" && $0[19] == "MB" })
        let rss = fields.compactMap { Int($0[15]) }, peaks = fields.compactMap { Int($0[18]) }
        #expect(rss.count == lines.count && peaks == peaks.sorted() && zip(rss, peaks).allSatisfy { $0 <= $1 && $0 > 0 })
        #expect(fields.allSatisfy { $0[20] == "malloc" && Int($0[21]) != nil && $0[22] == "MB" })
        #else
        let sizes = 0
        #endif
        let phases = fields.map { $0.dropFirst(15 + sizes).joined(separator: " ") }
        // A thread's processor time since its previous mark, and every thread's since the
        // previous mark of any.
        #expect(fields.allSatisfy { $0[6] == "cpu" && Double($0[7].dropFirst()) != nil })
        #expect(fields.allSatisfy { $0[9] == "all" && $0[10].hasPrefix("+") && Double($0[10].dropFirst()) != nil && $0[11] == "ms" })
        #expect(fields.allSatisfy { $0[13] == "faults" && Int($0[12]) != nil })
        let expected = ["started", "the workspace found: its files and settings", "project: files read, parsed and lowered",
                        "project: names resolved", "project: programs found", "analysis: graphs made", "program: semantics",
                        "program: links' paths followed", "program: rules before the flows", "program: flows", "program: node rules",
                        "program: link rules", "the analysis and its report", "the report written"]
        #expect(phases.filter { !$0.hasPrefix("links: ") && !$0.hasPrefix("heap: ") } == expected, "\(phases)")
        #expect(phases.contains("links: a part read"))
        // The heap is asked for in huge pages where the kernel gives them on request.
        let mode = (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8)) ?? ""
        #expect(phases.contains("heap: in huge pages") == (mode.contains("[madvise]") || mode.contains("[always]")))
        #expect(fields.first?[14 + sizes] == "main")
    }

    @Test func cleanProgramExitsZero() throws {
        let r = try Support.run(["lint", "Examples/Seed/App.routes"], in: Support.packageRoot)
        #expect(r.status == 0)
        #expect(r.stdout == "0 errors, 0 warnings in 1 file\n")
    }

    @Test func aPathIsPrintedAsGivenWithoutItsLeadingDotSlash() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(["t/One.routes": "screen A\nroot { screen B }"], in: dir)
        for (given, shown) in [("t/../t/One.routes", "t/../t/One.routes"), ("./t/One.routes", "t/One.routes"),
                               ("././t/./One.routes", "t/./One.routes"), ("t/../t/", "t/../t/One.routes")] {
            let r = try Support.run(["lint", given], in: dir)
            #expect(r.status == 1)
            #expect(r.stdout.hasPrefix(shown + ":2:15: error: cannot find screen `B` in scope"), "\(given): \(r.stdout)")
        }
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
        #expect(try Support.run(["help", "help"]).status == 0)
        let gh = try Support.run(["help", "gen", "swift"])
        #expect(gh.status == 0)
        #expect(gh.stdout.contains("--out"))
    }

    /// `routes help` of a command that does not exist is bad usage (argument-parser alone prints
    /// the overview and exits 0, so a script misspelling a command would pass).
    @Test(arguments: [["help", "nope"], ["help", "gen", "nope"]])
    func helpOfAnUnknownCommandExitsTwo(_ arguments: [String]) throws {
        let r = try Support.run(arguments)
        #expect(r.status == 2)
        #expect(r.stderr.contains("unknown command 'nope'"))
        #expect(r.stdout.isEmpty)
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
        #expect(run?["tool"]?["driver"]?["rules"]?.arrayValue?.compactMap { $0["id"]?.stringValue }.contains("analysis-limit") == true)
        let registry = try JSON.parse(try Support.run(["rules", "--format", "json"]).stdout)["rules"]?.arrayValue?.count
        #expect(run?["tool"]?["driver"]?["rules"]?.arrayValue?.count == registry)
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

/// `routes rules`, `routes explain` and docs/rules.md, all from the rule registry.
@Suite struct RuleCommandTests {
    @Test func rulesListsEveryRuleWithItsSeverity() throws {
        let r = try Support.run(["rules"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("shadowed-branch") && $0.contains("warning") })
        #expect(lines.contains { $0.hasPrefix("analysis-limit") && $0.contains("error") })
        let json = try JSON.parse(try Support.run(["rules", "--format", "json"]).stdout)
        let rules = json["rules"]?.arrayValue ?? []
        #expect(!rules.isEmpty && rules.count == lines.count)
        #expect(rules.allSatisfy { $0["what"]?.stringValue?.isEmpty == false && $0["example"]?.stringValue?.isEmpty == false })
    }

    @Test func explainPrintsTheDocumentation() throws {
        let r = try Support.run(["explain", "missing-dependency"])
        #expect(r.status == 0)
        for section in ["missing-dependency (error, scope)", "What it reports", "Why it matters", "Example", "How to fix it"] {
            #expect(r.stdout.contains(section), "\(section)")
        }
        let unknown = try Support.run(["explain", "missing-dependecy"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown rule `missing-dependecy`; did you mean `missing-dependency`?"))
    }

    /// docs/rules.md is what `routes rules --format markdown` writes: regenerate it with that
    /// command when a rule changes.
    @Test func theRuleReferenceIsCurrent() throws {
        let r = try Support.run(["rules", "--format", "markdown"])
        let file = try String(contentsOf: Support.packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(file == r.stdout, "docs/rules.md is stale: run `routes rules --format markdown > docs/rules.md`")
    }

    /// Examples/Diagnostics has a file per rule that reports that rule's diagnostics and
    /// nothing else (as its README and the guide promise).
    @Test func everyRuleHasAnExampleThatReportsItAlone() throws {
        let rules = try JSON.parse(try Support.run(["rules", "--format", "json"]).stdout)["rules"]?.arrayValue ?? []
        #expect(!rules.isEmpty)
        for rule in rules {
            let id = try #require(rule["id"]?.stringValue)
            let file = "Examples/Diagnostics/\(id).routes"
            let r = try Support.run(["lint", "--format", "json", file], in: Support.packageRoot)
            let files = try JSON.parse(r.stdout)["files"]?.arrayValue ?? []
            let reported = files.flatMap { $0["diagnostics"]?.arrayValue ?? [] }.compactMap { $0["rule"]?.stringValue }
            #expect(!reported.isEmpty && reported.allSatisfy { $0 == id }, "\(file) reports \(reported)")
        }
    }

    @Test func sarifDescribesEachRuleFromTheRegistry() throws {
        let r = try Support.run(["lint", "--format", "sarif", "Tests/Fixtures/positions/sarif.routes"], in: Support.packageRoot)
        let rules = try JSON.parse(r.stdout)["runs"]?[0]?["tool"]?["driver"]?["rules"]?.arrayValue ?? []
        let shadowed = rules.first { $0["id"] == "shadowed-branch" }
        #expect(shadowed?["fullDescription"]?["text"]?.stringValue?.contains("earlier branch builds that element first") == true)
        #expect(shadowed?["help"]?["text"]?.stringValue?.hasPrefix("Move the branch") == true)
        #expect(shadowed?["help"]?["markdown"]?.stringValue?.contains("```routes") == true)
    }
}
