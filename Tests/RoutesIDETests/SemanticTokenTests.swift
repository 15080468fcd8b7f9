import Testing
@testable import RoutesIDE
import RoutesModel

@Suite struct SemanticTokenTests {
    /// (text, kind, modifiers) of every classified token.
    func classified(_ source: String) -> [(String, SemanticToken.Kind, SemanticToken.Modifiers)] {
        let w = Workspace(source)
        let text = w.project.files[w.file].text
        return IDE.semanticTokens(project: w.project, file: w.file).map { (text.text($0.range), $0.kind, $0.modifiers) }
    }

    @Test func namesAreClassifiedByWhatTheyName() {
        let tokens = classified("""
            /// The home.
            screen Home
            screen Detail(from: Account.ID) sheet(allowsPush: false)
            dependency store: Store from Home
            optional draft: Draft
            flag isOn
            builder detail { screen Detail uses store, draft }
            root { conditional isOn { screen Home { if let draft { detail } } } else { empty } }
            """)
        func kinds(of text: String) -> [SemanticToken.Kind] { tokens.filter { $0.0 == text }.map(\.1) }
        #expect(kinds(of: "Home") == [.screen, .screen, .screen])
        #expect(kinds(of: "detail") == [.builder, .builder])
        #expect(kinds(of: "store") == [.dependency, .dependency])
        #expect(kinds(of: "draft") == [.optional, .optional, .optional])
        #expect(kinds(of: "isOn") == [.flag, .flag])
        #expect(kinds(of: "Store") == [.type])
        #expect(kinds(of: "Account") == [.type])
        #expect(kinds(of: "from") == [.parameter, .keyword])  // a keyword as a label, then `from P`
        #expect(kinds(of: "allowsPush") == [.parameter])
        #expect(kinds(of: "/// The home.") == [.comment])
        #expect(tokens.first { $0.0 == "/// The home." }?.2 == .documentation)
        #expect(tokens.first { $0.0 == "Home" }?.2 == .declaration)
        #expect(kinds(of: "anyOf").isEmpty)
        #expect(kinds(of: "conditional") == [.keyword])
    }

    /// `as`, `cover` and `popover` are keywords in a presentation, names elsewhere.
    @Test func contextualKeywordsOfPresentations() {
        let tokens = classified("""
            screen Paywall cover(allowsPush: false)
            screen Picker popover
            flag cover
            root { conditional cover { screen Paywall as popover } else { screen Picker as cover } }
            """)
        func kinds(of text: String) -> [SemanticToken.Kind] { tokens.filter { $0.0 == text }.map(\.1) }
        #expect(kinds(of: "cover") == [.keyword, .flag, .flag, .keyword])
        #expect(kinds(of: "popover") == [.keyword, .keyword])
        #expect(kinds(of: "as") == [.keyword, .keyword])
        #expect(kinds(of: "allowsPush") == [.parameter])
    }

    /// In a link: `link` is a keyword, the link's name a link where it is declared, and in
    /// its path the arguments' labels and the placeholders they take are parameters (`link`
    /// elsewhere is a builder's name).
    @Test func linkDeclarations() {
        let tokens = classified("""
            screen Home
            screen Item(id: Int, tab: String)
            builder link { screen Item }
            link item "/items/{id}?q={z?}" -> Home/Item(id: id, tab: "info")
            root { screen Home { link } }
            """)
        func kinds(of text: String) -> [SemanticToken.Kind] { tokens.filter { $0.0 == text }.map(\.1) }
        #expect(kinds(of: "link") == [.builder, .keyword, .builder])
        #expect(kinds(of: "item") == [.link])
        #expect(tokens.first { $0.0 == "item" }?.2 == .declaration)
        #expect(kinds(of: "id") == [.parameter, .parameter, .parameter])
        #expect(kinds(of: "tab") == [.parameter, .parameter])
        #expect(kinds(of: "Item") == [.screen, .screen, .screen])
        #expect(kinds(of: "\"info\"") == [.string])
    }

    @Test func unresolvedNamesAreMarked() {
        let tokens = classified("screen Home\nroot { screen Hme }")
        #expect(tokens.contains { $0.0 == "Hme" && $0.1 == .screen && $0.2 == .unresolved })
    }

    @Test func tokensAreInOrderAndDoNotOverlap() {
        let w = Workspace("screen A\nroot { anyOf { screen A  \"s\" 12 } }")
        let ts = IDE.semanticTokens(project: w.project, file: w.file)
        for (a, b) in zip(ts, ts.dropFirst()) { #expect(a.range.upperBound <= b.range.lowerBound) }
    }
}

@Suite struct FoldingRangeTests {
    @Test func blocksCommentsAndImportsFold() {
        let w = Workspace("""
            import "A.routes"
            import "B.routes"
            // one
            // two
            screen Home
            root {
              screen Home {
                empty
              }
            }
            """, others: ["A.routes": "", "B.routes": ""])
        let ranges = IDE.foldingRanges(project: w.project, file: w.file)
        #expect(ranges.contains(FoldingRange(startLine: 0, endLine: 1, kind: .imports)))
        #expect(ranges.contains(FoldingRange(startLine: 2, endLine: 3, kind: .comment)))
        #expect(ranges.contains(FoldingRange(startLine: 5, endLine: 8, kind: nil)))
        #expect(ranges.contains(FoldingRange(startLine: 6, endLine: 7, kind: nil)))
    }

    @Test func oneLineBlocksDoNotFold() {
        let w = Workspace("screen A\nroot { screen A }")
        #expect(IDE.foldingRanges(project: w.project, file: w.file).isEmpty)
    }
}
