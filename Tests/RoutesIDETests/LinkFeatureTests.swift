import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// Editor features over `link` declarations: the screens of a path are names like any
/// other; placeholders are names local to their link.
@Suite struct LinkFeatureTests {
    static let declarations = """
        screen Home
        /// One item.
        screen Detail(id: Int, tab: String)
        flag isLoggedIn

        """
    static let tree = """

        root {
          screen Home {
            conditional isLoggedIn { screen Detail } else { empty }
          }
        }
        """

    @Test func onTheLineAfterALinkTheDeclarationKeywords() {
        let w = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Detail(id: id, tab: \"x\")\n|" + Self.tree)
        let labels = IDE.completions(session: w.session, file: w.file, offset: w.cursor, snippets: false).map(\.label)
        #expect(labels.contains("screen") && labels.contains("root"), "\(labels)")
        let sameLine = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Detail(id: |" + Self.tree)
        #expect(IDE.completions(session: sameLine.session, file: sameLine.file, offset: sameLine.cursor, snippets: false).map(\.label) == ["id"])
    }

    @Test func definitionOfAScreenInAPathIsItsDeclaration() {
        let w = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Det|ail(id: id, tab: \"x\")" + Self.tree)
        let found = IDE.definition(project: w.project, file: w.file, offset: w.cursor)
        #expect(found.map(\.range) == [w.offset(of: "Detail", occurrence: 0)..<(w.offset(of: "Detail", occurrence: 0) + 6)])
    }

    @Test func referencesAndRenameOfAScreenReachTheLink() throws {
        let w = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Detail(id: id, tab: \"x\")" + Self.tree)
        let declaration = w.offset(of: "Detail", delta: 1)
        let uses = IDE.references(project: w.project, file: w.file, offset: declaration, includeDeclaration: false).map(\.range.lowerBound)
        #expect(uses.contains(w.offset(of: "Detail", occurrence: 1)), "the link's use")
        let edits = try IDE.rename(project: w.project, file: w.file, offset: declaration, newName: "Item")
        let renamed = apply(edits[w.file] ?? [], to: w.texts["App.routes"]!)
        #expect(renamed.contains("-> Home/Item(id: id, tab: \"x\")"))
        #expect(renamed.contains("screen Item(id: Int, tab: String)"))
    }

    @Test func aPlaceholderGoesToThePatternAndRenamesInBoth() throws {
        let w = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Detail(id: i|d, tab: \"x\")" + Self.tree)
        let inPattern = w.offset(of: "{id}", delta: 1)
        #expect(IDE.definition(project: w.project, file: w.file, offset: w.cursor).map(\.range) == [inPattern..<(inPattern + 2)])
        let references = IDE.references(project: w.project, file: w.file, offset: inPattern, includeDeclaration: true).map(\.range.lowerBound)
        #expect(references == [inPattern, w.cursor - 1])
        #expect(IDE.prepareRename(project: w.project, file: w.file, offset: inPattern)?.placeholder == "id")
        let edits = try IDE.rename(project: w.project, file: w.file, offset: inPattern, newName: "itemID")
        let renamed = apply(edits[w.file] ?? [], to: w.texts["App.routes"]!)
        #expect(renamed.contains("link item \"/items/{itemID}\" -> Home/Detail(id: itemID, tab: \"x\")"))
        // The label `id` and the screen's parameter stay.
        #expect(renamed.contains("screen Detail(id: Int, tab: String)"))
    }

    @Test func aPlaceholderCannotTakeTheNameOfAnother() {
        let w = Workspace(Self.declarations + "link item \"/items/{id}/{t}\" -> Home/Detail(id: i|d, tab: t)" + Self.tree)
        #expect(throws: RenameError.self) { try IDE.rename(project: w.project, file: w.file, offset: w.cursor, newName: "t") }
    }

    /// A keyword in the path is no placeholder: `true` and `false` would be values there,
    /// the others syntax errors.
    @Test func aPlaceholderCannotTakeAKeyword() {
        let w = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Detail(id: i|d, tab: \"x\")" + Self.tree)
        for keyword in ["true", "false", "import", "screen", "root"] {
            #expect(throws: RenameError("`\(keyword)` is a keyword and cannot be a name")) {
                try IDE.rename(project: w.project, file: w.file, offset: w.cursor, newName: keyword)
            }
        }
        #expect((try? IDE.rename(project: w.project, file: w.file, offset: w.cursor, newName: "cover")) != nil, "a contextual word is a name")
    }

    @Test func completionOffersScreensLabelsAndPlaceholders() {
        let screens = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/|" + Self.tree)
        #expect(screens.labels().contains("Detail") && screens.labels().contains("Home"))
        #expect(!screens.labels().contains("isLoggedIn"))
        let labels = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Detail(id: id, |)" + Self.tree)
        #expect(labels.labels() == ["tab"])
        #expect(labels.completions().first?.insertText == "tab: ")
        let placeholders = Workspace(Self.declarations + "link item \"/items/{id}?t={tab}\" -> Home/Detail(id: |)" + Self.tree)
        #expect(placeholders.labels() == ["id", "tab"])
    }

    @Test func hoverOfALinkGivesItsPathAndCondition() {
        let w = Workspace(Self.declarations + "/// Shared items.\nlink it|em \"/items/{id}\" -> Home/Detail(id: id, tab: \"x\")" + Self.tree)
        let hover = IDE.hover(session: w.session, file: w.file, offset: w.cursor)?.markdown ?? ""
        #expect(hover.contains("link item \"/items/{id}\" -> Home/Detail(id: id, tab: \"x\")"))
        #expect(hover.contains("Shared items."))
        #expect(hover.contains("built when `isLoggedIn`"))
        // Where it is not: the path resolved under such an environment, the element not built
        // and why.
        #expect(hover.contains("Where it is not:"), "\(hover)")
        #expect(hover.contains("isLoggedIn=false"), "\(hover)")
        #expect(hover.contains("Detail(id: id, tab: \"x\")  not built"), "\(hover)")
    }

    @Test func hoverOfALinkNeverBuiltSaysWhichElementIsNot() {
        let w = Workspace(Self.declarations + "screen Orphan\nlink ne|ver \"/never\" -> Home/Orphan" + Self.tree)
        let hover = IDE.hover(session: w.session, file: w.file, offset: w.cursor)?.markdown ?? ""
        #expect(hover.contains("never built whole"), "\(hover)")
        #expect(hover.contains("Orphan  not built"), "\(hover)")
    }

    @Test func hoverOfALinkAlwaysBuiltShowsNoFailure() {
        let w = Workspace(Self.declarations + "link it|em \"/items\" -> Home" + Self.tree)
        let hover = IDE.hover(session: w.session, file: w.file, offset: w.cursor)?.markdown ?? ""
        #expect(hover.contains("always built"))
        #expect(!hover.contains("Where it is not"))
    }

    @Test func aLinkIsAConstantSymbol() {
        let w = Workspace(Self.declarations + "link item \"/items/{id}\" -> Home/Detail(id: id, tab: \"x\")" + Self.tree)
        let symbol = IDE.documentSymbols(project: w.project, file: w.file).first { $0.name == "item" }
        #expect(symbol?.kind == .constant)
        #expect(symbol?.detail == "/items/{id}")
    }
}
