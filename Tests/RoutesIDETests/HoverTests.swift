import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// One hover: a file with `|` on the thing hovered, and the parts the Markdown must contain.
struct HoverCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var contains: [String]
    var lacks: [String] = []
    var testDescription: String { name }
}

private let cases: [HoverCase] = [
    .init(name: "a screen declaration", source: seedDeclarations.replacingOccurrences(of: "screen Detail(", with: "screen De|tail(") + seedRoot,
          contains: ["```routes\nscreen Detail(id: String) sheet\n```", "One item, modally.", "sheet",
                     "**Example:** the path `Home/Detail` reaches it with `isLoggedIn=true`, `detailStore=present`."]),
    .init(name: "a screen node: the example for that node", source: seedDeclarations + seedRoot.replacingOccurrences(of: "screen Settings", with: "screen Sett|ings"),
          contains: ["```routes\nscreen Settings\n```", "**Example:** the path `Home/Settings` reaches it with `isLoggedIn=true`"]),
    .init(name: "an unreachable screen node says why", source: seedDeclarations + "root { anyOf { screen Home screen Ho|me } }",
          contains: ["**Unreachable:** this `anyOf` branch is shadowed", "built first by `screen Home`"], lacks: ["**Example:**"]),
    .init(name: "a screen node inside a shadowed branch says where the cause is",
          source: seedDeclarations + "root {\n  anyOf {\n    screen Home\n    screen Home { screen Sett|ings }\n  }\n}",
          contains: ["**Unreachable:** it is inside `screen Home` at 23:5: this `anyOf` branch is shadowed"],
          lacks: ["**Example:**"]),
    .init(name: "a screen never placed", source: seedDeclarations + "root { screen Home }\nscreen Lo|st",
          contains: ["```routes\nscreen Lost\n```", "**Unreachable:**", "never placed"]),
    .init(name: "a dependency with a provider", source: seedDeclarations.replacingOccurrences(of: "dependency settingsStore", with: "dependency settings|Store") + seedRoot,
          contains: ["```routes\ndependency settingsStore: SettingsStore from Home\n```", "Provided by a `Home` screen", "not to `Home` itself"]),
    .init(name: "a dependency in a uses list: in scope here", source: seedDeclarations + seedRoot.replacingOccurrences(of: "uses settingsStore", with: "uses settings|Store"),
          contains: ["dependency settingsStore: SettingsStore from Home", "**Here:** in scope on every way"]),
    .init(name: "a dependency in a uses list: not in scope here", source: seedDeclarations + seedRoot.replacingOccurrences(of: "screen Home uses appStore", with: "screen Home uses settings|Store"),
          contains: ["**Here:** not in scope on every way: provided by `Home`"]),
    .init(name: "an always-available dependency", source: seedDeclarations + seedRoot.replacingOccurrences(of: "uses appStore", with: "uses app|Store"),
          contains: ["```routes\ndependency appStore: AppStore\n```", "The app's state.", "Always in scope"]),
    .init(name: "an optional", source: seedDeclarations + seedRoot.replacingOccurrences(of: "if let detailStore", with: "if let detail|Store"),
          contains: ["```routes\noptional detailStore: DetailStore\n```", "only inside `if let detailStore { }`"]),
    .init(name: "a flag", source: seedDeclarations + seedRoot.replacingOccurrences(of: "conditional isLoggedIn", with: "conditional is|LoggedIn"),
          contains: ["```routes\nflag isLoggedIn\n```", "Signed in?", "runtime condition", "Tested in 1 place."]),
    .init(name: "a builder: the tree it builds", source: seedDeclarations + seedRoot.replacingOccurrences(of: "        detail\n", with: "        deta|il\n"),
          contains: ["```routes\nbuilder detail\n```", "Detail after Detail.", "Builds:", "Detail (sheet)  uses detailStore", "↻ detail"]),
    .init(name: "root: the program's tree", source: seedDeclarations + seedRoot.replacingOccurrences(of: "root {", with: "ro|ot {"),
          contains: ["```routes\nroot\n```", "└─ conditional isLoggedIn", "true: wildcard Home"]),
    .init(name: "a keyword", source: "root { any|Of { empty } }", contains: ["`anyOf { B1 B2 ... }`"]),
    .init(name: "if of an if let", source: "optional o: O\nroot { i|f let o { empty } }", contains: ["`if let o { A } [else { B }]`"]),
    .init(name: "the screen keyword of an if screen", source: "screen S\nroot { if scr|een S { empty } }", contains: ["`if screen S { A } [else { B }]`"]),
    .init(name: "a screen used in a wildcard: the declaration's example", source: "screen Home\nroot { wildcard Ho|me { screen Home } }",
          contains: ["```routes\nscreen Home\n```", "**Example:** the path `Home` reaches it in any environment."]),
    // Found by fuzz-programs: the example named the screen built instead of the element written.
    .init(name: "a screen reached only through a wildcard: the example names the element", source: "screen S0\nscreen S2\nroot { if screen S2 { wildcard S0 { screen S|0 } } }",
          contains: ["**Example:** the path `S2` reaches it"], lacks: ["the path `S0`"]),
    .init(name: "a wrong-kind use shows what the name is", source: "screen Home\nroot { conditional Ho|me { empty } else { screen Home } }",
          contains: ["```routes\nscreen Home\n```"]),
    .init(name: "a library builder's screen: in no program", source: "screen Home\nbuilder lib { screen Ho|me }",
          contains: ["**Unreachable:** it is in no program's routing tree"]),
    .init(name: "the screen keyword of a declaration", source: "scr|een Home", contains: ["declares a screen type"]),
    .init(name: "a contextual keyword: as", source: "screen S\nroot { screen S a|s cover }", contains: ["`screen S as sheet`"]),
    .init(name: "a contextual keyword: cover", source: "screen S\nroot { screen S as cov|er }", contains: ["`fullScreenCover`"]),
    .init(name: "a contextual keyword in a declaration: popover", source: "screen S pop|over", contains: ["as a popover"]),
    .init(name: "a name spelled like a contextual keyword is a name", source: "flag cover\nroot { conditional cov|er { empty } else { empty } }",
          contains: ["```routes\nflag cover\n```"], lacks: ["fullScreenCover"]),
    .init(name: "a screen node with its own presentation says so", source: "screen S sheet\nroot { screen |S as cover(allowsPush: false) }",
          contains: ["Presented full screen as a cover on which nothing can be pushed here (`as cover(allowsPush: false)`; declared `sheet`)."]),
    .init(name: "a screen declared as a popover", source: "screen |S popover\nroot { screen S }",
          contains: ["```routes\nscreen S popover\n```", "Presented as a popover (a sheet on compact widths), with its own navigation stack."]),
    .init(name: "a parameter label", source: "screen Transfer(fr|om: Account)", contains: ["```routes\nfrom: Account\n```", "screen `Transfer`"]),
]

@Suite struct HoverTests {
    @Test(arguments: cases)
    func markdownHasTheKeyParts(_ c: HoverCase) {
        let w = Workspace(c.source)
        let hover = IDE.hover(session: w.session, file: w.file, offset: w.cursor)
        #expect(hover != nil)
        for part in c.contains {
            #expect(hover?.markdown.contains(part) == true, "missing \(part.debugDescription) in:\n\(hover?.markdown ?? "nil")")
        }
        for part in c.lacks {
            #expect(hover?.markdown.contains(part) == false, "unexpected \(part.debugDescription)")
        }
        // The range is the token hovered.
        if let r = hover?.range {
            #expect(r.contains(w.cursor) || r.upperBound == w.cursor)
        }
    }

    @Test func theRangeIsTheNameAndUsesWinAtTheEndOfAName() {
        let w = Workspace(seedDeclarations + "root { screen Home| }")
        let start = w.offset(of: "screen Home", occurrence: 1, delta: 7)
        let hover = IDE.hover(session: w.session, file: w.file, offset: w.cursor)
        #expect(hover?.range == start..<(start + 4))
    }

    @Test func nothingOnPunctuationWhitespaceCommentsOrUndeclaredNames() {
        let w = Workspace("screen Home   // comment\nroot { screen Nope }")
        for needle in ["// comment", "   ", "{", "Nope"] {
            let offset = w.offset(of: needle, delta: 1)
            #expect(IDE.hover(session: w.session, file: w.file, offset: offset) == nil, "\(needle)")
        }
    }

    @Test func anImportShowsTheFileAndWhatItDeclares() {
        let w = Workspace("import \"Li|b.routes\"\nroot { screen Shared }",
                          others: ["Lib.routes": "screen Shared\nscreen Other\nflag f\ndependency d: D"])
        let hover = IDE.hover(session: w.session, file: w.file, offset: w.cursor)
        #expect(hover?.markdown.contains("```routes\nimport \"Lib.routes\"\n```") == true)
        #expect(hover?.markdown.contains("`Lib.routes`: declares 2 screens, 1 dependency, 1 flag.") == true)
        let missing = Workspace("import \"Mis|sing.routes\"")
        #expect(IDE.hover(session: missing.session, file: missing.file, offset: missing.cursor)?.markdown.contains("could not be loaded") == true)
    }

    @Test func aBigBuilderTreeIsTruncated() {
        var branches = ""
        for i in 0..<100 { branches += "screen S\(i)\n" }
        var decls = ""
        for i in 0..<100 { decls += "screen S\(i)\n" }
        let w = Workspace(decls + "builder bi|g { anyOf {\n\(branches)} }\nroot { big }")
        let hover = IDE.hover(session: w.session, file: w.file, offset: w.cursor)
        #expect(hover?.markdown.contains("truncated") == true)
        #expect((hover?.markdown.split(separator: "\n").count ?? 1000) < 60)
    }
}
