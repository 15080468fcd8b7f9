import Foundation
import Testing

/// One codegen fixture: `Tests/Fixtures/codegen/<case>.routes` with, beside it, the Swift
/// that `routes gen swift` writes for it (`<case>.swift`), or, when it generates nothing,
/// what it prints on stderr and its exit status (`<case>.gen`). `UPDATE_EXPECT=1` rewrites
/// them.
struct CodegenFixture: CustomTestStringConvertible, Sendable {
    let name: String
    var testDescription: String { name }
    static let directory = Support.fixtures.appendingPathComponent("codegen")

    static let all: [CodegenFixture] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".routes") }.sorted().map { CodegenFixture(name: String($0.dropLast(7))) }
}

@Suite struct GenCommandTests {
    static func read(_ url: URL) -> String? { try? String(contentsOf: url, encoding: .utf8) }

    @Test func codegenFixturesExist() {
        #expect(CodegenFixture.all.count >= 7)
    }

    @Test(arguments: CodegenFixture.all)
    func generatedSwiftMatchesTheFixture(_ fixture: CodegenFixture) throws {
        let out = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try Support.run(["gen", "swift", fixture.name + ".routes", "--out", out.path], in: CodegenFixture.directory)
        let swiftURL = CodegenFixture.directory.appendingPathComponent(fixture.name + ".swift")
        let genURL = CodegenFixture.directory.appendingPathComponent(fixture.name + ".gen")
        let generated = Self.read(out.appendingPathComponent(fixture.name + ".routes.swift"))
        let failure = r.stderr + "[exit \(r.status)]\n"
        if ProcessInfo.processInfo.environment["UPDATE_EXPECT"] == "1" {
            try? FileManager.default.removeItem(at: swiftURL)
            try? FileManager.default.removeItem(at: genURL)
            if r.status == 0, let generated {
                try generated.write(to: swiftURL, atomically: true, encoding: .utf8)
            } else {
                try failure.write(to: genURL, atomically: true, encoding: .utf8)
            }
            return
        }
        if let expected = Self.read(swiftURL) {
            #expect(r.status == 0, "\(r.stderr)")
            #expect(generated == expected, "the generated Swift differs from \(fixture.name).swift (UPDATE_EXPECT=1 rewrites it)")
        } else {
            let expected = try #require(Self.read(genURL), "neither \(fixture.name).swift nor \(fixture.name).gen")
            #expect(failure == expected)
            #expect(generated == nil, "nothing is written when a program cannot be generated")
        }
    }

    /// The fixtures that have a `<case>.swiftui.swift` beside them: what `--target swiftui`
    /// writes for them.
    static let swiftUIFixtures = CodegenFixture.all.filter {
        FileManager.default.fileExists(atPath: CodegenFixture.directory.appendingPathComponent($0.name + ".swiftui.swift").path)
    }

    @Test func swiftUIFixturesExist() {
        #expect(Self.swiftUIFixtures.count >= 3)
    }

    @Test(arguments: swiftUIFixtures)
    func generatedSwiftUIMatchesTheFixture(_ fixture: CodegenFixture) throws {
        let out = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try Support.run(["gen", "swift", fixture.name + ".routes", "--out", out.path, "--target", "swiftui"], in: CodegenFixture.directory)
        #expect(r.status == 0, "\(r.stderr)")
        let expectedURL = CodegenFixture.directory.appendingPathComponent(fixture.name + ".swiftui.swift")
        let generated = Self.read(out.appendingPathComponent(fixture.name + ".routes.swift"))
        if ProcessInfo.processInfo.environment["UPDATE_EXPECT"] == "1", let generated {
            try generated.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        #expect(generated == Self.read(expectedURL), "the generated Swift differs from \(fixture.name).swiftui.swift (UPDATE_EXPECT=1 rewrites it)")
    }

    /// A library's problem for the target, found in each of the two programs that import it,
    /// is printed and counted once.
    @Test func aSharedFilesProblemIsPrintedOnce() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in [("Shared.routes", "screen Home\nscreen P cover\n"),
                             ("A.routes", "import \"Shared.routes\"\nroot { screen Home }\n"),
                             ("B.routes", "import \"Shared.routes\"\nroot { screen Home { screen P } }\n")] {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let r = try Support.run(["gen", "swift", ".", "--out", "out"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.components(separatedBy: "cannot present `P` as a cover").count == 2, "\(r.stderr)")
        #expect(r.stderr.hasSuffix("1 error: nothing generated\n"), "\(r.stderr)")
    }

    /// routes.json's `swiftTarget` chooses the target when `--target` does not; a value it does
    /// not know is a clear error (exit 2), and so are workspaces that ask for different ones.
    @Test func routesJSONChoosesTheTarget() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = "screen Home\nscreen Paywall cover\nroot { screen Home { screen Paywall } }\n"
        for (name, text) in [("a/routes.json", "{ \"swiftTarget\": \"swiftui\" }"), ("a/App.routes", app),
                             ("b/routes.json", "{ \"swiftTarget\": \"composable-navigator\" }"), ("b/Other.routes", app),
                             ("c/routes.json", "{ \"swiftTarget\": \"uikit\" }"), ("c/Third.routes", app)] {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let swiftUI = try Support.run(["gen", "swift", "a/App.routes", "--out", "out-a"], in: dir)
        #expect(swiftUI.status == 0, "\(swiftUI.stderr)")
        #expect(Self.read(dir.appendingPathComponent("out-a/App.routes.swift"))?.contains("NavigationStack") == true)
        // The other workspace's ComposableNavigator cannot present a cover: refused there.
        let refused = try Support.run(["gen", "swift", "b/Other.routes", "--out", "out-b"], in: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the ComposableNavigator 0.2.0 target cannot present `Paywall` as a cover"))
        // `--target` wins over routes.json.
        #expect(try Support.run(["gen", "swift", "b/Other.routes", "--out", "out-b", "--target", "swiftui"], in: dir).status == 0)
        let both = try Support.run(["gen", "swift", "a/App.routes", "b/Other.routes", "--out", "out-ab"], in: dir)
        #expect(both.status == 2)
        #expect(both.stderr.contains("ask for different targets"))
        let unknown = try Support.run(["gen", "swift", "c/Third.routes", "--out", "out-c"], in: dir)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("`swiftTarget` is \"composable-navigator\" or \"swiftui\""))
    }

    @Test func theOutputIsTheSameWhateverTheArgumentsSay() throws {
        let a = try Support.temporaryDirectory(), b = try Support.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: a)
            try? FileManager.default.removeItem(at: b)
        }
        let shop = Support.packageRoot.appendingPathComponent("Examples/Shop")
        #expect(try Support.run(["gen", "swift", "--out", a.path, "."], in: shop).status == 0)
        #expect(try Support.run(["gen", "swift", "--out", b.path, "App.routes", "Shared.routes", "Catalog.routes", "Account.routes", "Checkout.routes"], in: shop).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: a.path).sorted()
        #expect(names == ["Account.routes.swift", "App.routes.swift", "Catalog.routes.swift", "Checkout.routes.swift", "Shared.routes.swift"])
        for n in names {
            #expect(Self.read(a.appendingPathComponent(n)) == Self.read(b.appendingPathComponent(n)), "\(n)")
        }
        let app = try #require(Self.read(a.appendingPathComponent("App.routes.swift")))
        #expect(app.hasPrefix("// Generated by `routes gen swift` (routes 0.1.0) from App.routes,\n// which imports Shared.routes, Catalog.routes, Account.routes, Checkout.routes.\n"))
        #expect(Self.read(a.appendingPathComponent("Shared.routes.swift"))?.contains("Shared.routes declares no `root`") == true)
    }

    @Test func checkReportsStaleFilesWithoutWriting() throws {
        let out = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let seed = Support.packageRoot.appendingPathComponent("Examples/Seed")
        let file = out.appendingPathComponent("App.routes.swift")
        // Missing: stale.
        var r = try Support.run(["gen", "swift", "App.routes", "--out", out.path, "--check"], in: seed)
        #expect(r.status == 1)
        #expect(r.stderr.contains("App.routes.swift is not up to date"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // Written, then up to date; an unchanged file is not written again.
        r = try Support.run(["gen", "swift", "App.routes", "--out", out.path], in: seed)
        #expect(r.status == 0 && r.stdout.contains("1 of 1 file written"))
        let written = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.02)
        r = try Support.run(["gen", "swift", "App.routes", "--out", out.path], in: seed)
        #expect(r.status == 0 && r.stdout.contains("1 generated file up to date"))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date == written)
        r = try Support.run(["gen", "swift", "App.routes", "--out", out.path, "--check"], in: seed)
        #expect(r.status == 0, "\(r.stderr)")
        // Edited by hand: stale, and --check leaves it as it is.
        try "// edited\n".write(to: file, atomically: true, encoding: .utf8)
        r = try Support.run(["gen", "swift", "App.routes", "--out", out.path, "--check"], in: seed)
        #expect(r.status == 1)
        #expect(Self.read(file) == "// edited\n")
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["App.routes.swift"])
    }

    @Test func aProgramWithErrorsGeneratesNothing() throws {
        let out = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let diagnostics = Support.packageRoot.appendingPathComponent("Examples/Diagnostics")
        let missing = out.appendingPathComponent("not-made")
        let r = try Support.run(["gen", "swift", "missing-dependency.routes", "builder-cycle.routes", "--out", missing.path], in: diagnostics)
        #expect(r.status == 1)
        #expect(r.stderr.contains("[missing-dependency]") && r.stderr.contains("[builder-cycle]"))
        #expect(r.stderr.hasSuffix("2 errors: nothing generated\n"))
        #expect(!FileManager.default.fileExists(atPath: missing.path), "not even the output folder is made")
    }

    /// What keeps a program from being generated is printed `PATH:LINE:COL: error: message`,
    /// with the path as it was given: the build-tool plugin passes absolute paths, from
    /// which Xcode shows each error in place, whatever the current folder. An imported file
    /// is named as absolutely as the file that imports it.
    @Test func errorsNameTheFilesAsTheyWereGiven() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try "import \"Lib.routes\"\nscreen Home\nroot {\n  screen Home uses store\n}\n"
            .write(to: app.appendingPathComponent("Main.routes"), atomically: true, encoding: .utf8)
        try "screen Lib uses\n".write(to: app.appendingPathComponent("Lib.routes"), atomically: true, encoding: .utf8)
        try "screen home\nscreen Home\nroot {\n  anyOf {\n    screen home\n    screen Home\n  }\n}\n"
            .write(to: app.appendingPathComponent("Names.routes"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out").path
        let elsewhere = URL(fileURLWithPath: "/")

        // Errors of the analysis: the file given, and the file it imports.
        var r = try Support.run(["gen", "swift", app.path + "/Main.routes", "--out", out, "--root", dir.path], in: elsewhere)
        #expect(r.status == 1)
        var lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains(app.path + "/Main.routes:4:20: error: cannot find dependency or optional `store` in scope [undefined-name]"), "\(r.stderr)")
        #expect(lines.contains { $0.hasPrefix(app.path + "/Lib.routes:1:12: error: ") && $0.hasSuffix(" [syntax-error]") }, "\(r.stderr)")
        #expect(lines.last == "2 errors: nothing generated")

        // A program whose names Swift cannot take.
        r = try Support.run(["gen", "swift", app.path + "/Names.routes", "--out", out, "--root", dir.path], in: elsewhere)
        #expect(r.status == 1)
        lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == app.path + "/Names.routes:2:8: error: screen `Home` and screen `home` would both be the Swift type `NamesRoutes.Home`: rename one of them", "\(r.stderr)")
        #expect(lines.contains(app.path + "/Names.routes:1:8: note: screen `home` is declared here"), "\(r.stderr)")

        // A relative path stays relative.
        r = try Support.run(["gen", "swift", "App/Main.routes", "--out", "out"], in: dir)
        #expect(r.stderr.split(separator: "\n").contains("App/Main.routes:4:20: error: cannot find dependency or optional `store` in scope [undefined-name]"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing is written")
    }

    @Test func badOutputFoldersAndInputsAreUsageErrors() throws {
        let dir = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let seed = Support.packageRoot.appendingPathComponent("Examples/Seed/App.routes").path
        try "x".write(to: dir.appendingPathComponent("file"), atomically: true, encoding: .utf8)
        var r = try Support.run(["gen", "swift", seed, "--out", dir.appendingPathComponent("file").path])
        #expect(r.status == 2 && r.stderr.contains("not a folder (it is a file)"))
        r = try Support.run(["gen", "swift", seed, "--out", dir.appendingPathComponent("file/sub").path])
        #expect(r.status == 2 && r.stderr.contains("cannot create it"))
        r = try Support.run(["gen", "swift", seed, "--out", "/proc/routes-gen-test"])
        #expect(r.status == 2 && r.stderr.contains("cannot create it"))
        r = try Support.run(["gen", "swift", seed])
        #expect(r.status == 2 && r.stderr.contains("--out"))
        r = try Support.run(["gen", "swift", dir.appendingPathComponent("missing.routes").path, "--out", dir.path])
        #expect(r.status == 2 && r.stderr.contains("cannot read"))
        // Two inputs with one output name.
        for sub in ["a", "b"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            try "screen A\nroot { screen A }\n".write(to: dir.appendingPathComponent("\(sub)/App.routes"), atomically: true, encoding: .utf8)
        }
        r = try Support.run(["gen", "swift", "a/App.routes", "b/App.routes", "--out", "out"], in: dir)
        #expect(r.status == 2 && r.stderr.contains("a/App.routes and b/App.routes would both generate App.routes.swift"))
        // Two programs with one namespace.
        try "screen A\nroot { screen A }\n".write(to: dir.appendingPathComponent("my-app.routes"), atomically: true, encoding: .utf8)
        try "screen A\nroot { screen A }\n".write(to: dir.appendingPathComponent("My-App.routes"), atomically: true, encoding: .utf8)
        r = try Support.run(["gen", "swift", "my-app.routes", "My-App.routes", "--out", "out"], in: dir)
        #expect(r.status == 1 && r.stderr.contains("would both generate the namespace `MyAppRoutes`"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/my-app.routes.swift").path))
    }
}
