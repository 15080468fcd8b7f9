import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// One highlight request: the file, with `|` at the cursor and `‹…›` around each range
/// expected, and the kind of each range in order (`w` write, `r` read, `t` text).
struct HighlightCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var kinds: String
    var others: [String: String] = [:]
    var testDescription: String { name }
}

private let highlightCases: [HighlightCase] = [
    .init(name: "a screen: its declaration and every use",
          source: """
            screen ‹Home›
            dependency store: Store from ‹Home›
            root { anyOf { screen ‹Ho|me› uses store wildcard ‹Home› { if screen ‹Home› { empty } } } }
            """, kinds: "wrrrr"),
    .init(name: "from the declaration",
          source: "screen ‹Ho|me›\nroot { screen ‹Home› }", kinds: "wr"),
    .init(name: "at the end of a name", source: "screen ‹Home›\nroot { screen ‹Home|› }", kinds: "wr"),
    .init(name: "a dependency in uses lists",
          source: "screen Home\ndependency ‹store›: S\nroot { screen Home uses ‹sto|re› { screen Home uses ‹store› } }", kinds: "wrr"),
    .init(name: "a flag and an optional",
          source: "flag ‹on›\noptional draft: D\nscreen A\nroot { conditional ‹o|n› { if let draft { screen A uses draft } } else { empty } }", kinds: "wr"),
    .init(name: "a recursive builder",
          source: "screen A\nbuilder ‹b› { screen A { ‹b› } }\nroot { ‹|b› }", kinds: "wrr"),
    .init(name: "declared in another file: the uses here only",
          source: "import \"Lib.routes\"\nroot { anyOf { screen ‹Sha|red› screen ‹Shared› } }", kinds: "rr",
          others: ["Lib.routes": "screen Shared"]),
    .init(name: "an undeclared name: its other undeclared uses",
          source: "screen A\nroot { anyOf { screen ‹Nop|e› screen A { screen ‹Nope› } } }", kinds: "tt"),
    .init(name: "a parameter label", source: "screen Detail(‹i|d›: String, name: String)", kinds: "w"),
    .init(name: "a keyword: nothing", source: "screen A\nroot { scr|een A }", kinds: ""),
    .init(name: "punctuation: nothing", source: "screen A\nroot |{ screen A }", kinds: ""),
    .init(name: "an import string: nothing", source: "import \"Li|b.routes\"", kinds: "",
          others: ["Lib.routes": "screen X"]),
    .init(name: "whitespace: nothing", source: "screen A\n  |  \nroot { screen A }", kinds: ""),
    .init(name: "a name the same as another kind's is its own symbol",
          source: "screen ‹A›\nflag B\nroot { anyOf { screen ‹|A› conditional B { screen ‹A› } else { empty } } }", kinds: "wrr"),
]

@Suite struct DocumentHighlightTests {
    @Test(arguments: highlightCases)
    func highlights(_ c: HighlightCase) {
        let w = Workspace(c.source, others: c.others)
        let got = IDE.documentHighlights(project: w.project, file: w.file, offset: w.cursor)
        #expect(got.map(\.range) == w.ranges["App.routes"]!, "\(c.source)")
        let kinds = got.map { h -> Character in
            switch h.kind {
            case .write: return "w"
            case .read: return "r"
            case .text: return "t"
            }
        }
        #expect(String(kinds) == c.kinds)
    }

    @Test func everyNameOfTheSeedHighlightsWhatReferencesFindInTheFile() {
        let w = Workspace(seedDeclarations + "root { conditional isLoggedIn { wildcard Home { screen Home uses appStore { anyOf { screen Settings uses settingsStore if let detailStore { detail } } } } } else { screen Login uses loginStore } }")
        let tree = w.project.files[w.file].syntax
        for token in tree.tokens where token.kind == .identifier {
            let highlights = IDE.documentHighlights(project: w.project, file: w.file, offset: token.start)
            let references = IDE.references(project: w.project, file: w.file, offset: token.start, includeDeclaration: true)
                .filter { $0.file == w.file }.map(\.range)
            #expect(Set(highlights.map(\.range)) == Set(references), "\(w.text(w.file).utf8Slice(token.range))")
        }
    }

    @Test func anUnknownFileOrAnOffsetOutOfRangeGivesNothingOrTheNearestName() {
        let w = Workspace("screen Home\nroot { screen Home }")
        #expect(IDE.documentHighlights(project: w.project, file: 42, offset: 0).isEmpty)
        #expect(IDE.documentHighlights(project: w.project, file: w.file, offset: -10).isEmpty)  // `screen`, a keyword
        // Past the end: clamped onto the last token, `}`.
        #expect(IDE.documentHighlights(project: w.project, file: w.file, offset: 10_000).isEmpty)
    }
}
