import Foundation
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import Testing

@testable import RoutesIDE

/// One "expand selection" request: the file with `|` at the cursor, and the text of the first
/// ranges expected, innermost first (the ones after them lead to the whole file).
struct SelectionCase: CustomTestStringConvertible, Sendable {
    var name: String
    var source: String
    var expected: [String]
    var testDescription: String { name }
}

private let program = """
    /// The first screen.
    screen Home
    dependency store: Store from Home
    root {
      anyOf {
        screen Home uses store {
          screen Home
        }
        empty
      }
    }

    """

private let selectionCases: [SelectionCase] = [
    .init(name: "a name in a uses list: token, list, head, builder, branches, block, root, file without its comments",
          source: program.replacingOccurrences(of: "uses store", with: "uses st|ore"),
          expected: ["store", "uses store", "screen Home uses store",
                     "screen Home uses store {\n      screen Home\n    }",
                     "anyOf {\n    screen Home uses store {\n      screen Home\n    }\n    empty\n  }",
                     "{\n  anyOf {\n    screen Home uses store {\n      screen Home\n    }\n    empty\n  }\n}",
                     "root {\n  anyOf {\n    screen Home uses store {\n      screen Home\n    }\n    empty\n  }\n}",
                     "screen Home\ndependency store: Store from Home\nroot {\n  anyOf {\n    screen Home uses store {\n      screen Home\n    }\n    empty\n  }\n}"]),
    .init(name: "a screen's name in a builder: token, head, builder",
          source: program.replacingOccurrences(of: "screen Home uses", with: "screen Ho|me uses"),
          expected: ["Home", "screen Home uses store", "screen Home uses store {\n      screen Home\n    }"]),
    .init(name: "a keyword of a builder",
          source: program.replacingOccurrences(of: "anyOf", with: "an|yOf"),
          expected: ["anyOf", "anyOf {\n    screen Home uses store {\n      screen Home\n    }\n    empty\n  }"]),
    .init(name: "a nested builder: it is its own head",
          source: program.replacingOccurrences(of: "      screen Home\n", with: "      screen H|ome\n"),
          expected: ["Home", "screen Home", "{\n      screen Home\n    }", "screen Home uses store {\n      screen Home\n    }"]),
    .init(name: "a declared name: head, declaration, with its doc comment",
          source: program.replacingOccurrences(of: "screen Home\ndependency", with: "screen H|ome\ndependency"),
          expected: ["Home", "screen Home", "/// The first screen.\nscreen Home"]),
    .init(name: "a dependency's from: the clause, then the declaration (past its head)",
          source: program.replacingOccurrences(of: "from Home", with: "from Ho|me"),
          expected: ["Home", "from Home", "dependency store: Store from Home"]),
    .init(name: "a dependency's name: the head first",
          source: program.replacingOccurrences(of: "dependency store", with: "dependency sto|re"),
          expected: ["store", "dependency store: Store", "dependency store: Store from Home"]),
    .init(name: "a parameter label and a type",
          source: "screen Detail(id: Product.I|D, tab: Int) sheet\n",
          expected: ["ID", "Product.ID", "id: Product.ID", "(id: Product.ID, tab: Int)", "screen Detail(id: Product.ID, tab: Int) sheet"]),
    .init(name: "an import string", source: "import \"Li|b.routes\"\n",
          expected: ["\"Lib.routes\"", "import \"Lib.routes\""]),
    .init(name: "a comment inside a block",
          source: "root {\n  // a no|te\n  empty\n}\n",
          expected: ["// a note", "{\n  // a note\n  empty\n}", "root {\n  // a note\n  empty\n}"]),
    .init(name: "whitespace inside a block: the block first",
          source: "root {\n  empty\n  |\n}\n",
          expected: ["{\n  empty\n  \n}", "root {\n  empty\n  \n}"]),
    .init(name: "half-written: an unclosed block",
          source: "root {\n  screen Ho|",
          expected: ["Ho", "screen Ho", "{\n  screen Ho", "root {\n  screen Ho"]),
]

@Suite struct SelectionRangeTests {
    @Test(arguments: selectionCases)
    func expandsFromTheTokenToTheFile(_ c: SelectionCase) {
        let w = Workspace(c.source)
        let text = w.text(w.file)
        let ranges = IDE.selectionRanges(project: w.project, file: w.file, offset: w.cursor)
        #expect(ranges.last == 0..<text.utf8.count)
        let texts = ranges.map { text.utf8Slice($0) }
        #expect(Array(texts.prefix(c.expected.count)) == c.expected, "\(texts)")
    }

    /// On every file of the fixtures, at every offset: the ranges contain the offset (or touch
    /// it), each strictly contains the one before, and only the whole file starts or ends in
    /// whitespace.
    @Test func everyStepContainsTheOneBeforeOnEveryFixture() throws {
        for path in fixtureFiles() {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            let w = Workspace(text)
            let count = w.project.files[w.file].text.count
            let bytes = w.project.files[w.file].text.bytes
            for offset in stride(from: 0, through: count, by: max(1, count / 200)) {
                let ranges = IDE.selectionRanges(project: w.project, file: w.file, offset: offset)
                #expect(ranges.last == 0..<count, "\(path)")
                for (inner, outer) in zip(ranges, ranges.dropFirst()) {
                    #expect(outer.lowerBound <= inner.lowerBound && inner.upperBound <= outer.upperBound && inner != outer,
                            "\(path) at \(offset): \(inner) then \(outer)")
                }
                if let first = ranges.first {
                    #expect(first.lowerBound <= offset && offset <= first.upperBound, "\(path) at \(offset)")
                }
                for r in ranges.dropLast() where !r.isEmpty {
                    let ends = [bytes[r.lowerBound], bytes[r.upperBound - 1]]
                    #expect(!ends.contains(0x20) && !ends.contains(0x0A), "\(path) at \(offset): \(r)")
                }
            }
        }
    }

    @Test func anEmptyFileAnUnknownFileAndOffsetsOutOfRange() {
        let empty = Workspace("")
        #expect(IDE.selectionRanges(project: empty.project, file: empty.file, offset: 0) == [0..<0])
        let w = Workspace("root { empty }")
        #expect(IDE.selectionRanges(project: w.project, file: 9, offset: 0).isEmpty)
        #expect(IDE.selectionRanges(project: w.project, file: w.file, offset: -4).first == 0..<4)
        #expect(IDE.selectionRanges(project: w.project, file: w.file, offset: 1_000).first == 13..<14)
    }
}
