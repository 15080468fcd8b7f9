import Foundation
import Testing
@testable import RoutesSyntax

/// `Tests/Fixtures/fmt/<case>.routes` formats to `<case>.formatted` (byte for byte), and the
/// `.formatted` text is a fixed point. `UPDATE_EXPECT=1 swift test --filter FormatterFixtureTests`
/// rewrites the `.formatted` files; review the diff.
@Suite struct FormatterFixtureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fmt")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".routes") }.map { String($0.dropLast(".routes".count)) }.sorted()
    }()

    @Test func theFixturesAreThere() {
        #expect(Self.cases.count >= 15)
    }

    @Test(arguments: cases)
    func formatsToItsExpectation(_ name: String) throws {
        let input = [UInt8](try Data(contentsOf: Self.directory.appendingPathComponent(name + ".routes")))
        let expectedURL = Self.directory.appendingPathComponent(name + ".formatted")
        let tree = SyntaxTree.parse(SourceText(bytes: input))
        let formatted = try Formatter.format(tree)
        if ProcessInfo.processInfo.environment["UPDATE_EXPECT"] == "1" {
            try Data(formatted.bytes).write(to: expectedURL)
            return
        }
        let expected = try? [UInt8](Data(contentsOf: expectedURL))
        #expect(expected != nil, "missing \(expectedURL.path); run with UPDATE_EXPECT=1")
        #expect(formatted.bytes == expected, "\(name):\n\(String(decoding: formatted.bytes, as: UTF8.self))")
        // The expectation is canonical: formatting it changes nothing.
        if let expected {
            let again = try Formatter.format(SyntaxTree.parse(SourceText(bytes: expected)))
            #expect(!again.changed, "\(name).formatted is not a fixed point")
        }
    }
}

private func format(_ text: String) throws -> String {
    String(decoding: try Formatter.format(SyntaxTree.parse(SourceText(text))).bytes, as: UTF8.self)
}

/// The layout's rules, one at a time (docs/formatting.md).
@Suite struct FormatterLayoutTests {
    @Test func declarationsStartLinesAtColumnZero() throws {
        #expect(try format("  screen Home   screen Detail\n\tflag f") == "screen Home\nscreen Detail\nflag f\n")
    }

    @Test func anEmptyTextStaysEmpty() throws {
        #expect(try format("") == "")
        #expect(try format("\n\n  \t\n") == "")
        #expect(try format("\u{FEFF}") == "\u{FEFF}")
    }

    @Test func blocksWrittenOnSeveralLinesStayOnSeveral() throws {
        #expect(try format("screen A\nroot {\nscreen A\n}") == "screen A\nroot {\n  screen A\n}\n")
        #expect(try format("screen A\nroot { screen A\n}") == "screen A\nroot {\n  screen A\n}\n")
    }

    @Test func oneLineBlocksStayWhileTheyFit() throws {
        let name = String(repeating: "S", count: 80)
        #expect(try format("screen \(name)\nroot { screen \(name) }") == "screen \(name)\nroot { screen \(name) }\n")
        let longer = String(repeating: "S", count: 92)  // `root { screen … }` is then 101 columns
        #expect(try format("screen \(longer)\nroot { screen \(longer) }") == "screen \(longer)\nroot {\n  screen \(longer)\n}\n")
    }

    @Test func anyOfBranchesGoOnLinesOfTheirOwn() throws {
        #expect(try format("screen A\nroot {\n  anyOf { screen A\n  screen A }\n}") == "screen A\nroot {\n  anyOf {\n    screen A\n    screen A\n  }\n}\n")
    }

    @Test func elseFollowsTheBrace() throws {
        let text = "flag f\nscreen A\nroot {\n  conditional f {\n    screen A\n  }\n  else\n  {\n    empty\n  }\n}\n"
        #expect(try format(text) == "flag f\nscreen A\nroot {\n  conditional f {\n    screen A\n  } else {\n    empty\n  }\n}\n")
    }

    @Test func usesListsTakeCommaSpace() throws {
        #expect(try format("dependency a: A\ndependency b: B\nscreen S\nroot { screen S uses a ,b }") == "dependency a: A\ndependency b: B\nscreen S\nroot { screen S uses a, b }\n")
    }

    @Test func parameterListsBreakOnePerLine() throws {
        let params = (1...8).map { "parameterNumber\($0): String" }.joined(separator: ", ")
        let expected = "screen S(\n" + (1...8).map { "  parameterNumber\($0): String" }.joined(separator: ",\n") + "\n) sheet\n"
        #expect(try format("screen S(\(params)) sheet") == expected)
        // A trailing comma is kept, never added.
        #expect(try format("screen S(a: Int,)") == "screen S(a: Int,)\n")
    }

    @Test func trailingWhitespaceGoesEvenInComments() throws {
        #expect(try format("screen A   // note  \t\n") == "screen A // note\n")
    }

    @Test func blankLinesAreKeptAtMostOne() throws {
        #expect(try format("\n\nscreen A\n\n\n\nscreen B\n\n\n") == "screen A\n\nscreen B\n")
        // Not after `{` nor before `}`.
        #expect(try format("screen A\nroot {\n\n  screen A\n\n}\n") == "screen A\nroot {\n  screen A\n}\n")
    }

    @Test func lineEndsFollowTheFirstLine() throws {
        #expect(try format("screen A\r\nscreen B\nscreen C\r\n") == "screen A\r\nscreen B\r\nscreen C\r\n")
        #expect(try format("screen A\nscreen B\r\n") == "screen A\nscreen B\n")
        // A lone carriage return ends a line too; the text gets `\n`.
        #expect(try format("screen A\rscreen B") == "screen A\nscreen B\n")
    }

    @Test func commentsStayOnTheirLines() throws {
        let text = "screen A // a\n// own\nroot { // b\n  screen A\n  // before }\n}\n"
        #expect(try format(text) == text)
        // A comment inside what would be one line breaks it.
        #expect(try format("dependency a: A\ndependency b: B\nscreen S\nroot {\n  screen S uses a, // why\n  b\n}\n")
                == "dependency a: A\ndependency b: B\nscreen S\nroot {\n  screen S uses a, // why\n    b\n}\n")
    }

    @Test func suppressedLinesKeepTheirTokens() throws {
        // The two declarations on the line of a trailing suppression stay on one line.
        let text = "flag a flag b // routes:ignore unused-declaration\n"
        #expect(try format(text) == text)
        // The line below an own-line suppression is not joined to the line above it.
        let uses = "dependency a: A\ndependency b: B\nscreen S\nroot {\n  screen S uses a,\n  // routes:ignore missing-dependency\n  b\n}\n"
        #expect(try format(uses) == "dependency a: A\ndependency b: B\nscreen S\nroot {\n  screen S uses a,\n    // routes:ignore missing-dependency\n    b\n}\n")
        // A blank line a suppression applies to stays blank.
        let blank = "screen A\nroot {\n  screen A\n  // routes:ignore x\n\n}\n"
        #expect(try format(blank) == blank)
    }

    @Test func invalidUTF8IsRefused() {
        let tree = SyntaxTree.parse(SourceText(bytes: Array("screen A // \u{FF}".utf8) + [0xFF]))
        #expect(throws: FormatRefusal.self) { try Formatter.format(tree) }
        do {
            _ = try Formatter.format(tree)
        } catch {
            #expect(error.reason == .invalidUTF8)
        }
    }

    @Test func linesWithSyntaxErrorsStayAsWritten() throws {
        let text = "screen   A\n  flag  f = true   \nscreen   B\nroot {  screen A  \n"
        let out = try format(text)
        #expect(out == "screen A\n  flag  f = true   \nscreen B\nroot {  screen A  \n")
    }

    @Test func aDeclarationSharingALineWithAnErrorStaysToo() throws {
        #expect(try format("screen   A ; screen   B\nscreen   C\n") == "screen   A ; screen   B\nscreen C\n")
    }

    @Test func theCheckCatchesAChangeOfMeaning() {
        let original = SyntaxTree.parse(SourceText("screen A\nroot { screen A }\n"))
        #expect(FormatCheck.difference(original, SyntaxTree.parse(SourceText("screen A\n\nroot {\n  screen A\n}\n"))) == nil)
        // Each difference says where it is in the original: the token `A` of `root`'s block,
        // the name `root` that a comment would take the place of.
        #expect(FormatCheck.difference(original, SyntaxTree.parse(SourceText("screen A\nroot { screen B }\n")))?.offset == 23)
        #expect(FormatCheck.difference(original, SyntaxTree.parse(SourceText("screen A // x\nroot { screen A }\n")))?.offset == 9)
        // A suppression comment that would apply to another line.
        let suppressed = SyntaxTree.parse(SourceText("flag a flag b // routes:ignore unused-declaration\n"))
        #expect(FormatCheck.difference(suppressed, SyntaxTree.parse(SourceText("flag a\nflag b // routes:ignore unused-declaration\n"))) != nil)
        // Layout that makes the parser recover differently.
        let erroneous = SyntaxTree.parse(SourceText("root {\n  anyOf {\n    screen A\nscreen B\n"))
        #expect(FormatCheck.difference(erroneous, SyntaxTree.parse(SourceText("root {\n  anyOf {\n    screen A\n    screen B\n"))) != nil)
    }

    /// A refusal names the line and column where the reading would change, in words a user
    /// knows, not the parser's node numbers.
    @Test func aRefusalSaysWhereTheReadingWouldChange() throws {
        let text = """
            builder b { screen Home
              as
              sheet uses d // routes:ignore missing-dependency
            }
            root { anyOf { screen Home { b } // c2
            screen Transfer as
            cover(allowsPush: false) uses d, d
              screen as
            } }

            """
        do {
            _ = try Formatter.format(SyntaxTree.parse(SourceText(text)))
            Issue.record("formatted, not refused")
        } catch {
            #expect(error.reason == .changesMeaning)
            // The builder's `screen Home`, whose `as` on the next lines would be read otherwise.
            #expect(error.message.contains("would change how they are read at 1:13 ("), "\(error.message)")
            #expect(!error.message.contains("syntax node"), "\(error.message)")
        }
    }

    @Test func numbersAreLeftOutOfComparedMessages() {
        #expect(FormatCheck.withoutNumbers("the `}` at the end of line 12 closed it (3:4)") == "the `}` at the end of line # closed it (#:#)")
    }
}

/// Formatting part of a text (`textDocument/rangeFormatting`, and `onTypeFormatting`).
@Suite struct RangeFormattingTests {
    static let text = "screen   A\n\n\nscreen   B // b\n// lead\nflag   f\nroot {\nscreen A\n}\n"

    func formatted(_ range: Range<Int>) throws -> String {
        let tree = SyntaxTree.parse(SourceText(Self.text))
        return String(decoding: try Formatter.format(tree, range: range).bytes, as: UTF8.self)
    }

    func offset(_ needle: String) -> Int {
        Self.text.utf8.count - Self.text[Self.text.range(of: needle)!.lowerBound...].utf8.count
    }

    @Test func onlyTheDeclarationsInTheRangeChange() throws {
        let screenB = offset("B")
        #expect(try formatted(screenB..<screenB) == "screen   A\n\n\nscreen B // b\n// lead\nflag   f\nroot {\nscreen A\n}\n")
        // The comments above a declaration come with it; the blank lines before them stay.
        let lead = offset("lead")
        #expect(try formatted(lead..<(lead + 2)) == "screen   A\n\n\nscreen   B // b\n// lead\nflag f\nroot {\nscreen A\n}\n")
        let root = offset("root")
        #expect(try formatted(root..<(root + 8)) == "screen   A\n\n\nscreen   B // b\n// lead\nflag   f\nroot {\n  screen A\n}\n")
    }

    @Test func aRangeOverEverythingIsTheWholeFormat() throws {
        let all = try format(Self.text)
        #expect(try formatted(0..<Self.text.utf8.count) == all)
        // Formatting part of the text, then all of it, gives the whole format.
        for start in stride(from: 0, to: Self.text.utf8.count, by: 3) {
            let part = try formatted(start..<min(start + 5, Self.text.utf8.count))
            #expect(try format(part) == all)
        }
    }

    @Test func aRangeOverNoDeclarationChangesNothing() throws {
        // (A comment before a declaration comes with it: this one is after the last.)
        let text = "screen   A\n\n\n// only a comment\n\n\n"
        let tree = SyntaxTree.parse(SourceText(text))
        let at = text.utf8.count - text[text.range(of: "only")!.lowerBound...].utf8.count
        #expect(try !Formatter.format(tree, range: at..<(at + 4)).changed)
    }

    @Test func declarationsOnTheSameLineComeTogether() throws {
        let text = "screen   A screen   B\nscreen   C\n"
        let tree = SyntaxTree.parse(SourceText(text))
        let out = String(decoding: try Formatter.format(tree, range: 0..<1).bytes, as: UTF8.self)
        #expect(out == "screen A\nscreen B\nscreen   C\n")
    }
}
