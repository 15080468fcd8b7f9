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
        var d: [TokenKind: String] = [:]
        for (text, kind) in keywords { d[kind] = text }
        return d
    }()

    /// The keyword kind of a spelling, if it is one.
    public static func keyword(_ text: String) -> TokenKind? {
        keywordTable[text]
    }
    static let keywordTable: [String: TokenKind] = {
        var d: [String: TokenKind] = [:]
        for (text, kind) in keywords { d[text] = kind }
        return d
    }()

    /// Whether the `word.utf8CodeUnitCount` bytes at `start` spell `word`.
    @inline(__always)
    private static func spells(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ word: StaticString) -> Bool {
        let w = word.utf8Start
        for k in 1..<word.utf8CodeUnitCount where p[start + k] != w[k] { return false }
        return true
    }

    /// The keyword an identifier-shaped run of `len` bytes at `start` spells, if any: by its
    /// length and first byte, then its other bytes (no String, no table: every identifier of
    /// every file asks).
    @inline(__always)
    static func keywordKind(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ len: Int) -> TokenKind? {
        switch (len, p[start]) {
        case (2, UInt8(ascii: "i")): return spells(p, start, "if") ? .kwIf : nil
        case (3, UInt8(ascii: "l")): return spells(p, start, "let") ? .kwLet : nil
        case (4, UInt8(ascii: "f")):
            return spells(p, start, "flag") ? .kwFlag : spells(p, start, "from") ? .kwFrom : nil
        case (4, UInt8(ascii: "r")): return spells(p, start, "root") ? .kwRoot : nil
        case (4, UInt8(ascii: "u")): return spells(p, start, "uses") ? .kwUses : nil
        case (4, UInt8(ascii: "e")): return spells(p, start, "else") ? .kwElse : nil
        case (4, UInt8(ascii: "p")): return spells(p, start, "push") ? .kwPush : nil
        case (4, UInt8(ascii: "t")): return spells(p, start, "true") ? .kwTrue : nil
        case (5, UInt8(ascii: "a")): return spells(p, start, "anyOf") ? .kwAnyOf : nil
        case (5, UInt8(ascii: "e")): return spells(p, start, "empty") ? .kwEmpty : nil
        case (5, UInt8(ascii: "s")): return spells(p, start, "sheet") ? .kwSheet : nil
        case (5, UInt8(ascii: "f")): return spells(p, start, "false") ? .kwFalse : nil
        case (6, UInt8(ascii: "i")): return spells(p, start, "import") ? .kwImport : nil
        case (6, UInt8(ascii: "s")): return spells(p, start, "screen") ? .kwScreen : nil
        case (7, UInt8(ascii: "b")): return spells(p, start, "builder") ? .kwBuilder : nil
        case (8, UInt8(ascii: "o")): return spells(p, start, "optional") ? .kwOptional : nil
        case (8, UInt8(ascii: "w")): return spells(p, start, "wildcard") ? .kwWildcard : nil
        case (10, UInt8(ascii: "d")): return spells(p, start, "dependency") ? .kwDependency : nil
        case (11, UInt8(ascii: "c")): return spells(p, start, "conditional") ? .kwConditional : nil
        default: return nil
        }
    }

    @inline(__always) static func isIdentStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F
    }
    @inline(__always) static func isIdentContinue(_ b: UInt8) -> Bool {
        isIdentStart(b) || (b >= 0x30 && b <= 0x39)
    }
    @inline(__always) static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Tokenizes the whole text. The result always ends with one `eof` token.
    public static func tokenize(_ source: SourceText, file: FileID = 0) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        var tokens: [Token] = []
        tokens.reserveCapacity(source.count / 3 + 8)
        var diagnostics: [Diagnostic] = []
        for r in source.invalidUTF8 {
            diagnostics.append(SyntaxError.diagnostic(file: file, range: r,
                                          message: "invalid UTF-8 (read as U+FFFD)"))
        }
        let invalid = source.invalidUTF8
        var nextInvalid = 0

        source.bytes.withUnsafeBufferPointer { p in
            let n = p.count
            var i = 0
            var sawNewline = true  // the first token starts a line
            @inline(__always) func push(_ kind: TokenKind, _ start: Int, _ end: Int, malformed: Bool = false) {
                let startsLine = kind.isSkipped ? false : sawNewline
                if !kind.isTrivia { sawNewline = false }
                tokens.append(Token(kind: kind, startsLine: startsLine, isMalformed: malformed,
                                    offset: UInt32(truncatingIfNeeded: start), length: UInt32(truncatingIfNeeded: end - start)))
            }
            func isInvalidAt(_ pos: Int) -> Bool {
                while nextInvalid < invalid.count && invalid[nextInvalid].upperBound <= pos { nextInvalid += 1 }
                return nextInvalid < invalid.count && invalid[nextInvalid].lowerBound == pos
            }
            if n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF && !isInvalidAt(0) {
                push(.byteOrderMark, 0, 3)
                i = 3
            }
            while i < n {
                let start = i
                let b = p[i]
                switch b {
                case 0x20, 0x09, 0x0A, 0x0D:
                    while i < n {
                        let c = p[i]
                        if c == 0x0A || c == 0x0D { sawNewline = true } else if c != 0x20 && c != 0x09 { break }
                        i += 1
                    }
                    push(.whitespace, start, i)
                case 0x2F:  // '/'
                    if i + 1 < n && p[i + 1] == 0x2F {
                        let isDoc = i + 2 < n && p[i + 2] == 0x2F && !(i + 3 < n && p[i + 3] == 0x2F)
                        while i < n && p[i] != 0x0A && p[i] != 0x0D { i += 1 }
                        push(isDoc ? .docComment : .lineComment, start, i)
                    } else {
                        i += 1
                        push(.slash, start, i)
                    }
                case 0x22:  // '"'
                    i += 1
                    var malformed = false
                    var closed = false
                    while i < n {
                        let c = p[i]
                        if c == 0x22 { i += 1; closed = true; break }
                        if c == 0x0A || c == 0x0D { break }
                        if c == 0x5C {  // backslash
                            let escStart = i
                            i += 1
                            guard i < n, p[i] != 0x0A, p[i] != 0x0D else {
                                malformed = true
                                diagnostics.append(SyntaxError.diagnostic(file: file, range: escStart..<i,
                                                              message: "incomplete escape sequence"))
                                break
                            }
                            let e = p[i]
                            switch e {
                            case 0x22, 0x5C, 0x6E, 0x74:  // " \ n t
                                i += 1
                            case 0x75:  // u
                                i += 1
                                var ok = false
                                if i < n && p[i] == 0x7B {
                                    var j = i + 1
                                    var value: UInt32 = 0
                                    var digits = 0
                                    while j < n, let d = hexValue(p[j]), digits < 9 {
                                        value = value &* 16 &+ UInt32(d)
                                        digits += 1
                                        j += 1
                                    }
                                    if j < n && p[j] == 0x7D && digits >= 1 && digits <= 8 {
                                        i = j + 1
                                        ok = value <= 0x10FFFF && !(0xD800...0xDFFF).contains(value)
                                        if !ok {
                                            malformed = true
                                            diagnostics.append(SyntaxError.diagnostic(file: file, range: escStart..<i,
                                                                          message: "`\\u{\(String(value, radix: 16, uppercase: true))}` is not a Unicode scalar"))
                                            continue
                                        }
                                    } else {
                                        i = j
                                    }
                                }
                                if !ok {
                                    malformed = true
                                    diagnostics.append(SyntaxError.diagnostic(file: file, range: escStart..<i,
                                                                  message: "invalid unicode escape: write `\\u{XXXX}` with 1 to 8 hex digits"))
                                }
                            default:
                                let len = SourceText.sequenceLength(e)
                                i = min(n, i + len)
                                malformed = true
                                let text = String(decoding: UnsafeBufferPointer(rebasing: p[escStart..<i]), as: UTF8.self)
                                diagnostics.append(SyntaxError.diagnostic(file: file, range: escStart..<i,
                                                              message: "invalid escape sequence `\(text)` (valid: \\\" \\\\ \\n \\t \\u{XXXX})"))
                            }
                        } else {
                            i += 1
                        }
                    }
                    if !closed {
                        malformed = true
                        diagnostics.append(SyntaxError.diagnostic(file: file, range: start..<i,
                                                      message: "unterminated string literal: add the closing `\"`"))
                    }
                    push(.string, start, i, malformed: malformed)
                case 0x7B: i += 1; push(.lBrace, start, i)
                case 0x7D: i += 1; push(.rBrace, start, i)
                case 0x28: i += 1; push(.lParen, start, i)
                case 0x29: i += 1; push(.rParen, start, i)
                case 0x5B: i += 1; push(.lBracket, start, i)
                case 0x5D: i += 1; push(.rBracket, start, i)
                case 0x2C: i += 1; push(.comma, start, i)
                case 0x3A: i += 1; push(.colon, start, i)
                case 0x2E: i += 1; push(.dot, start, i)
                case 0x3F: i += 1; push(.question, start, i)
                case 0x3C: i += 1; push(.lAngle, start, i)
                case 0x3E: i += 1; push(.rAngle, start, i)
                case 0x26: i += 1; push(.ampersand, start, i)
                case 0x2D where i + 1 < n && p[i + 1] == 0x3E: i += 2; push(.arrow, start, i)
                case 0x40 where i + 1 < n && isIdentStart(p[i + 1]):
                    i += 2
                    while i < n && isIdentContinue(p[i]) { i += 1 }
                    push(.attribute, start, i)
                default:
                    if isIdentStart(b) {
                        i += 1
                        while i < n && isIdentContinue(p[i]) { i += 1 }
                        push(keywordKind(p, start, i - start) ?? .identifier, start, i)
                    } else if isDigit(b) || (b == 0x2D && i + 1 < n && isDigit(p[i + 1])) {
                        i += 1
                        while i < n && isDigit(p[i]) { i += 1 }
                        if i + 1 < n && p[i] == 0x2E && isDigit(p[i + 1]) {
                            i += 1
                            while i < n && isDigit(p[i]) { i += 1 }
                        }
                        push(.number, start, i)
                    } else if isInvalidAt(i) {
                        // Already reported as invalid UTF-8.
                        i = invalid[nextInvalid].upperBound
                        if start > 0 && isIdentContinue(p[start - 1]) {
                            while i < n && isIdentContinue(p[i]) { i += 1 }
                        }
                        push(.unknown, start, i)
                    } else {
                        // A run of characters that start no token: one error.
                        while i < n {
                            let c = p[i]
                            if c < 0x80 {
                                if isIdentStart(c) || isDigit(c) || c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
                                    || c == 0x22 || c == 0x2F || "{}()[],:.?<>&".utf8.contains(c)
                                    || (c == 0x2D && i + 1 < n && (isDigit(p[i + 1]) || p[i + 1] == 0x3E))
                                    || (c == 0x40 && i + 1 < n && isIdentStart(p[i + 1])) {
                                    break
                                }
                            } else if isInvalidAt(i) {
                                break
                            }
                            i += SourceText.sequenceLength(c)
                        }
                        i = min(i, n)
                        let end = i
                        // Identifier characters glued to the run (`Café…`) are skipped with
                        // it rather than read as a second, surprising token.
                        if start > 0 && isIdentContinue(p[start - 1]) && p[start] >= 0x80 {
                            while i < n && isIdentContinue(p[i]) { i += 1 }
                        }
                        push(.unknown, start, i)
                        let text = String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
                        let plural = text.unicodeScalars.count > 1
                        var message = "unexpected character\(plural ? "s" : "") `\(text)`"
                        if start > 0 && isIdentContinue(p[start - 1]) && p[start] >= 0x80 {
                            message += " (names are ASCII: letters, digits and `_`)"
                        }
                        diagnostics.append(SyntaxError.diagnostic(file: file, range: start..<end, message: message))
                    }
                }
            }
            tokens.append(Token(kind: .eof, startsLine: sawNewline, isMalformed: false,
                                offset: UInt32(truncatingIfNeeded: n), length: 0))
        }
        // The tokens are kept with the tree for as long as the file is: no room past the last.
        tokens.dropUnusedCapacity()
        return (tokens, diagnostics)
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// The value of a string token's text (quotes included), with escapes decoded. Malformed
    /// escapes are kept as written; a missing closing quote is tolerated.
    public static func stringValue(_ text: Substring.UTF8View) -> String {
        let bytes = Array(text)
        guard bytes.first == 0x22 else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 1
        let end = bytes.count >= 2 && bytes.last == 0x22 ? bytes.count - 1 : bytes.count
        while i < end {
            let c = bytes[i]
            if c == 0x5C && i + 1 < end {
                let e = bytes[i + 1]
                switch e {
                case 0x22: out.append(0x22); i += 2; continue
                case 0x5C: out.append(0x5C); i += 2; continue
                case 0x6E: out.append(0x0A); i += 2; continue
                case 0x74: out.append(0x09); i += 2; continue
                case 0x75:
                    if i + 2 < end && bytes[i + 2] == 0x7B {
                        var j = i + 3
                        var value: UInt32 = 0
                        var digits = 0
                        while j < end, let d = hexValue(bytes[j]), digits < 9 {
                            value = value &* 16 &+ UInt32(d)
                            digits += 1
                            j += 1
                        }
                        if j < end && bytes[j] == 0x7D && digits >= 1 && digits <= 8, let scalar = Unicode.Scalar(value) {
                            out.append(contentsOf: Array(String(Character(scalar)).utf8))
                            i = j + 1
                            continue
                        }
                    }
                default: break
                }
            }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
