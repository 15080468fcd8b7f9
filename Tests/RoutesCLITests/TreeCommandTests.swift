import Foundation
import RoutesJSON
import Testing

@Suite struct TreeCommandTests {
    /// The seed app's routing tree, verbatim: `Examples/Seed/App.tree`.
    static let specTree = (try? String(contentsOf: Support.packageRoot.appendingPathComponent("Examples/Seed/App.tree"), encoding: .utf8))
        ?? "missing Examples/Seed/App.tree"

    static let seed = "Examples/Seed/App.routes"

    func tree(_ arguments: [String]) throws -> Support.Result {
        try Support.run(["tree"] + arguments, in: Support.packageRoot)
    }

    func write(_ files: [String: String], in dir: URL) throws {
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Runs `routes tree` in a fresh directory holding `files`.
    func tree(_ files: [String: String], _ arguments: [String]) throws -> Support.Result {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(files, in: dir)
        return try Support.run(["tree"] + arguments, in: dir)
    }

    // MARK: Text

    @Test func theSeedAppPrintsTheSpecTree() throws {
        let r = try tree([Self.seed])
        #expect(r.status == 0)
        #expect(r.stdout == Self.specTree)
        #expect(r.stderr == "")
    }

    /// The tree shows every environment: flags given without `--path` change nothing, which a
    /// note says (an unknown name is still an error).
    @Test func flagsDoNotChangeTheTree() throws {
        let r = try tree([Self.seed, "--flag", "isLoggedIn=false", "--optional", "detailStore=absent"])
        #expect(r.status == 0)
        #expect(r.stdout == Self.specTree)
        #expect(r.stderr == "routes: note: --flag and --optional choose the environment of a --path; the routing tree shows every environment\n")
        #expect(try tree([Self.seed, "--flag", "isLogedIn=false"]).status == 2)
    }

    @Test func aPathPrintsTheEnvironmentAndOneLinePerElement() throws {
        let r = try tree([Self.seed, "--path", "Home/Detail(id: \"42\")/Detail"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            environment: isLoggedIn=true, detailStore=present (defaults: isLoggedIn, detailStore)
            Home              built at Examples/Seed/App.routes:47:7 (push)
            Detail(id: "42")  built at Examples/Seed/App.routes:38:3 (sheet)
            Detail            built at Examples/Seed/App.routes:38:3 (sheet)

            """)
    }

    /// In a program of several files a reason names the file of its place, the root file's
    /// too (a line and column alone could be in any of them).
    @Test func aReasonNamesTheFileInAProgramOfSeveralFiles() throws {
        let r = try tree(["Examples/Shop/App.routes", "--path", "Shop/Shop", "--flag", "isLoggedIn=false"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("Shop  not built: `anyOf` at Examples/Shop/App.routes:47:5 has no branch for Shop"), "\(r.stdout)")
    }

    @Test func theFirstElementNotBuiltSaysWhy() throws {
        let r = try tree([Self.seed, "--path", "Home/Detail/Settings", "--optional", "detailStore=absent", "--flag", "isLoggedIn=true"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            environment: isLoggedIn=true, detailStore=absent
            Home      built at Examples/Seed/App.routes:47:7 (push)
            Detail    not built: `if let detailStore`: absent
            Settings  not built, because element 2 (Detail) was not built

            """)
        let anyOf = try tree([Self.seed, "--path", "Home/Login"])
        #expect(anyOf.stdout.contains("Login  not built: `anyOf` at 48:9 has no branch for Login\n"))
        let loggedOut = try tree([Self.seed, "--path", "Home", "--flag", "isLoggedIn=false"])
        #expect(loggedOut.stdout.contains("Home  built as Login at Examples/Seed/App.routes:60:7 (push), replaced by `wildcard Login` at Examples/Seed/App.routes:59:5\n"))
    }

    // MARK: JSON

    @Test func jsonTreeHasTheSpecShape() throws {
        let r = try tree([Self.seed, "--format", "json"])
        #expect(r.status == 0)
        let json = try JSON.parse(r.stdout)
        #expect(json["kind"] == "root")
        #expect(json.objectValue?.keys == ["kind", "location", "children"])
        #expect(json["location"] == ["path": "Examples/Seed/App.routes",
                                     "range": ["start": ["line": 43, "character": 0], "end": ["line": 43, "character": 4]]])
        let conditional = json["children"]?[0]
        #expect(conditional?.objectValue?.keys == ["kind", "name", "location", "children"])
        #expect(conditional?["name"] == "isLoggedIn")
        let home = conditional?["children"]?[0]
        #expect(home?["label"] == "true")
        #expect(home?["kind"] == "wildcard")
        let homeScreen = home?["children"]?[0]
        #expect(homeScreen?.objectValue?.keys == ["kind", "name", "presentation", "uses", "location", "children"])
        #expect(homeScreen?["presentation"] == "push")
        #expect(homeScreen?["uses"] == ["appStore"])
        let ifLet = homeScreen?["children"]?[0]?["children"]?[1]
        #expect(ifLet?["kind"] == "ifLet")
        let detail = ifLet?["children"]?[0]
        #expect(detail?.objectValue?.keys == ["kind", "name", "label", "presentation", "uses", "location", "children"])
        #expect(detail?["label"] == "then")
        #expect(detail?["presentation"] == "sheet")
        let recursion = detail?["children"]?[0]
        #expect(recursion?["kind"] == "recursion")
        #expect(recursion?["name"] == "detail")
        #expect(recursion?["children"] == [])
        #expect(recursion?["location"]?["range"]?["start"] == ["line": 38, "character": 4])
        #expect(ifLet?["children"]?[1]?["kind"] == "empty")
        #expect(ifLet?["children"]?[1]?["label"] == "else")
        #expect(conditional?["children"]?[1]?["label"] == "false")
    }

    /// An undeclared screen's node has a presentation too: its placement's, else `push`.
    @Test func jsonScreensOfUndeclaredNamesHaveAPresentation() throws {
        let r = try tree(["App.routes": "screen Home\nroot { screen Home { anyOf { screen Zed\nscreen Zod as sheet } } }\n"],
                         ["App.routes", "--format", "json"])
        let json = try JSON.parse(r.stdout)
        let branches = try #require(json["children"]?[0]?["children"]?[0]?["children"]?.arrayValue)
        #expect(branches.map { $0["name"] ?? .null } == ["Zed", "Zod"])
        #expect(branches.map { $0["presentation"] ?? .null } == ["push", "sheet"])
    }

    @Test func jsonResolutionHasTheSpecShape() throws {
        let r = try tree([Self.seed, "--path", "Home/Login", "--format", "json", "--flag", "isLoggedIn=true"])
        #expect(r.status == 0)
        let json = try JSON.parse(r.stdout)
        #expect(json.objectValue?.keys == ["environment", "elements"])
        #expect(json["environment"] == ["flags": ["isLoggedIn": true], "optionals": ["detailStore": true]])
        let elements = try #require(json["elements"]?.arrayValue)
        #expect(elements.count == 2)
        #expect(elements[0].objectValue?.keys == ["screen", "built", "node", "presentation"])
        #expect(elements[0]["screen"] == "Home")
        #expect(elements[0]["built"] == true)
        #expect(elements[0]["presentation"] == "push")
        #expect(elements[0]["node"] == ["path": "Examples/Seed/App.routes",
                                        "range": ["start": ["line": 46, "character": 6], "end": ["line": 46, "character": 17]]])
        #expect(elements[1].objectValue?.keys == ["screen", "built", "node", "presentation", "reason"])
        #expect(elements[1]["built"] == false)
        #expect(elements[1]["node"] == .null)
        #expect(elements[1]["presentation"] == .null)
        #expect(elements[1]["reason"] == "`anyOf` at 48:9 has no branch for Login")
    }

    /// Every presentation, declared and given at a placement: the tree and a resolution
    /// report the one in force at the node, in text, JSON, DOT and Mermaid.
    static let presentations = """
        screen Home
        screen Paywall cover
        screen Picker popover(allowsPush: false)
        screen Detail sheet(allowsPush: false)
        screen Story cover(allowsPush: false)
        screen Tip popover
        screen Settings

        root {
          screen Home {
            anyOf {
              screen Paywall { screen Settings }
              screen Picker
              screen Detail as push { screen Story { empty } }
              screen Tip { screen Settings as sheet }
              screen Settings as sheet(allowsPush: false)
            }
          }
        }

        """

    @Test func theTreeShowsThePresentationInForceAtEachNode() throws {
        let text = try tree(["App.routes": Self.presentations], ["App.routes"])
        #expect(text.status == 0)
        #expect(text.stdout == """
            root
            └─ Home
               └─ anyOf
                  ├─ Paywall (cover)
                  │  └─ Settings
                  ├─ Picker (popover, no push)
                  ├─ Detail
                  │  └─ Story (cover, no push)
                  │     └─ empty
                  ├─ Tip (popover)
                  │  └─ Settings (sheet)
                  └─ Settings (sheet, no push)

            """)
        let r = try tree(["App.routes": Self.presentations], ["App.routes", "--format", "json"])
        let json = try JSON.parse(r.stdout)
        let branches = try #require(json["children"]?[0]?["children"]?[0]?["children"]?.arrayValue)
        #expect(branches.map { $0["presentation"] } == ["cover", "popoverNoPush", "push", "popover", "sheetNoPush"])
        #expect(branches[0]["children"]?[0]?["presentation"] == "push")
        #expect(branches[2]["children"]?[0]?["presentation"] == "coverNoPush")
        #expect(branches[3]["children"]?[0]?["presentation"] == "sheet")
        let dot = try tree(["App.routes": Self.presentations], ["App.routes", "--format", "dot"])
        #expect(dot.stdout.contains("label=\"Picker (popover, no push)\""))
        let mermaid = try tree(["App.routes": Self.presentations], ["App.routes", "--format", "mermaid"])
        #expect(mermaid.stdout.contains("Story (cover, no push)"))
    }

    @Test func aResolutionReportsThePresentationInForce() throws {
        let r = try tree(["App.routes": Self.presentations],
                         ["App.routes", "--path", "Home/Tip/Settings", "--format", "json"])
        #expect(r.status == 0)
        let elements = try #require(try JSON.parse(r.stdout)["elements"]?.arrayValue)
        #expect(elements.map { $0["presentation"] } == ["push", "popover", "sheet"])
        let pushed = try tree(["App.routes": Self.presentations], ["App.routes", "--path", "Home/Detail/Story"])
        #expect(pushed.stdout.contains("(push)"))
        #expect(pushed.stdout.contains("(cover, no push)"))
    }

    @Test func jsonResolutionNamesTheScreenAWildcardBuilt() throws {
        let r = try tree([Self.seed, "--path", "Settings", "--format", "json"])
        let element = try JSON.parse(r.stdout)["elements"]?[0]
        #expect(element?["screen"] == "Settings")
        #expect(element?["builtAs"] == "Home")
    }

    // MARK: Graphs

    @Test func dotRendersWithGraphviz() throws {
        let r = try tree([Self.seed, "--format", "dot"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("digraph routes {"))
        #expect(r.stdout.contains("style=dashed"))
        let withPath = try tree([Self.seed, "--format", "dot", "--path", "Home/Detail/Detail"])
        #expect(withPath.status == 0)
        #expect(withPath.stdout.contains("filled,bold"))

        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        let dot = searchPath.split(separator: ":").map { "\($0)/dot" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let dot else {
            // CI must have Graphviz; a developer machine may not.
            #expect(ProcessInfo.processInfo.environment["CI"] == nil, "`dot` (Graphviz) is not installed")
            return
        }
        for source in [r.stdout, withPath.stdout] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: dot)
            process.arguments = ["-Tsvg"]
            let input = Pipe(), output = Pipe(), error = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = error
            try process.run()
            input.fileHandleForWriting.write(Data(source.utf8))
            try input.fileHandleForWriting.close()
            let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "dot: \(stderr)")
            #expect(svg.contains("<svg"))
            #expect(svg.contains("Detail (sheet)"))
        }
    }

    @Test func mermaidStartsWithFlowchart() throws {
        let r = try tree([Self.seed, "--format", "mermaid"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("flowchart TD\n"))
        #expect(r.stdout.contains("-.->|\"↻ detail\"|"))
        let withPath = try tree([Self.seed, "--format", "mermaid", "--path", "Home"])
        #expect(withPath.stdout.hasPrefix("flowchart TD\n"))
        #expect(withPath.stdout.contains("class n3 built"))
    }

    // MARK: Programs with errors, imports

    @Test func aProgramWithErrorsIsPreviewedAndExitsOne() throws {
        let r = try tree(["App.routes": "screen A\nroot { anyOf { screen A nope } }"], ["App.routes"])
        #expect(r.status == 1)
        #expect(r.stdout == "root\n└─ anyOf\n   ├─ A\n   └─ nope  (unresolved)\n")
        #expect(r.stderr.contains("App.routes:2:25: error: cannot find builder `nope` in scope [undefined-name]"))
        let path = try tree(["App.routes": "screen A\nroot { anyOf { screen A nope } }"], ["App.routes", "--path", "A/A"])
        #expect(path.status == 1)
        #expect(path.stdout.contains("A  built at App.routes:2:16 (push)"))
    }

    @Test func aProgramOverSeveralFilesIsOneTree() throws {
        let r = try tree(["App.routes": "import \"lib/Lib.routes\"\nroot { lib }",
                          "lib/Lib.routes": "screen A sheet\nbuilder lib { screen A }"],
                         ["App.routes", "--path", "A", "--format", "json"])
        #expect(r.status == 0)
        let element = try JSON.parse(r.stdout)["elements"]?[0]
        #expect(element?["node"]?["path"] == "lib/Lib.routes")
        #expect(element?["presentation"] == "sheet")
    }

    // MARK: Bad usage

    @Test(arguments: [
        (["--flag", "isLogedIn=true"], "unknown flag `isLogedIn`; did you mean `isLoggedIn`?"),
        (["--flag", "detailStore=true"], "`detailStore` is an optional, not a flag"),
        (["--flag", "isLoggedIn=yes"], "'yes' is not a valid value"),
        (["--flag", "isLoggedIn"], "expected NAME=true|false"),
        (["--flag", "=true"], "the name is missing"),
        (["--flag", "isLoggedIn=true", "--flag", "isLoggedIn=false"], "--flag isLoggedIn is given twice, as true and as false"),
        (["--optional", "detailStore=absent", "--optional", "detailStore=present"], "--optional detailStore is given twice, as absent and as present"),
        (["--optional", "detailStore=false"], "expected detailStore=present|absent"),
        (["--optional", "nope=present"], "unknown optional `nope`"),
        (["--optional", "isLoggedIn=present"], "`isLoggedIn` is a flag, not an optional"),
        (["--path", "Home/Setings"], "unknown screen `Setings`; did you mean `Settings`?"),
        (["--path", "Home/Detail(idd: \"1\")"], "screen `Detail` has no parameter `idd`: it is declared `Detail(id: String)`"),
        (["--path", "Home/Detail(id: 1)"], "argument `id` of `Detail` must be a string, not the number `1`: it is declared `Detail(id: String)`"),
        (["--path", "Home/Detail(id: true)"], "must be a string, not the boolean `true`"),
        (["--path", "Home/"], "expected a screen name after `/`"),
        (["--path", "Home // comment"], "a path cannot contain comments"),
        (["--path", ""], "the path is empty"),
        (["--format", "svg"], "svg"),
    ])
    func badUsageExitsTwo(_ arguments: [String], _ message: String) throws {
        let r = try tree([Self.seed] + arguments)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.contains(message))
    }

    @Test func badPathsShowTheOffendingPart() throws {
        let r = try tree([Self.seed, "--path", "Home/Setings"])
        #expect(r.stderr == "routes: error: --path: unknown screen `Setings`; did you mean `Settings`?\n  Home/Setings\n       ^~~~~~~\n")
    }

    @Test func aFileWithoutRootADirectoryOrAMissingFileExitTwo() throws {
        let lib = try tree(["Lib.routes": "screen A"], ["Lib.routes"])
        #expect(lib.status == 2)
        #expect(lib.stderr.contains("declares no `root`"))
        let dir = try tree(["d/App.routes": "screen A\nroot { screen A }"], ["d"])
        #expect(dir.status == 2)
        #expect(dir.stderr.contains("is a directory"))
        let missing = try tree([:], ["Nope.routes"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("Nope.routes"))
        let none = try tree([:], [])
        #expect(none.status == 2)
        // A program is read from its file with its imports: `-` says so, not "no such file".
        let stdin = try tree([:], ["-"])
        #expect(stdin.status == 2)
        #expect(stdin.stderr.contains("not from standard input"), "\(stdin.stderr)")
    }

    @Test func badUsageWinsOverProgramErrors() throws {
        let r = try tree(["App.routes": "screen A\nroot { nope }"], ["App.routes", "--path", "B"])
        #expect(r.status == 2)
    }
}
