import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// One file with its hints written where they are shown, as `⟪label⟫`.
struct InlayHintCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var others: [String: String] = [:]
    var testDescription: String { name }

    /// The text without the hints, and the hints by offset.
    var parsed: (text: String, hints: [(offset: Int, label: String)]) {
        var bytes: [UInt8] = []
        var hints: [(Int, String)] = []
        var rest = Substring(source)
        while let open = rest.range(of: "⟪") {
            bytes += Array(rest[..<open.lowerBound].utf8)
            let close = rest.range(of: "⟫", range: open.upperBound..<rest.endIndex)!
            hints.append((bytes.count, String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        bytes += Array(rest.utf8)
        return (String(decoding: bytes, as: UTF8.self), hints)
    }
}

private let hintCases: [InlayHintCase] = [
    .init(name: "a sheet's presentation after its name; nothing for a push",
          source: """
            screen Home
            screen Detail sheet
            screen Picker sheet(allowsPush: false)
            root { screen Home { anyOf { screen Detail⟪sheet⟫ screen Picker⟪sheet, no push⟫ } } }
            """),
    .init(name: "a cover's and a popover's presentation; nothing where the placement writes its own",
          source: """
            screen Home
            screen Paywall cover
            screen Picker popover(allowsPush: false)
            root { screen Home { anyOf { screen Paywall⟪cover⟫ screen Picker⟪popover, no push⟫ screen Paywall as sheet screen Home as cover } } }
            """),
    .init(name: "what a screen provides, after its uses list, when it nests something",
          source: """
            screen Home
            screen Cart
            dependency app: App
            dependency cart: CartStore from Home
            optional promo: Promo from Home
            root { screen Home uses app⟪provides cart, promo⟫ { screen Cart uses cart } }
            """),
    .init(name: "a leaf provides to nothing: no hint",
          source: "screen Home\ndependency cart: C from Home\nroot { anyOf { screen Home  screen Home⟪provides cart⟫ { empty } } }"),
    .init(name: "both on a sheet that provides: the presentation first",
          source: "screen Home sheet\ndependency d: D from Home\nroot { screen Home⟪sheet⟫⟪provides d⟫ { empty } }"),
    .init(name: "more than three names: +N",
          source: """
            screen Home
            dependency e: E from Home
            dependency a: A from Home
            dependency c: C from Home
            dependency b: B from Home
            dependency d: D from Home
            root { screen Home⟪provides a, b, c +2⟫ { empty } }
            """),
    .init(name: "declarations in another file; names that do not resolve get nothing",
          source: "import \"Lib.routes\"\nroot { anyOf { screen Modal⟪sheet⟫ { empty } screen Nope { empty } screen Shop⟪provides basket⟫ { empty } } }",
          others: ["Lib.routes": "screen Modal sheet\nscreen Shop\ndependency basket: Basket from Shop"]),
    .init(name: "in a builder of no program, and in nested wildcards and conditions",
          source: "screen A sheet\nflag f\nbuilder b { wildcard A { conditional f { screen A⟪sheet⟫ } else { if screen A { screen A⟪sheet⟫ } } } }"),
    .init(name: "a dependency from a flag is no screen's",
          source: "screen Home\nflag f\ndependency x: X from f\nroot { screen Home { empty } }"),
]

@Suite struct InlayHintTests {
    @Test(arguments: hintCases)
    func hintsWhereTheyAreShown(_ c: InlayHintCase) {
        let (text, expected) = c.parsed
        let w = Workspace(text, others: c.others)
        let hints = IDE.inlayHints(project: w.project, file: w.file, range: 0..<text.utf8.count)
        #expect(hints.map(\.offset) == expected.map(\.offset), "\(hints)")
        #expect(hints.map(\.label) == expected.map(\.label))
    }

    @Test func kindsAndTooltips() {
        let w = Workspace("screen Home sheet\ndependency cart: CartStore from Home\nroot { screen Home { empty } }")
        let hints = IDE.inlayHints(project: w.project, file: w.file, range: 0..<1000)
        #expect(hints.map(\.kind) == [.type, nil])
        #expect(hints[0].tooltip == "`Home` is declared `screen Home sheet`.")
        #expect(hints[1].tooltip == "In scope in what `Home` nests:\n\n- `dependency cart: CartStore from Home`")
    }

    @Test func onlyTheHintsInTheRange() {
        let source = "screen D sheet\nroot {\n  anyOf {\n    screen D\n    screen D\n    screen D\n  }\n}\n"
        let w = Workspace(source)
        let all = IDE.inlayHints(project: w.project, file: w.file, range: 0..<source.utf8.count)
        #expect(all.count == 3)
        // The second line of builders only (a hint at the range's end is in it).
        let second = w.offset(of: "screen D", occurrence: 2)
        let line = second..<(second + "screen D".utf8.count)
        #expect(IDE.inlayHints(project: w.project, file: w.file, range: line).map(\.offset) == [all[1].offset])
        #expect(IDE.inlayHints(project: w.project, file: w.file, range: 0..<w.offset(of: "screen D", occurrence: 1)).isEmpty)
        // Ranges out of the text, reversed or empty, and unknown files: no crash, nothing odd.
        #expect(IDE.inlayHints(project: w.project, file: w.file, range: -50..<100_000).count == 3)
        #expect(IDE.inlayHints(project: w.project, file: w.file, range: 5_000..<6_000).isEmpty)
        #expect(IDE.inlayHints(project: w.project, file: 17, range: 0..<10).isEmpty)
    }
}
