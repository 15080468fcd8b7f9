import Testing
import TestSupport
@testable import RoutesSyntax

@Suite struct SourceTextTests {
    /// The start of the line holding each offset, looked up back from it, is the start the
    /// line index gives: texts of LF, CR and CR LF breaks, lines short and past the 256
    /// bytes the look back covers.
    @Test func lineStartsFoundBackwardsAreTheIndexedOnes() {
        var random = SplitMix64(seed: 0x11E5)
        let pieces: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A], Array("ab".utf8), Array(" ".utf8),
                                 Array(repeating: UInt8(ascii: "x"), count: 300), Array("é".utf8)]
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 12) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            let text = SourceText(bytes: bytes)
            for offset in 0...text.count {
                #expect(text.lineStart(containing: offset) == text.lineStarts[text.line(containing: offset)], "\(bytes) at \(offset)")
            }
        }
    }

    @Test func invalidUTF8RunsBecomeOneReplacementCharacterEach() {
        let text = SourceText(bytes: [0x61, 0xFF, 0xFE, 0x62, 0xED, 0xA0, 0x80, 0x63])
        #expect(text.string == "a\u{FFFD}b\u{FFFD}c")
        #expect(text.invalidUTF8.count == 2)
    }

    @Test func overlongAndOutOfRangeSequencesAreInvalid() {
        #expect(SourceText(bytes: [0xC0, 0xAF]).invalidUTF8.count == 1)
        #expect(SourceText(bytes: [0xF4, 0x90, 0x80, 0x80]).invalidUTF8.count == 1)
        #expect(SourceText(bytes: [0xE2, 0x82]).invalidUTF8.count == 1)  // truncated
        #expect(SourceText(bytes: Array("é😀".utf8)).invalidUTF8.isEmpty)
    }

    /// The scans read eight ASCII bytes at a time: against a byte-by-byte reference, on random
    /// texts of line breaks, ASCII, valid and invalid UTF-8 at every alignment.
    @Test func wordAtATimeScansAgreeWithAByteByByteReference() {
        var random = SplitMix64(seed: 42)
        let pieces: [[UInt8]] = [[0x61], [0x20], [0x0A], [0x0D], [0x0D, 0x0A], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80],
                                 [0xFF], [0xE2, 0x82], Array("screen Home uses store".utf8)]
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.below(40) { bytes += pieces[random.below(pieces.count)] }
            let text = SourceText(bytes: bytes)
            // Reference: decode with the standard library (one U+FFFD per maximal invalid run
            // is checked by the tests above; here, valid input must pass unchanged).
            let valid = String(validatingCString: bytes.map { CChar(bitPattern: $0) } + [0]) != nil || bytes.contains(0)
            if valid { #expect(text.bytes == bytes && text.invalidUTF8.isEmpty) }
            var starts = [0]
            var offset = 0
            while offset < text.bytes.count {
                if text.bytes[offset] == 0x0A { starts.append(offset + 1) }
                if text.bytes[offset] == 0x0D {
                    if offset + 1 < text.bytes.count && text.bytes[offset + 1] == 0x0A { offset += 1 }
                    starts.append(offset + 1)
                }
                offset += 1
            }
            #expect(text.lineStarts == starts, "\(bytes)")
            #expect(text.isASCII == text.bytes.allSatisfy { $0 < 0x80 })
        }
    }

    /// An edit of a text equals the spliced bytes read from the start: bytes, invalid runs,
    /// line starts and the ASCII flag, for edits that join or split line breaks (a CR and an
    /// LF meeting), cut characters in two, and bring invalid bytes.
    @Test func aReplacedRangeEqualsTheSplicedTextReadAgain() {
        var random = SplitMix64(seed: 7)
        let pieces: [[UInt8]] = [[0x61], [0x0A], [0x0D], [0x0D, 0x0A], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80],
                                 [0xFF], Array("screen Home".utf8)]
        func text() -> [UInt8] {
            var bytes: [UInt8] = []
            for _ in 0..<random.below(12) { bytes += pieces[random.below(pieces.count)] }
            return bytes
        }
        var fast = 0
        for _ in 0..<5000 {
            var old = SourceText(bytes: text())
            for _ in 0..<4 {
                let one = random.below(old.count + 1), other = random.below(old.count + 1)
                let range = min(one, other)..<max(one, other)
                let replacement = random.below(4) == 0 ? [] : text()
                var spliced = old.bytes
                spliced.replaceSubrange(range, with: replacement)
                let expected = SourceText(bytes: spliced)
                let edited = old.replacing(range, with: replacement)
                #expect(edited.bytes == expected.bytes && edited.invalidUTF8 == expected.invalidUTF8, "\(old.bytes) \(range) \(replacement)")
                #expect(edited.lineStarts == expected.lineStarts, "\(old.bytes) \(range) \(replacement)")
                #expect(edited.isASCII == expected.isASCII, "\(old.bytes) \(range) \(replacement)")
                if old.invalidUTF8.isEmpty && !replacement.contains(0xFF) { fast += 1 }
                old = edited
            }
        }
        #expect(fast > 5000)  // most edits took the incremental path
    }

    /// The line index (found eight bytes at a time where no byte needs a look) is the one a
    /// byte-by-byte reading gives: texts of short and long lines, several breaks in a word,
    /// breaks across words, CR, CR LF and non-ASCII bytes next to them.
    @Test func lineStartsAreThoseReadByteByByte() {
        var random = SplitMix64(seed: 0x5EED)
        let pieces: [[UInt8]] = [[0x0A], [0x0A], [0x0D], [0x0D, 0x0A], Array("a".utf8), Array("abc".utf8),
                                 Array(repeating: UInt8(ascii: "x"), count: 13), Array("é".utf8)]
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 40) { bytes += pieces[Int(random.next() % UInt64(pieces.count))] }
            var expected = [0]
            var i = 0
            while i < bytes.count {
                if bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                if bytes[i] == 0x0A || bytes[i] == 0x0D { expected.append(i + 1) }
                i += 1
            }
            let text = SourceText(bytes: bytes)
            #expect(text.lineStarts == expected, "\(bytes)")
            #expect(text.isASCII == !bytes.contains { $0 >= 0x80 })
        }
    }

    @Test func lineStartsHandleLFCRLFAndCR() {
        let text = SourceText("a\nb\r\nc\rd")
        #expect(text.lineStarts == [0, 2, 5, 7])
        #expect(text.lineText(1) == "b")
        #expect(text.lineText(3) == "d")
    }

    @Test func columnsInEachEncoding() {
        // "😀" is 4 UTF-8 bytes, 2 UTF-16 units, 1 scalar; "é" is 2, 1, 1.
        let text = SourceText("x\n😀é=y")
        let offset = 1 + 1 + 4 + 2 + 1  // the `y`
        #expect(text.position(of: offset, encoding: .utf8) == LineColumn(line: 1, column: 7))
        #expect(text.position(of: offset, encoding: .utf16) == LineColumn(line: 1, column: 4))
        #expect(text.position(of: offset, encoding: .scalars) == LineColumn(line: 1, column: 3))
        for encoding in [PositionEncoding.utf8, .utf16, .scalars] {
            let position = text.position(of: offset, encoding: encoding)
            #expect(text.offset(of: position, encoding: encoding) == offset)
        }
    }

    @Test func outOfRangePositionsAreClamped() {
        let text = SourceText("ab\ncd")
        #expect(text.offset(of: LineColumn(line: 0, column: 99), encoding: .utf16) == 2)
        #expect(text.offset(of: LineColumn(line: 9, column: 0), encoding: .utf16) == 5)
        #expect(text.offset(of: LineColumn(line: -1, column: 0), encoding: .utf16) == 0)
        // A column inside a surrogate pair lands at the start of the character.
        let emoji = SourceText("😀x")
        #expect(emoji.offset(of: LineColumn(line: 0, column: 1), encoding: .utf16) == 0)
        #expect(emoji.offset(of: LineColumn(line: 0, column: 2), encoding: .utf16) == 4)
    }

    @Test func byteOrderMarkIsTriviaAndColumnsCountIt() {
        let tree = SyntaxTree.parse(SourceText(bytes: [0xEF, 0xBB, 0xBF] + Array("screen A".utf8)))
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.tokens.first?.kind == .byteOrderMark)
    }
}

@Suite struct LexerTests {
    func kinds(_ s: String) -> [TokenKind] {
        Lexer.tokenize(SourceText(s)).tokens.map(\.kind).filter { !$0.isTrivia }
    }

    @Test func keywordsIdentifiersAndPunctuation() {
        #expect(kinds("screen Home anyOf allowsPush") == [.kwScreen, .identifier, .kwAnyOf, .identifier, .eof])
        #expect(kinds("{}()[],:.?/") == [.lBrace, .rBrace, .lParen, .rParen, .lBracket, .rBracket, .comma, .colon, .dot, .question, .slash, .eof])
        #expect(kinds("-12 3.5 7.") == [.number, .number, .number, .dot, .eof])
    }

    /// Every keyword of the language lexes as its kind, and every word one letter off (each
    /// letter changed, dropped, or one added at either end) as an identifier.
    @Test func everyKeywordAndNoNearMissIsAKeyword() {
        for (text, kind) in Lexer.keywords {
            #expect(kinds(text) == [kind, .eof], "\(text)")
            var misses = ["x" + text, text + "x", text + "_", String(text.dropFirst()), String(text.dropLast()), text.uppercased()]
            let chars = Array(text)
            for index in chars.indices {
                var changed = chars
                changed[index] = changed[index] == "z" ? "y" : "z"
                misses.append(String(changed))
            }
            for miss in misses where Lexer.keyword(miss) == nil && !miss.isEmpty {
                #expect(kinds(miss) == [.identifier, .eof], "\(miss)")
            }
        }
    }

    @Test func docCommentsAreDistinctFromComments() {
        let tokens = Lexer.tokenize(SourceText("/// doc\n// note\n//// not doc")).tokens.map(\.kind)
        #expect(tokens.filter { $0 == .docComment }.count == 1)
        #expect(tokens.filter { $0 == .lineComment }.count == 2)
    }

    @Test func stringEscapesDecode() {
        #expect(Lexer.stringValue("\"a\\\"b\\\\c\\n\\t\\u{1F600}\"".utf8[...]) == "a\"b\\c\n\t😀")
    }

    @Test func badEscapesAreReportedOnce() {
        let (_, diags) = Lexer.tokenize(SourceText("\"a\\qb\\u{110000}c\\u{zz}\""))
        #expect(diags.count == 3)
    }
}
