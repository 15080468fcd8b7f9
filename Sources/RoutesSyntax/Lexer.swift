/// Splits source text into tokens, trivia included, and reports lexical errors (unknown
/// characters, invalid UTF-8, malformed strings) once each.
public enum Lexer {
    static let keywords: [(String, TokenKind)] = [
        ("import", .kwImport), ("screen", .kwScreen), ("dependency", .kwDependency),
        ("optional", .kwOptional), ("flag", .kwFlag), ("from", .kwFrom), ("builder", .kwBuilder),
        ("root", .kwRoot), ("uses", .kwUses), ("anyOf", .kwAnyOf), ("conditional", .kwConditional),
        ("else", .kwElse), ("if", .kwIf), ("let", .kwLet), ("wildcard", .kwWildcard),
        ("empty", .kwEmpty), ("push", .kwPush), ("sheet", .kwSheet), ("true", .kwTrue),
        ("false", .kwFalse),
    ]

    /// The spelling of each keyword kind.
    public static let keywordText: [TokenKind: String] = {
        var spellings: [TokenKind: String] = [:]
        for (text, kind) in keywords { spellings[kind] = text }
        return spellings
    }()

    /// The keyword kind of a spelling, if it is one.
    public static func keyword(_ text: String) -> TokenKind? {
        keywordTable[text]
    }
    static let keywordTable: [String: TokenKind] = {
        var kinds: [String: TokenKind] = [:]
        for (text, kind) in keywords { kinds[text] = kind }
        return kinds
    }()

    /// Whether the `word.utf8CodeUnitCount` bytes at `start` spell `word`.
    @inline(__always)
    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ word: StaticString) -> Bool {
        let letters = word.utf8Start
        for offset in 1..<word.utf8CodeUnitCount where bytes[start + offset] != letters[offset] { return false }
        return true
    }

    /// The keyword an identifier-shaped run of `length` bytes at `start` spells, if any: by its
    /// length and first byte, then its other bytes (no String, no table: every identifier of
    /// every file asks).
    @inline(__always)
    static func keywordKind(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> TokenKind? {
        switch (length, bytes[start]) {
        case (2, UInt8(ascii: "i")): return spells(bytes, start, "if") ? .kwIf : nil
        case (3, UInt8(ascii: "l")): return spells(bytes, start, "let") ? .kwLet : nil
        case (4, UInt8(ascii: "f")):
            return spells(bytes, start, "flag") ? .kwFlag : spells(bytes, start, "from") ? .kwFrom : nil
        case (4, UInt8(ascii: "r")): return spells(bytes, start, "root") ? .kwRoot : nil
        case (4, UInt8(ascii: "u")): return spells(bytes, start, "uses") ? .kwUses : nil
        case (4, UInt8(ascii: "e")): return spells(bytes, start, "else") ? .kwElse : nil
        case (4, UInt8(ascii: "p")): return spells(bytes, start, "push") ? .kwPush : nil
        case (4, UInt8(ascii: "t")): return spells(bytes, start, "true") ? .kwTrue : nil
        case (5, UInt8(ascii: "a")): return spells(bytes, start, "anyOf") ? .kwAnyOf : nil
        case (5, UInt8(ascii: "e")): return spells(bytes, start, "empty") ? .kwEmpty : nil
        case (5, UInt8(ascii: "s")): return spells(bytes, start, "sheet") ? .kwSheet : nil
        case (5, UInt8(ascii: "f")): return spells(bytes, start, "false") ? .kwFalse : nil
        case (6, UInt8(ascii: "i")): return spells(bytes, start, "import") ? .kwImport : nil
        case (6, UInt8(ascii: "s")): return spells(bytes, start, "screen") ? .kwScreen : nil
        case (7, UInt8(ascii: "b")): return spells(bytes, start, "builder") ? .kwBuilder : nil
        case (8, UInt8(ascii: "o")): return spells(bytes, start, "optional") ? .kwOptional : nil
        case (8, UInt8(ascii: "w")): return spells(bytes, start, "wildcard") ? .kwWildcard : nil
        case (10, UInt8(ascii: "d")): return spells(bytes, start, "dependency") ? .kwDependency : nil
        case (11, UInt8(ascii: "c")): return spells(bytes, start, "conditional") ? .kwConditional : nil
        default: return nil
        }
    }

    /// Unexpected characters as a message shows them: a character that shows nothing (a
    /// control, format or separator character, or one not assigned) as its escape in the
    /// language's strings, `\u{B}`.
    static func visible(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .unassigned, .privateUse, .surrogate:
                shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    @inline(__always) static func isIdentStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
    }
    @inline(__always) static func isIdentContinue(_ byte: UInt8) -> Bool {
        isIdentStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Tokenizes the whole text. The result always ends with one `eof` token.
    public static func tokenize(_ source: SourceText, file: FileID = 0) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        let lexed = tokenize(source, file: file, readingLinkLines: false)
        return (lexed.tokens, lexed.diagnostics)
    }

    /// Tokenizes the whole text; with `readingLinkLines`, each `link` declaration that
    /// `LinkLine` reads (from the start of its line) is one `linkLine` token, and `linkLines`
    /// counts them.
    /// `linkLineParts` holds the parts of each of them as it was read (see
    /// `LinkLine.replay(_:from:lineStart:_:)`), for the model to take without reading the
    /// line again.
    static func tokenize(_ source: SourceText, file: FileID, readingLinkLines: Bool)
        -> (tokens: [Token], diagnostics: [Diagnostic], linkLines: Int, linkLineParts: [Int32]) {
        source.bytes.withUnsafeBufferPointer { bytes in
            var cursor = Cursor(bytes: bytes, file: file, invalidUTF8: source.invalidUTF8)
            cursor.readsLinkLines = readingLinkLines
            cursor.byteOrderMark()
            while cursor.position < bytes.count { cursor.nextToken() }
            let linkLines = cursor.linkLines
            let parts = cursor.linkLineParts.parts
            let (tokens, diagnostics) = cursor.finish()
            return (tokens, diagnostics, linkLines, parts)
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// The braces and hex digits of a `\u{…}` escape, from its `{` at `brace` to at most `end`:
    /// the digits' value, whether 1 to 8 of them stand between the braces, and where the escape
    /// ends (after its `}` when they do, else where the digits stop; a ninth digit is read).
    @inline(__always)
    static func unicodeEscape<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, brace: Int, end: Int)
        -> (value: UInt32, wellFormed: Bool, end: Int) where Bytes.Index == Int {
        var position = brace + 1
        var value: UInt32 = 0
        var digits = 0
        while position < end, let digit = hexValue(bytes[position]), digits < 9 {
            value = value &* 16 &+ UInt32(digit)
            digits += 1
            position += 1
        }
        guard position < end && bytes[position] == 0x7D && digits >= 1 && digits <= 8 else {
            return (value, false, position)
        }
        return (value, true, position + 1)
    }

    /// Whether the unknown token `token` is a string written in quotes the language does not
    /// use (curly ones, `“…”`, or single ones, `'…'`), reported by the lexer with the string
    /// in straight double quotes as its repair.
    public static func isMisquotedString(_ bytes: [UInt8], _ token: Token) -> Bool {
        isCurlyQuote(bytes, at: token.start)
            || (token.length >= 2 && token.start < bytes.count && bytes[token.start] == 0x27 && bytes[token.end - 1] == 0x27)
    }

    /// Whether a curly double quote (`“` or `”`, U+201C or U+201D) starts at `offset`.
    @inlinable
    public static func isCurlyQuote<Bytes: RandomAccessCollection>(_ bytes: Bytes, at offset: Int) -> Bool
    where Bytes.Element == UInt8, Bytes.Index == Int {
        offset >= bytes.startIndex && offset + 2 < bytes.endIndex && bytes[offset] == 0xE2 && bytes[offset + 1] == 0x80
            && (bytes[offset + 2] == 0x9C || bytes[offset + 2] == 0x9D)
    }

    /// For each byte of `stringValue(text)`, where in `text` the character that gave it is
    /// written (a byte, or a whole escape: `\u{E9}` gives two bytes, both from its six
    /// characters). Offsets in `text`, whose first byte is the opening quote.
    public static func stringValueSources(_ text: Substring.UTF8View) -> [Range<Int>] {
        let bytes = Array(text)
        guard bytes.first == 0x22 else { return bytes.indices.map { $0..<($0 + 1) } }
        var out: [Range<Int>] = []
        out.reserveCapacity(bytes.count)
        forEachStringStep(bytes) { source, value in
            switch value {
            case .byte: out.append(source)
            case .scalar(let scalar): for _ in 0..<UTF8.width(scalar) { out.append(source) }
            }
        }
        return out
    }

    /// The value of a string token's text (quotes included), with escapes decoded. Malformed
    /// escapes are kept as written; a missing closing quote is tolerated.
    public static func stringValue(_ text: Substring.UTF8View) -> String {
        let bytes = Array(text)
        guard bytes.first == 0x22 else { return String(decoding: bytes, as: UTF8.self) }
        let end = bytes.count >= 2 && bytes.last == 0x22 ? bytes.count - 1 : bytes.count
        // (Most strings have no escape: their value is their bytes.)
        if !bytes[1..<max(end, 1)].contains(0x5C) { return String(decoding: bytes[1..<max(end, 1)], as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        forEachStringStep(bytes) { _, value in
            switch value {
            case .byte(let byte): out.append(byte)
            case .scalar(let scalar): UTF8.encode(scalar) { out.append($0) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// What one step of a string's text gives its value.
    enum StringStep {
        /// A byte as written, or the byte of `\"`, `\\`, `\n`, `\t`.
        case byte(UInt8)
        /// The scalar of a well-formed `\u{…}`.
        case scalar(Unicode.Scalar)
    }

    /// The steps of a string token's text (`bytes`, the opening quote first; the closing
    /// one, if any, left out) as its value is read: each byte or escape where it is written,
    /// and what it gives. A malformed escape gives its bytes as written.
    static func forEachStringStep(_ bytes: [UInt8], _ body: (Range<Int>, StringStep) -> Void) {
        var position = 1
        let end = bytes.count >= 2 && bytes.last == 0x22 ? bytes.count - 1 : bytes.count
        while position < end {
            if bytes[position] == 0x5C && position + 1 < end {
                let escaped: UInt8?
                switch bytes[position + 1] {
                case 0x22: escaped = 0x22
                case 0x5C: escaped = 0x5C
                case 0x6E: escaped = 0x0A
                case 0x74: escaped = 0x09
                default: escaped = nil
                }
                if let escaped {
                    body(position..<(position + 2), .byte(escaped))
                    position += 2
                    continue
                }
                if bytes[position + 1] == 0x75 && position + 2 < end && bytes[position + 2] == 0x7B {
                    let escape = unicodeEscape(bytes, brace: position + 2, end: end)
                    if escape.wellFormed, let scalar = Unicode.Scalar(escape.value) {
                        body(position..<escape.end, .scalar(scalar))
                        position = escape.end
                        continue
                    }
                }
            }
            body(position..<(position + 1), .byte(bytes[position]))
            position += 1
        }
    }
}

extension Lexer {
    /// One tokenization: where it is in the text, and the tokens and errors found so far. Each
    /// family of tokens has a step of its own, which starts at `position` and leaves it after
    /// the token it pushed.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: FileID
        /// The runs of invalid UTF-8 (each reported once, up front), and the first of them that
        /// does not end before the position last asked about.
        let invalidUTF8: [Range<Int>]
        var nextInvalid = 0
        var position = 0
        /// Whether a line break came after the last token that is not trivia (the first token
        /// starts a line).
        var sawNewline = true
        var tokens: [Token] = []
        var diagnostics: [Diagnostic] = []
        /// Whether a `link` line in the plain form is one token, and how many were.
        var readsLinkLines = false
        var linkLines = 0
        /// The parts of the `linkLine` tokens so far.
        var linkLineParts = LinkLine.Recording()

        init(bytes: UnsafeBufferPointer<UInt8>, file: FileID, invalidUTF8: [Range<Int>]) {
            self.bytes = bytes
            self.file = file
            self.invalidUTF8 = invalidUTF8
            tokens.reserveCapacity(bytes.count / 3 + 8)
            for range in invalidUTF8 {
                diagnostics.append(SyntaxError.diagnostic(file: file, range: range, message: "invalid UTF-8 (read as U+FFFD)"))
            }
        }

        /// The tokens, ended by the `eof` token, and the errors.
        mutating func finish() -> (tokens: [Token], diagnostics: [Diagnostic]) {
            tokens.append(Token(kind: .eof, startsLine: sawNewline, isMalformed: false,
                                offset: UInt32(truncatingIfNeeded: bytes.count), length: 0))
            return (tokens, diagnostics)
        }

        /// Adds the token from `start` to the position.
        @inline(__always)
        mutating func push(_ kind: TokenKind, from start: Int, malformed: Bool = false) {
            let startsLine = kind.isSkipped ? false : sawNewline
            if !kind.isTrivia { sawNewline = false }
            tokens.append(Token(kind: kind, startsLine: startsLine, isMalformed: malformed,
                                offset: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: position - start)))
        }

        mutating func report(_ range: Range<Int>, _ message: String, repair: SyntaxError.Repair? = nil) {
            diagnostics.append(SyntaxError.diagnostic(file: file, range: range, message: message, repair: repair))
        }

        /// Whether a run of invalid UTF-8 starts at `offset` (asked in increasing order).
        mutating func isInvalid(at offset: Int) -> Bool {
            while nextInvalid < invalidUTF8.count && invalidUTF8[nextInvalid].upperBound <= offset { nextInvalid += 1 }
            return nextInvalid < invalidUTF8.count && invalidUTF8[nextInvalid].lowerBound == offset
        }

        /// Whether the byte after `offset` is `byte`.
        @inline(__always)
        func next(_ offset: Int, is byte: UInt8) -> Bool {
            offset + 1 < bytes.count && bytes[offset + 1] == byte
        }

        /// Whether the text starts with a byte-order mark (read as one).
        var hasByteOrderMark: Bool {
            bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF && !invalidUTF8.contains { $0.lowerBound == 0 }
        }

        /// The byte-order mark, when the text starts with one.
        mutating func byteOrderMark() {
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF && !isInvalid(at: 0) {
                position = 3
                push(.byteOrderMark, from: 0)
            }
        }

        /// The token at the position, by its first byte.
        @inline(__always)
        mutating func nextToken() {
            let start = position
            let byte = bytes[start]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: whitespace()
            case 0x2F: slashOrComment()  // '/'
            case 0x22: string()  // '"'
            case 0x7B: punctuation(.lBrace)
            case 0x7D: punctuation(.rBrace)
            case 0x28: punctuation(.lParen)
            case 0x29: punctuation(.rParen)
            case 0x5B: punctuation(.lBracket)
            case 0x5D: punctuation(.rBracket)
            case 0x2C: punctuation(.comma)
            case 0x3A: punctuation(.colon)
            case 0x2E: punctuation(.dot)
            case 0x3F: punctuation(.question)
            case 0x3C: punctuation(.lAngle)
            case 0x3E: punctuation(.rAngle)
            case 0x26: punctuation(.ampersand)
            case 0x2D where next(start, is: 0x3E): punctuation(.arrow, length: 2)
            case 0x40 where start + 1 < bytes.count && isIdentStart(bytes[start + 1]): attribute()
            default:
                if isIdentStart(byte) {
                    if readsLinkLines && byte == UInt8(ascii: "l") && LinkLine.mayStart(bytes, at: start) && linkLineMayFollow() {
                        let mark = linkLineParts.begin(lineStart: start, size: bytes.count)
                        if let end = LinkLine.read(bytes, from: start, &linkLineParts) {
                            linkLineParts.end()
                            position = end
                            push(.linkLine, from: start)
                            linkLines += 1
                            return
                        }
                        // (What a line turned down told is let go.)
                        linkLineParts.discard(from: mark)
                    }
                    identifierOrKeyword()
                } else if isDigit(byte) || (byte == 0x2D && start + 1 < bytes.count && isDigit(bytes[start + 1])) {
                    number()
                } else if isInvalid(at: start) {
                    invalidUTF8Run()
                } else if byte == 0x23 && (start == 0 || [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start - 1]) || start == 3 && hasByteOrderMark) {
                    hashComment()
                } else if let close = curlyQuoteClose(at: start) {
                    curlyQuotedString(closingAt: close)
                } else if byte == 0x27, let close = singleQuoteClose(at: start) {
                    singleQuotedString(closingAt: close)
                } else if byte >= 0x80 && isNameScalar(at: start) {
                    nonASCIIName(from: start)
                } else if byte >= 0x80 && isSpaceScalar(at: start) {
                    spaces()
                } else {
                    unexpectedCharacters()
                }
            }
        }

        /// Whether the last token the parser will see ends whatever it belongs to, so that
        /// the parser reads a `link` line after it as a declaration of its own in any case:
        /// after a word that a type may follow (`any`, `inout`, …), the parser would read
        /// `link` as that type, and then report what follows it.
        func linkLineMayFollow() -> Bool {
            var index = tokens.count - 1
            while index >= 0 && tokens[index].kind.isSkipped { index -= 1 }
            guard index >= 0 else { return true }
            let token = tokens[index]
            switch token.kind {
            case .rBrace, .rParen, .rBracket, .rAngle, .question, .string, .number, .kwTrue, .kwFalse, .linkLine:
                return true
            case .identifier:
                let word = UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
                return !LinkLine.continuingWords.contains { $0.elementsEqual(word) }
            default:
                return false
            }
        }

        /// Spaces, tabs and line breaks, as one token.
        @inline(__always)
        mutating func whitespace() {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x0A || byte == 0x0D { sawNewline = true } else if byte != 0x20 && byte != 0x09 { break }
                position += 1
            }
            push(.whitespace, from: start)
        }

        /// `//` to the end of the line (`///`, but not `////`, is a doc comment), or a `/`.
        @inline(__always)
        mutating func slashOrComment() {
            let start = position
            if next(start, is: 0x2A) {
                blockComment()
                return
            }
            guard next(start, is: 0x2F) else {
                punctuation(.slash)
                return
            }
            let isDoc = next(start + 1, is: 0x2F) && !next(start + 2, is: 0x2F)
            while position < bytes.count && bytes[position] != 0x0A && bytes[position] != 0x0D { position += 1 }
            push(isDoc ? .docComment : .lineComment, from: start)
        }

        /// `/* … */`, which the language does not have (a Swift habit): one error, and the
        /// comment through the first `*/` after it (over lines, not nested, wherever that `*/`
        /// is, as Swift reads it) is skipped as one run of unknown characters, so that nothing
        /// in it is read. With no `*/` in the rest of the file, to the end of the line.
        /// A line break inside it makes what follows start a line, as after a comment.
        mutating func blockComment() {
            let start = position
            let lineStart = sawNewline
            position += 2
            var closed = false
            var end = start + 2
            while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
            var index = start + 2
            var brokeLine = false
            while index + 1 < bytes.count {
                if bytes[index] == 0x2A && bytes[index + 1] == 0x2F {
                    closed = true
                    break
                }
                if bytes[index] == 0x0A || bytes[index] == 0x0D { brokeLine = true }
                index += 1
            }
            position = closed ? index + 2 : end
            if !closed { brokeLine = false }
            push(.unknown, from: start)
            sawNewline = lineStart || brokeLine
            report(start..<position, closed
                   ? "there are no block comments: comment each line with `//`"
                   : "there are no block comments, and this one is not closed: comment each line with `//`")
        }

        @inline(__always)
        mutating func punctuation(_ kind: TokenKind, length: Int = 1) {
            let start = position
            position += length
            push(kind, from: start)
        }

        /// `@` and a name.
        @inline(__always)
        mutating func attribute() {
            let start = position
            position += 2
            while position < bytes.count && isIdentContinue(bytes[position]) { position += 1 }
            push(.attribute, from: start)
        }

        @inline(__always)
        mutating func identifierOrKeyword() {
            let start = position
            position += 1
            while position < bytes.count && isIdentContinue(bytes[position]) { position += 1 }
            if position < bytes.count && bytes[position] >= 0x80 && isNameScalar(at: position) {
                nonASCIIName(from: start)
                return
            }
            push(keywordKind(bytes, start, position - start) ?? .identifier, from: start)
        }

        /// Whether a valid, non-ASCII scalar that a name in another language may hold (a
        /// letter, a combining mark, a digit) starts at `offset`.
        mutating func isNameScalar(at offset: Int) -> Bool {
            if isInvalid(at: offset) { return false }
            guard let scalar = scalar(at: offset) else { return false }
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber:
                return true
            default:
                return false
            }
        }

        /// The scalar at `offset` (valid UTF-8 of more than one byte), nil past the text.
        func scalar(at offset: Int) -> Unicode.Scalar? {
            let length = SourceText.sequenceLength(bytes[offset])
            guard length > 1, offset + length <= bytes.count else { return nil }
            var value = UInt32(bytes[offset]) & (0xFF >> (length + 1))
            for i in 1..<length { value = value << 6 | UInt32(bytes[offset + i] & 0x3F) }
            return Unicode.Scalar(value)
        }

        /// Whether a space that is not ASCII (a no-break space, a thin space, an ideographic
        /// space: what text pasted from a web page or a document brings) starts at `offset`.
        mutating func isSpaceScalar(at offset: Int) -> Bool {
            if isInvalid(at: offset) { return false }
            return scalar(at: offset)?.properties.generalCategory == .spaceSeparator
        }

        /// A run of spaces that are not ASCII: one error, whose repair writes plain spaces.
        /// It separates what stands around it, as a space does (`screen\u{A0}Home` is still
        /// `screen Home`).
        @inline(never)
        mutating func spaces() {
            let start = position
            var count = 0
            while position < bytes.count && bytes[position] >= 0x80 && isSpaceScalar(at: position) {
                position += SourceText.sequenceLength(bytes[position])
                count += 1
            }
            push(.unknown, from: start)
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            let message = count > 1 ? "are not plain spaces: write plain spaces" : "is not a plain space: write a plain space"
            report(start..<position, "`\(Lexer.visible(text))` \(message)",
                   repair: .replaceWithKeyword(String(repeating: " ", count: count)))
        }

        /// A word of letters, some of them not ASCII (`Détail`, `Über`): one name, which
        /// is what the writer meant, with one error at its first non-ASCII letters. Read
        /// whole, the same word written twice names one thing, and no part of it (`D`,
        /// `tail`) is taken for a name of its own.
        @inline(never)
        mutating func nonASCIIName(from start: Int) {
            var firstRun: Range<Int>? = nil
            var runStart = -1
            while position < bytes.count {
                let byte = bytes[position]
                if byte < 0x80 {
                    guard isIdentContinue(byte) else { break }
                    if runStart >= 0 && firstRun == nil { firstRun = runStart..<position }
                    runStart = -1
                    position += 1
                } else {
                    guard isNameScalar(at: position) else { break }
                    if runStart < 0 { runStart = position }
                    position += SourceText.sequenceLength(byte)
                }
            }
            position = min(position, bytes.count)
            if runStart >= 0 && firstRun == nil { firstRun = runStart..<position }
            // (Malformed: the parser says nothing more at it; see `Parser.report`.)
            push(.identifier, from: start, malformed: true)
            let run = firstRun ?? start..<position
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[run]), as: UTF8.self)
            let plural = text.unicodeScalars.count > 1
            report(run, "unexpected character\(plural ? "s" : "") `\(Lexer.visible(text))` (names are ASCII: letters, digits and `_`)")
        }

        /// Digits, maybe after a `-`, maybe with a fraction.
        @inline(__always)
        mutating func number() {
            let start = position
            position += 1
            while position < bytes.count && isDigit(bytes[position]) { position += 1 }
            if position + 1 < bytes.count && bytes[position] == 0x2E && isDigit(bytes[position + 1]) {
                position += 1
                while position < bytes.count && isDigit(bytes[position]) { position += 1 }
            }
            push(.number, from: start)
        }

        /// A string literal on one line. Each malformed escape is reported, and a string
        /// without its closing quote; either makes the token malformed.
        mutating func string() {
            let start = position
            position += 1
            var malformed = false
            var closed = false
            scan: while position < bytes.count {
                switch bytes[position] {
                case 0x22:
                    position += 1
                    closed = true
                    break scan
                case 0x0A, 0x0D:
                    break scan
                case 0x5C:  // backslash
                    switch escape() {
                    case .valid: break
                    case .malformed: malformed = true
                    case .unfinished:
                        malformed = true
                        break scan
                    }
                default:
                    position += 1
                }
            }
            if !closed {
                malformed = true
                report(start..<position, "unterminated string literal: add the closing `\"`")
            }
            push(.string, from: start, malformed: malformed)
        }

        enum Escape {
            case valid
            case malformed
            /// A backslash at the end of the line: the string ends there.
            case unfinished
        }

        /// The escape sequence at the backslash at the position, reported when it is malformed.
        mutating func escape() -> Escape {
            let start = position
            position += 1
            guard position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D else {
                report(start..<position, "incomplete escape sequence")
                return .unfinished
            }
            let letter = bytes[position]
            switch letter {
            case 0x22, 0x5C, 0x6E, 0x74:  // " \ n t
                position += 1
                return .valid
            case 0x75:  // u
                return unicodeEscape(from: start)
            default:
                position = min(bytes.count, position + SourceText.sequenceLength(letter))
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                report(start..<position, "invalid escape sequence `\(text)` (valid: \\\" \\\\ \\n \\t \\u{XXXX})")
                return .malformed
            }
        }

        /// `\u{XXXX}`, from its backslash at `start` (the position is at its `u`).
        mutating func unicodeEscape(from start: Int) -> Escape {
            position += 1
            if position < bytes.count && bytes[position] == 0x7B {
                let escape = Lexer.unicodeEscape(bytes, brace: position, end: bytes.count)
                position = escape.end
                if escape.wellFormed {
                    let value = escape.value
                    if value <= 0x10FFFF && !(0xD800...0xDFFF).contains(value) { return .valid }
                    report(start..<position, "`\\u{\(String(value, radix: 16, uppercase: true))}` is not a Unicode scalar")
                    return .malformed
                }
            }
            report(start..<position, "invalid unicode escape: write `\\u{XXXX}` with 1 to 8 hex digits")
            return .malformed
        }

        /// A run of invalid UTF-8 (already reported), with the name characters glued after it
        /// when it is glued to a name.
        mutating func invalidUTF8Run() {
            let start = position
            position = invalidUTF8[nextInvalid].upperBound
            if start > 0 && isIdentContinue(bytes[start - 1]) {
                while position < bytes.count && isIdentContinue(bytes[position]) { position += 1 }
            }
            push(.unknown, from: start)
        }

        /// `#` after a blank or at the start of a line, to the end of the line: a comment
        /// written as in a shell or Python. One error, whose repair writes `//`, and the line's
        /// rest is skipped as one run of unknown characters, so that its words are not read.
        mutating func hashComment() {
            let start = position
            while position < bytes.count && bytes[position] != 0x0A && bytes[position] != 0x0D { position += 1 }
            push(.unknown, from: start)
            report(start..<(start + 1), "`#` does not start a comment: comments start with `//`", repair: .replaceWithKeyword("//"))
        }

        /// Where a string in curly quotes (`“Shared.routes”`, as word processors and chat apps
        /// write them) that starts at `offset` ends: after its closing curly quote on the same
        /// line; nil when `offset` holds no opening curly quote or the line has no closing one.
        func curlyQuoteClose(at offset: Int) -> Int? {
            guard Lexer.isCurlyQuote(bytes, at: offset) else { return nil }
            var i = offset + 3
            while i < bytes.count && bytes[i] != 0x0A && bytes[i] != 0x0D && bytes[i] != 0x22 {
                if Lexer.isCurlyQuote(bytes, at: i) { return i + 3 }
                i += 1
            }
            return nil
        }

        /// A string in curly quotes, through its closing one (see `curlyQuoteClose(at:)`): one
        /// error, whose repair writes the string with straight quotes; skipped as one run of
        /// unknown characters (the parser says nothing more about what stood there).
        mutating func curlyQuotedString(closingAt end: Int) {
            misquotedString(closingAt: end, quoteLength: 3, "a string is written with straight quotes `\"`, not curly ones")
        }

        /// A string in quotes of `quoteLength` bytes that the language does not use, through
        /// its closing one: one error (`message`, then the string in straight double quotes),
        /// whose repair writes it so; skipped as one run of unknown characters.
        mutating func misquotedString(closingAt end: Int, quoteLength: Int, _ message: String) {
            let start = position
            position = end
            push(.unknown, from: start)
            let inner = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + quoteLength)..<(end - quoteLength)]), as: UTF8.self)
            let straight = "\"" + inner + "\""
            report(start..<end, "\(message): `\(straight)`", repair: .replaceWithKeyword(straight))
        }

        /// Where a string in single quotes (`'Shared.routes'`, as in Python or JavaScript)
        /// that starts at `offset` ends: after the next `'` on the same line, with no `"`
        /// between; nil when there is none.
        func singleQuoteClose(at offset: Int) -> Int? {
            var i = offset + 1
            while i < bytes.count && bytes[i] != 0x0A && bytes[i] != 0x0D && bytes[i] != 0x22 {
                if bytes[i] == 0x27 { return i + 1 }
                i += 1
            }
            return nil
        }

        /// A string in single quotes, through its closing one: one error, whose repair writes
        /// it in double quotes; skipped as one run of unknown characters, as a string in
        /// curly quotes is.
        mutating func singleQuotedString(closingAt end: Int) {
            misquotedString(closingAt: end, quoteLength: 1, "a string is written in double quotes `\"`, not single ones")
        }

        /// A run of characters that start no token: one error.
        mutating func unexpectedCharacters() {
            let start = position
            while position < bytes.count {
                let byte = bytes[position]
                if byte < 0x80 {
                    if startsToken(byte, at: position) { break }
                } else if isInvalid(at: position) {
                    break
                }
                position += SourceText.sequenceLength(byte)
            }
            position = min(position, bytes.count)
            let end = position
            // Identifier characters glued to the run (`Café…`) are skipped with it rather than
            // read as a second, surprising token.
            let gluedToName = start > 0 && isIdentContinue(bytes[start - 1]) && bytes[start] >= 0x80
            // Before a name (`éA`), the name is read: the ASCII part of a name is the name.
            let beforeName = bytes[start] >= 0x80 && end < bytes.count && isIdentContinue(bytes[end])
            if gluedToName {
                while position < bytes.count && isIdentContinue(bytes[position]) { position += 1 }
            }
            push(.unknown, from: start)
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            let plural = text.unicodeScalars.count > 1
            var message = "unexpected character\(plural ? "s" : "") `\(Lexer.visible(text))`"
            if gluedToName || beforeName {
                message += " (names are ASCII: letters, digits and `_`)"
            }
            if text == ";" && endsStatement(after: end) {
                // `import "Shared.routes";`, `screen Home; screen Cart`, as in Swift or C (not
                // where it stands for a `,`: `(id: String; n: Int)`).
                report(start..<end, "no `;` is needed here: a declaration or a builder ends without one", repair: .remove)
                return
            }
            if text == ";" && closesOrOpens(after: end) {
                // `uses store; {`, `(id: String;)`: nothing to separate.
                report(start..<end, "no `;` is needed here", repair: .remove)
                return
            }
            report(start..<end, message)
        }

        /// Whether what follows `offset` on its line, past blanks, is what may follow the end
        /// of a declaration or a builder: nothing, a comment, a `}`, a word that starts one,
        /// or `else`.
        func endsStatement(after offset: Int) -> Bool {
            let i = pastBlanks(offset)
            guard i < bytes.count, bytes[i] != 0x0A, bytes[i] != 0x0D, bytes[i] != UInt8(ascii: "}") else { return true }
            if bytes[i] == 0x2F && i + 1 < bytes.count && bytes[i + 1] == 0x2F { return true }
            var j = i
            while j < bytes.count && isIdentContinue(bytes[j]) { j += 1 }
            let word = UnsafeBufferPointer(rebasing: bytes[i..<j])
            return ["import", "screen", "dependency", "optional", "flag", "builder", "root", "link",
                    "anyOf", "conditional", "if", "wildcard", "empty", "else"].contains { word.elementsEqual($0.utf8) }
        }

        /// The offset of what follows `offset` past spaces and tabs.
        func pastBlanks(_ offset: Int) -> Int {
            var i = offset
            while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
            return i
        }

        /// Whether what follows `offset` on its line, past blanks, is a `{`, a `)` or a `]`.
        func closesOrOpens(after offset: Int) -> Bool {
            let i = pastBlanks(offset)
            return i < bytes.count && (bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: ")") || bytes[i] == UInt8(ascii: "]"))
        }

        /// Whether the ASCII `byte` at `offset` starts a token (and so ends a run of unexpected
        /// characters).
        func startsToken(_ byte: UInt8, at offset: Int) -> Bool {
            isIdentStart(byte) || isDigit(byte) || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                || byte == 0x22 || byte == 0x2F || "{}()[],:.?<>&".utf8.contains(byte)
                || (byte == 0x2D && offset + 1 < bytes.count && (isDigit(bytes[offset + 1]) || bytes[offset + 1] == 0x3E))
                || (byte == 0x40 && offset + 1 < bytes.count && isIdentStart(bytes[offset + 1]))
        }
    }
}
