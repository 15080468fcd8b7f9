/// The kinds of tokens. Trivia (whitespace, comments, the byte-order mark) and lexical
/// errors are tokens too, so the tree keeps every byte of the source.
public enum TokenKind: UInt8, Sendable, Hashable, CaseIterable {
    // Trivia
    case whitespace
    case lineComment
    case docComment
    case byteOrderMark
    /// Bytes the lexer could not read (an unknown character or a run of invalid UTF-8);
    /// the lexer has already reported them, the parser skips them.
    case unknown

    case identifier
    case string
    case number

    case lBrace, rBrace, lParen, rParen, lBracket, rBracket
    case comma, colon, dot, question, slash
    /// Swift type syntax in declarations: `<` `>` (generic arguments), `&` (composition),
    /// `->` (function types) and an attribute (`@Sendable`: `@` and a name, with nothing
    /// between them).
    case lAngle, rAngle, ampersand, arrow, attribute

    case kwImport, kwScreen, kwDependency, kwOptional, kwFlag, kwFrom, kwBuilder, kwRoot
    case kwUses, kwAnyOf, kwConditional, kwElse, kwIf, kwLet, kwWildcard, kwEmpty
    case kwPush, kwSheet, kwTrue, kwFalse

    /// A whole `link` declaration on one line, in the plain form `LinkLine` reads: only in
    /// a tree parsed to be lowered and let go (`SyntaxTree.parse(_:file:maxDepth:readingLinkLines:)`).
    case linkLine

    case eof

    /// Whitespace, comments and the byte-order mark.
    @inlinable public var isTrivia: Bool {
        self.rawValue <= TokenKind.byteOrderMark.rawValue
    }

    /// Tokens the parser never sees: trivia and already-reported lexical errors.
    @inlinable public var isSkipped: Bool {
        self.rawValue <= TokenKind.unknown.rawValue
    }

    @inlinable public var isKeyword: Bool {
        self.rawValue >= TokenKind.kwImport.rawValue && self.rawValue <= TokenKind.kwFalse.rawValue
    }

    /// `import screen dependency optional flag builder root`: the keywords that start a
    /// top-level declaration (and, at the start of a line, close every open block).
    @inlinable public var startsDeclaration: Bool {
        switch self {
        case .kwImport, .kwScreen, .kwDependency, .kwOptional, .kwFlag, .kwBuilder, .kwRoot: return true
        default: return false
        }
    }

    /// Tokens that can start a builder inside a block.
    @inlinable public var startsBuilder: Bool {
        switch self {
        // (`let` too: `let draft {`, an `if let` without its `if`, is read as one.)
        case .kwScreen, .kwAnyOf, .kwConditional, .kwIf, .kwWildcard, .kwEmpty, .identifier, .kwLet: return true
        default: return false
        }
    }

    /// Identifiers and keywords: what may stand as a parameter or argument label.
    @inlinable public var isLabel: Bool { self == .identifier || isKeyword }

    /// How the token is named in messages.
    public var display: String {
        switch self {
        case .whitespace: return "whitespace"
        case .lineComment: return "comment"
        case .docComment: return "doc comment"
        case .byteOrderMark: return "byte-order mark"
        case .unknown: return "unknown character"
        case .identifier: return "identifier"
        case .string: return "string"
        case .number: return "number"
        case .lBrace: return "`{`"
        case .rBrace: return "`}`"
        case .lParen: return "`(`"
        case .rParen: return "`)`"
        case .lBracket: return "`[`"
        case .rBracket: return "`]`"
        case .comma: return "`,`"
        case .colon: return "`:`"
        case .dot: return "`.`"
        case .question: return "`?`"
        case .slash: return "`/`"
        case .lAngle: return "`<`"
        case .rAngle: return "`>`"
        case .ampersand: return "`&`"
        case .arrow: return "`->`"
        case .attribute: return "attribute"
        case .eof: return "end of file"
        case .linkLine: return "link declaration"
        default:
            return "`\(Lexer.keywordText[self] ?? "?")`"
        }
    }
}
