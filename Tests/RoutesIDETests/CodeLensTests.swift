import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

@Suite struct CodeLensTests {
    static func lens(_ w: Workspace, _ name: String, in file: String = "App.routes") -> CodeLens? {
        let f = w.id(file)
        guard let i = w.project.files[f].model.declarations.firstIndex(where: { $0.name.text == name }) else { return nil }
        return IDE.codeLens(session: w.session, file: f, declaration: i)
    }

    @Test func screensAndRootGetALensOthersDoNot() {
        let w = Workspace(seedApp)
        let declarations = IDE.codeLensDeclarations(project: w.project, file: w.file)
        let model = w.project.files[w.file].model
        #expect(declarations.map { model.declarations[$0.declaration].name.text } == ["Home", "Settings", "Detail", "Login", "root"])
        #expect(declarations.allSatisfy { $0.range == model.declarations[$0.declaration].name.range })
        for name in ["appStore", "detailStore", "isLoggedIn", "detail"] {
            #expect(Self.lens(w, name) == nil, "\(name)")
        }
        #expect(IDE.codeLens(session: w.session, file: w.file, declaration: 999) == nil)
        #expect(IDE.codeLens(session: w.session, file: 12, declaration: 0) == nil)
        #expect(IDE.codeLensDeclarations(project: w.project, file: 12).isEmpty)
    }

    @Test func rootPreviewsTheTree() {
        let w = Workspace(seedApp)
        let lens = Self.lens(w, "root")
        #expect(lens?.title == "preview routing tree")
        #expect(lens?.preview == CodeLens.Preview(rootFile: w.file))
    }

    @Test func aScreenPreviewsAnExamplePathUnderItsEnvironment() throws {
        let w = Workspace(seedApp)
        let detail = try #require(Self.lens(w, "Detail"))
        #expect(detail.title == "preview Home/Detail")
        #expect(detail.preview == CodeLens.Preview(rootFile: w.file, path: "Home/Detail", flags: ["isLoggedIn": true],
                                                   optionals: ["detailStore": true]))
        // The same example as hover gives.
        let symbol = Symbol(file: w.file, declaration: w.project.files[w.file].model.declarations.firstIndex { $0.name.text == "Detail" }!)
        guard case .reached(let path, _, _) = w.session.example(screen: symbol) else {
            Issue.record("Detail is reached")
            return
        }
        #expect(path == ["Home", "Detail"])
        #expect(Self.lens(w, "Login")?.preview?.flags == ["isLoggedIn": false])
        // Detail is built at two places (in `detail` and in itself): counted.
        let twice = Workspace(seedApp.replacingOccurrences(of: "screen Settings uses settingsStore", with: "screen Settings uses settingsStore { screen Detail uses detailStore }"))
        #expect(Self.lens(twice, "Detail")?.title.hasPrefix("2 places · preview ") == true)
    }

    @Test func aScreenNoPathReachesSaysSoWithoutACommand() {
        let unplaced = Workspace("screen Home\nscreen Lost\nroot { screen Home }")
        #expect(Self.lens(unplaced, "Lost") == CodeLens(range: unplaced.project.files[unplaced.file].model.declarations[1].name.range,
                                                        title: "not placed in any routing tree"))
        let shadowed = Workspace("screen Home\nroot { anyOf { screen Home screen Home } }")
        let lens = Self.lens(shadowed, "Home")
        #expect(lens?.title == "2 places · preview Home")
        let unreachable = Workspace("screen Home\nscreen Deep\nroot { anyOf { screen Home screen Home { screen Deep } } }")
        #expect(Self.lens(unreachable, "Deep")?.title == "unreachable")
        #expect(Self.lens(unreachable, "Deep")?.preview == nil)
    }

    @Test func aLibraryScreenPreviewsInTheProgramThatReachesIt() {
        let w = Workspace("screen Shared", name: "Lib.routes",
                          others: ["App.routes": "import \"Lib.routes\"\nscreen Start\nroot { screen Start { screen Shared } }"])
        let lens = Self.lens(w, "Shared", in: "Lib.routes")
        #expect(lens?.title == "preview Start/Shared")
        #expect(lens?.preview?.rootFile == w.id("App.routes"))
    }

    @Test func aLongPathKeepsItsEnds() {
        let names = (0..<12).map { "Screen\($0)" }
        var source = names.map { "screen \($0)" }.joined(separator: "\n") + "\nroot { "
        source += names.map { "screen \($0) {" }.joined(separator: " ") + " empty" + String(repeating: " }", count: names.count) + " }"
        let w = Workspace(source)
        #expect(Self.lens(w, "Screen11")?.title == "preview Screen0/…/Screen11")
        #expect(Self.lens(w, "Screen11")?.preview?.path == names.joined(separator: "/"))
        #expect(Self.lens(w, "Screen2")?.title == "preview Screen0/Screen1/Screen2")
    }
}
