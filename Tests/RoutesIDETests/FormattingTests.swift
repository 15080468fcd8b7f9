import Testing
import RoutesModel
import RoutesSyntax
@testable import RoutesIDE

/// `IDE.formatting`, `rangeFormatting` and `onTypeFormatting`: edits of the runs of
/// whitespace that change (docs/formatting.md).
@Suite struct FormattingTests {
    /// `text` with the edits applied (byte ranges).
    func apply(_ edits: [TextEdit], to text: String) -> String {
        var bytes = Array(text.utf8)
        for (a, b) in zip(edits, edits.dropFirst()) { #expect(a.range.upperBound <= b.range.lowerBound, "edits out of order") }
        for e in edits.reversed() { bytes.replaceSubrange(e.range, with: Array(e.newText.utf8)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func formattingEditsOnlyWhitespace() throws {
        let w = Workspace("screen   Home // é\nroot {\nscreen Home { anyOf { screen Home\nscreen Home } }\n}\n")
        let edits = try IDE.formatting(project: w.project, file: w.file)
        #expect(edits.allSatisfy { $0.newText.allSatisfy { $0 == " " || $0 == "\n" } })
        #expect(apply(edits, to: w.texts["App.routes"]!)
                == "screen Home // é\nroot {\n  screen Home {\n    anyOf {\n      screen Home\n      screen Home\n    }\n  }\n}\n")
        // A formatted file: no edits.
        let tidy = Workspace("screen Home\nroot { screen Home }\n")
        #expect(try IDE.formatting(project: tidy.project, file: tidy.file).isEmpty)
    }

    /// A text that ends in blanks without a line break (a line being typed) gets its line
    /// break: the edits' common part runs to the text's end (it crashed the server).
    @Test func formattingATextEndingInBlanks() throws {
        for text in ["root { ", "x ", "screen ", "root {  ", "root { screen Home uses ", "screen Home\t"] {
            let w = Workspace(text)
            let edits = try IDE.formatting(project: w.project, file: w.file)
            let tree = SyntaxTree.parse(SourceText(bytes: Array(text.utf8)))
            #expect(apply(edits, to: text) == String(decoding: try Formatter.format(tree).bytes, as: UTF8.self), "\(text)")
            #expect(apply(edits, to: text).hasSuffix("\n"), "\(text)")
        }
    }

    @Test func rangeFormattingEditsTheDeclarationsInTheRange() throws {
        let w = Workspace("screen   Home\nflag   f\nroot {\nscreen Home\n}\n")
        let text = w.texts["App.routes"]!
        let edits = try IDE.rangeFormatting(project: w.project, file: w.file, range: 15..<16)
        #expect(apply(edits, to: text) == "screen   Home\nflag f\nroot {\nscreen Home\n}\n")
        // Out-of-range offsets are clamped.
        _ = try IDE.rangeFormatting(project: w.project, file: w.file, range: -5..<1_000_000)
    }

    @Test func onTypeFormattingLaysOutTheBlockTheBraceCloses() {
        let text = "screen Home\nroot {\nscreen Home {\nanyOf { screen Home\nscreen Home\n}\n}\n}\n"
        let w = Workspace(text)
        // Right after the anyOf's `}` (line 6).
        let after = Array(text.utf8).count - "\n}\n}\n".utf8.count
        let edits = IDE.onTypeFormatting(project: w.project, file: w.file, offset: after)
        #expect(apply(edits, to: text) == "screen Home\nroot {\nscreen Home {\n    anyOf {\n      screen Home\n      screen Home\n    }\n}\n}\n")
        // Not after a `}`: nothing.
        #expect(IDE.onTypeFormatting(project: w.project, file: w.file, offset: 3).isEmpty)
        #expect(IDE.onTypeFormatting(project: w.project, file: w.file, offset: -1).isEmpty)
        #expect(IDE.onTypeFormatting(project: w.project, file: 99, offset: 0).isEmpty)
    }

    @Test func aBlockWithASyntaxErrorIsLeftAlone() {
        let text = "screen Home\nroot {\nanyOf { screen Home &&\n}\n}\n"
        let w = Workspace(text)
        let after = Array(text.utf8).count - "\n}\n".utf8.count
        #expect(IDE.onTypeFormatting(project: w.project, file: w.file, offset: after).isEmpty)
    }
}
