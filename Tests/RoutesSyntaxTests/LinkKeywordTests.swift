import RoutesSyntax
import Testing
import TestSupport

/// Whether a file may declare a link decides whether a lint keeps the screens' parameters: the
/// scan from each `k` against a plain reading of the lines.
@Suite struct LinkKeywordTests {
    /// A line that starts, after blanks, with `link` and a blank, or that is `link` and a
    /// line break (a link whose name and pattern are on the next lines).
    static func reference(_ text: [UInt8]) -> Bool {
        let lines = text.split(omittingEmptySubsequences: false) { $0 == 0x0A || $0 == 0x0D }
        return lines.indices.contains { i in
            let rest = lines[i].drop { $0 == 0x20 || $0 == 0x09 }
            guard rest.starts(with: Array("link".utf8)) else { return false }
            if rest.count == 4 { return i < lines.count - 1 }
            return rest[rest.startIndex + 4] == 0x20 || rest[rest.startIndex + 4] == 0x09
        }
    }

    @Test func linesThatOpenALinkAreFound() {
        for text in ["link a \"/\" -> A", "  link a", "\tlink\tb", "screen A\nlink b \"/b\" -> A", "screen A\r\nlink b", "x\n \t link c",
                     "link\n  a \"/\" -> A", "x\r\nlink\r\n", "link\n"] {
            #expect(LinkKeyword.mayDeclareLink(in: Array(text.utf8)), "\(text)")
        }
    }

    @Test func otherUsesOfTheWordAreNot() {
        for text in ["", "link", "x\n  link", "linked a", "blink a", "// link a", "screen link a", "klink a", "lin k a", "/// a link to x"] {
            #expect(!LinkKeyword.mayDeclareLink(in: Array(text.utf8)), "\(text)")
        }
    }

    /// Random texts over the letters that matter: the same answer as the reference.
    @Test func agreesWithAReadingOfTheLines() {
        var generator = SplitMix64(seed: 0x6C69_6E6B)
        let alphabet = Array("link \t\n\rx".utf8)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            #expect(LinkKeyword.mayDeclareLink(in: text) == Self.reference(text), "\(String(decoding: text, as: UTF8.self).debugDescription)")
        }
    }
}
