import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
@testable import RoutesWorkspace
import Testing

@Suite("Globs of `exclude`")
struct GlobTests {
    @Test("a pattern without a slash matches a name at any depth, a folder excluding its files",
          arguments: [
              ("Generated", "Generated/A.routes", true),
              ("Generated", "App/Generated/B.routes", true),
              ("Generated", "App/GeneratedMore/B.routes", false),
              ("*.draft.routes", "Features/Home.draft.routes", true),
              ("*.draft.routes", "Features/Home.routes", false),
              ("Home?.routes", "Home2.routes", true),
              ("Home?.routes", "Home.routes", false),
              ("[AB]pp", "App/x.routes", true),
              ("[AB]pp", "Cpp/x.routes", false),
              ("[!AB]pp", "Cpp/x.routes", true),
              ("[a-c]*.routes", "beta.routes", true),
              ("[a-c]*.routes", "delta.routes", false),
              // A trailing slash alone does not anchor a pattern.
              ("Vendor/", "App/Vendor/x.routes", true),
          ])
    func unanchored(pattern: String, path: String, expected: Bool) {
        #expect(Glob(pattern).matches(path) == expected, "\(pattern) against \(path)")
    }

    @Test("a pattern with a slash is anchored at the root; `**` spans folders",
          arguments: [
              ("Apps/Legacy/**", "Apps/Legacy/Old.routes", true),
              ("Apps/Legacy/**", "Apps/Legacy/Deep/Old.routes", true),
              ("Apps/Legacy/**", "Other/Apps/Legacy/Old.routes", false),
              ("/Vendor", "Vendor/x.routes", true),
              ("/Vendor", "App/Vendor/x.routes", false),
              ("**/Fixtures/*.routes", "Tests/Deep/Fixtures/a.routes", true),
              ("**/Fixtures/*.routes", "Fixtures/a.routes", true),
              ("**/Fixtures/*.routes", "Tests/Fixtures/sub/a.routes", false),
              ("Apps/*/Generated", "Apps/Shop/Generated/Routes.routes", true),
              ("Apps/*/Generated", "Apps/Shop/Sub/Generated/Routes.routes", false),
          ])
    func anchored(pattern: String, path: String, expected: Bool) {
        #expect(Glob(pattern).matches(path) == expected, "\(pattern) against \(path)")
    }

    @Test("an empty pattern matches nothing")
    func empty() {
        #expect(!Glob("").matches("A.routes"))
        #expect(!Glob("/").matches("A.routes"))
    }
}

@Suite("routes.json")
struct ProjectConfigTests {
    private func parse(_ text: String) -> ProjectConfig.Loaded {
        ProjectConfig.parse(Array(text.utf8), path: "routes.json")
    }

    private func problems(_ text: String) -> [String] {
        parse(text).problems.map { "\($0.line + 1):\($0.column + 1): \($0.message)" }
    }

    @Test("a config with comments is read: exclude, rules and denyWarnings")
    func valid() throws {
        let loaded = parse("""
        {
          // Generated files are not linted.
          "$schema": "./routes.schema.json",
          "exclude": ["Generated", "Legacy/**"], /* two globs */
          "rules": { "unused-declaration": "off", "push-in-sheet": "error" },
          "denyWarnings": true
        }
        """)
        #expect(loaded.problems.isEmpty)
        let config = loaded.config
        #expect(config.exclude.map(\.pattern) == ["Generated", "Legacy/**"])
        #expect(config.rules.rules[.unusedDeclaration] == .off)
        #expect(config.rules.rules.count == 2)
        #expect(config.denyWarnings)
        #expect(config.excludes("App/Generated/X.routes"))
        #expect(config.excludes("Legacy/Old/X.routes"))
        #expect(!config.excludes("App/Home.routes"))
    }

    @Test("`{}` is the defaults")
    func defaults() {
        #expect(parse("{}") == .success(ProjectConfig()))
    }

    @Test("each problem is found, with its line and column")
    func everyProblem() {
        #expect(problems("""
        {
          "exclude": "Generated",
          "rulez": {},
          "denyWarnings": "yes",
          "denyWarnings": false
        }
        """) == [
            "2:14: `exclude` takes a list of globs: `[\"Generated\", \"Legacy/**\"]`",
            "3:3: unknown key `rulez`; did you mean `rules`? (the keys are `exclude`, `rules`, `denyWarnings` and `swiftTarget`)",
            "4:19: `denyWarnings` is `true` or `false`",
            "5:3: `denyWarnings` is set twice",
        ])
    }

    @Test("rules: unknown ids get a suggestion, settings are checked, syntax errors stay errors")
    func ruleProblems() {
        let found = problems("""
        { "rules": {
            "unused-declaraton": "off",
            "push-in-sheet": "loud",
            "syntax-error": "off",
            "push-in-sheet": "error",
            "shadowed-branch": "warning"
        } }
        """)
        #expect(found.count == 4, "\(found)")
        #expect(found[0].hasPrefix("2:5: unknown rule `unused-declaraton`; did you mean `unused-declaration`?"))
        #expect(found[1] == "3:22: a rule's setting is \"off\", \"warning\" or \"error\"")
        #expect(found[2] == "4:21: `syntax-error` is always an error: it cannot be set to \"off\"")
        #expect(found[3] == "5:5: `push-in-sheet` is set twice")
    }

    @Test("exclude entries must be non-empty strings")
    func excludeEntries() {
        #expect(problems(#"{"exclude": ["A", 3, ""]}"#) == [
            "1:19: each `exclude` entry is a glob string",
            "1:22: each `exclude` entry is a glob string",
        ])
    }

    @Test("text that is not a config is one problem, where it starts", arguments: [
        ("", "1:1: the file is empty: write `{}` for a project with the defaults"),
        ("  // only a comment\n", "1:1: the file is empty: write `{}` for a project with the defaults"),
        ("[1, 2]", "1:1: the config must be a JSON object (`{ … }`)"),
        ("\n  42", "2:3: the config must be a JSON object (`{ … }`)"),
        ("{ /* open", "1:3: this `/*` comment is not closed"),
    ])
    func notAConfig(text: String, expected: String) {
        #expect(problems(text) == [expected])
    }

    @Test("invalid JSON is reported near where json-c stopped")
    func invalidJSON() {
        let found = parse("{\n  \"exclude\": [\"A\",,]\n}").problems
        #expect(found.count == 1)
        #expect(found.first?.message.hasPrefix("not valid JSON") == true)
        #expect(found.first?.line == 1)
    }

    @Test("comment markers inside strings are text, and offsets survive comments")
    func commentsInStrings() {
        let loaded = parse("{ /* x */ \"exclude\": [\"a//b\", \"c/*d\"] }")
        #expect(loaded.config.exclude.map(\.pattern) == ["a//b", "c/*d"])
        #expect(problems("{ /* long\n comment */ \"x\": 1 }") == [
            "2:13: unknown key `x` (the keys are `exclude`, `rules`, `denyWarnings` and `swiftTarget`)",
        ])
    }

    @Test("a config that cannot be read is one problem")
    func unreadable() throws {
        let dir = try TemporaryFolder()
        #expect(ProjectConfig.load(dir.path + "/missing.json").problems.first?.message.hasPrefix("cannot read it") == true)
        try FileManager.default.createDirectory(atPath: dir.path + "/routes.json", withIntermediateDirectories: false)
        #expect(ProjectConfig.load(dir.path + "/routes.json").problems.first?.message.hasPrefix("cannot read it") == true)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/loop.json", withDestinationPath: dir.path + "/loop.json")
        #expect(ProjectConfig.load(dir.path + "/loop.json").problems.first?.message
            == "cannot read it: a symbolic link that leads nowhere, or loops")
    }
}

@Suite("Workspace roots")
struct WorkspaceRootTests {
    @Test("the nearest routes.json wins over a .git further up; .git is the fallback; else none")
    func nearestMarker() throws {
        let dir = try TemporaryFolder()
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir.path + "/repo/.git", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.path + "/repo/Apps/Shop/Features", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.path + "/repo/Tools", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir.path + "/loose", withIntermediateDirectories: true)
        try "{}".write(toFile: dir.path + "/repo/Apps/Shop/routes.json", atomically: true, encoding: .utf8)
        try "".write(toFile: dir.path + "/repo/Apps/Shop/Features/Home.routes", atomically: true, encoding: .utf8)
        try "".write(toFile: dir.path + "/repo/Tools/T.routes", atomically: true, encoding: .utf8)
        let base = dir.path

        let shop = WorkspaceRoot.find(for: base + "/repo/Apps/Shop/Features/Home.routes")
        #expect(shop == WorkspaceRoot(path: base + "/repo/Apps/Shop", marker: .config(base + "/repo/Apps/Shop/routes.json")))
        #expect(WorkspaceRoot.find(for: base + "/repo/Apps/Shop") == shop, "a folder holding routes.json is its own root")
        #expect(WorkspaceRoot.find(for: base + "/repo/Tools/T.routes") == WorkspaceRoot(path: base + "/repo", marker: .git))
        #expect(WorkspaceRoot.find(for: base + "/repo/Apps") == WorkspaceRoot(path: base + "/repo", marker: .git))
        // /tmp is in no repository on the machines this runs on; if it were, its root is above `loose`.
        let loose = WorkspaceRoot.find(for: base + "/loose")
        #expect(loose == nil || !loose!.path.hasPrefix(base))
    }
}

@Suite("What a lint reads")
struct LintInputsTests {
    @Test("a folder's scan applies exclude globs and finds the rest of the workspace; a named file is read even when excluded")
    func scanAndExclude() throws {
        let dir = try TemporaryFolder()
        let fm = FileManager.default
        let root = dir.path + "/ws"
        for folder in ["App", "App/Generated", "Legacy", ".hidden"] {
            try fm.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        try #"{ "exclude": ["Generated", "Legacy/**"], "rules": { "unused-declaration": "off" } }"#
            .write(toFile: root + "/routes.json", atomically: true, encoding: .utf8)
        for file in ["App/Home.routes", "App/Generated/G.routes", "Legacy/Old.routes", ".hidden/H.routes", "Shared.routes"] {
            try "screen A\n".write(toFile: root + "/" + file, atomically: true, encoding: .utf8)
        }
        let provider = FileSystemProvider()
        let canonicalRoot = provider.canonicalPath(root)!

        let folder = LintInputs(paths: [root + "/App"], fixedRoot: nil, stdin: nil, cwd: root, provider: provider)
        #expect(folder.failures.isEmpty && folder.configProblems.isEmpty)
        #expect(folder.named == [canonicalRoot + "/App/Home.routes"])
        #expect(folder.entries.map(\.canonicalPath).sorted() == [canonicalRoot + "/App/Home.routes", canonicalRoot + "/Shared.routes"],
                "the rest of the workspace, without excluded or hidden files")
        #expect(folder.settings[canonicalRoot]?.rules[.unusedDeclaration] == .off)

        let named = LintInputs(paths: [root + "/Legacy/Old.routes"], fixedRoot: nil, stdin: nil, cwd: root, provider: provider)
        #expect(named.named == [canonicalRoot + "/Legacy/Old.routes"])

        let excludedFolder = LintInputs(paths: [root + "/Legacy"], fixedRoot: nil, stdin: nil, cwd: root, provider: provider)
        #expect(excludedFolder.named == [canonicalRoot + "/Legacy/Old.routes"], "a folder named is linted though a glob matches it")

        let missing = LintInputs(paths: [root + "/Nope.routes"], fixedRoot: nil, stdin: nil, cwd: root, provider: provider)
        #expect(missing.failures.map(\.message) == ["no such file or directory"])
    }

    @Test("a file found through a symbolic link gets its target's path; `..` in an import undoes the folder written before it")
    func symbolicLinksAndParentSteps() throws {
        let dir = try TemporaryFolder()
        let fm = FileManager.default
        let root = dir.path + "/ws"
        try fm.createDirectory(atPath: root + "/deep/er", withIntermediateDirectories: true)
        try "screen Outer\n".write(toFile: root + "/X.routes", atomically: true, encoding: .utf8)
        try "screen Inner\n".write(toFile: root + "/deep/X.routes", atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root + "/Linked.routes", withDestinationPath: "deep/X.routes")
        try fm.createSymbolicLink(atPath: root + "/dl", withDestinationPath: "deep/er")
        // `dl/..` is `deep` on disk, but an import's path is read as written first (its `..`
        // undoes `dl`, a link or not), then its links are resolved.
        try "import \"dl/../X.routes\"\nimport \"X.routes\"\nroot { screen Inner }\n"
            .write(toFile: root + "/App.routes", atomically: true, encoding: .utf8)
        let provider = FileSystemProvider()
        let canonicalRoot = provider.canonicalPath(root)!

        let inputs = LintInputs(paths: [root], fixedRoot: nil, stdin: nil, cwd: root, provider: provider)
        #expect(inputs.failures.isEmpty)
        let paths = inputs.entries.map(\.canonicalPath)
        #expect(Set(paths) == [canonicalRoot + "/App.routes", canonicalRoot + "/X.routes", canonicalRoot + "/deep/X.routes"],
                "the link is its target, read once")
        for path in paths { #expect(provider.canonicalPath(path) == path) }

        let project = Project.forLint(entries: inputs.entries, provider: provider)
        let app = try #require(project.files.firstIndex { $0.path == canonicalRoot + "/App.routes" })
        let targets = project.importTargets[app].map { $0.map { project.files[$0].path } }
        #expect(targets == [canonicalRoot + "/X.routes", canonicalRoot + "/X.routes"])
    }

    @Test("a broken routes.json is reported once and its defaults apply")
    func brokenConfig() throws {
        let dir = try TemporaryFolder()
        let root = dir.path + "/ws"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try #"{ "rules": { "unused-declaration": "of" } }"#.write(toFile: root + "/routes.json", atomically: true, encoding: .utf8)
        try "screen A\n".write(toFile: root + "/A.routes", atomically: true, encoding: .utf8)
        try "screen B\n".write(toFile: root + "/B.routes", atomically: true, encoding: .utf8)
        let inputs = LintInputs(paths: [root + "/A.routes", root + "/B.routes"], fixedRoot: nil, stdin: nil, cwd: root,
                                provider: FileSystemProvider())
        #expect(inputs.configProblems.count == 1)
        #expect(inputs.settings.values.allSatisfy { $0.rules.isEmpty })
    }

    @Test("the standard input is served at --stdin-filename's place, over the files on disk")
    func standardInput() throws {
        let dir = try TemporaryFolder()
        let root = dir.path + "/ws"
        try FileManager.default.createDirectory(atPath: root + "/.git", withIntermediateDirectories: true)
        try "screen OnDisk\n".write(toFile: root + "/Home.routes", atomically: true, encoding: .utf8)
        let provider = FileSystemProvider()
        let stdin = LintInputs.Stdin(displayPath: "Home.routes", bytes: Array("screen InEditor\n".utf8))
        let path = LintInputs.path(ofStdin: stdin, cwd: provider.canonicalPath(root)!, provider: provider)
        #expect(path == provider.canonicalPath(root)! + "/Home.routes")
        let overlay = OverlayFileSystem(files: [path: stdin.bytes])
        #expect(try overlay.read(path).get() == stdin.bytes)
    }
}

/// A folder under the system's temporary folder, removed when the value goes.
final class TemporaryFolder {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "routes-workspace-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
