/// A hand-written, error-resilient recursive-descent parser for the whole language
/// (docs/language.md, Files, names and comments to Builders; Grammar/routes.ebnf). It records
/// events (open node, consume token, close node) and builds the flat lossless tree from them
/// afterwards.
///
/// Recovery, so that each real mistake gives one syntax error (`SyntaxError`) and the rest of the file
/// still parses:
/// - a missing token is reported zero-width right after the previous token, and parsing
///   goes on as if it were there (a block whose `{` is missing too, when its builder follows
///   on the same line or indented below);
/// - no second error is reported before a token is consumed (the same mistake seen again);
/// - a run of unexpected tokens is skipped as one error node (balanced `{ }` inside it are
///   skipped with it);
/// - a declaration keyword (`import dependency optional flag builder root`) at the start of
///   a line closes every open block, with one "expected `}`" error (related: the unclosed
///   `{`). `screen` starts builders too, so it closes blocks only in a second parse, made when
///   the strict one found errors: there it closes them when it is indented less than the line
///   that opened the innermost block, sits in column 0 after the block's one builder, or is
///   followed by a parameter list with types (`screen A(id: String)`: a declaration's). The
///   parse with fewer errors wins, so indentation never makes valid code invalid;
/// - nesting deeper than `maxDepth` is one error, and the rest of that block is skipped
///   without recursion, so no input can overflow the stack;
/// - what people write out of habit from Swift (`&&`, `!`, `else if`, `flag f = true`, `let`
///   bindings, a forgotten `screen`, a missing comma, a `}` on the wrong line) is one error
///   that says what the language has instead (`ParserHints.swift`).
///
/// This file holds the parser's state, its access to tokens and its recovery; the grammar is
/// in `Parser+Declarations.swift` (the top level), `Parser+Builders.swift` (blocks and
/// builders) and `TypeParser.swift` (Swift types); `Parser+Tree.swift` builds the tree.
public struct Parser {
    public static let defaultMaxDepth = 200

    enum Event {
        case open(SyntaxKind)
        case close
        case advance
    }

    let source: SourceText
    let file: FileID
    let tokens: [Token]
    /// Indices (into `tokens`) of the tokens the parser sees: no trivia, no lexical errors.
    let significant: [Int32]
    var pos = 0
    var events: [Event] = []
    var diagnostics: [Diagnostic]
    let maxDepth: Int
    var depth = 0
    var reportedDepth = false
    /// The `{` tokens (indices into `tokens`) currently open, with the indentation of their line.
    var openBraces: [(token: Int, indent: Int)] = []
    /// Byte ranges of skipped runs already reported: lexical errors inside them are dropped.
    var garbage: [Range<Int>] = []
    /// Set when a missing `}` was reported at `unwindAt`: every open block closes silently there.
    var unwindAt: Int? = nil
    /// The token position of the last syntax error: a second error before a token is consumed
    /// is the same mistake seen again (one error per real mistake:
    /// docs/language.md#after-an-error), and is dropped.
    var lastErrorAt = -1
    /// The starts of unknown tokens whose lexical error the parser explained (see
    /// `explain(unknown:through:_:repair:)`): kept even inside text it skipped.
    var explained = Set<Int>()
    /// The token position just after the last name of the last `uses` list (a name there
    /// without a comma before it is read as the next builder).
    /// What the layout lookahead may still look at in this parse, tokens and leading blanks
    /// (see `Parser.layoutLookahead`).
    var layoutScanBudget = 1 << 18
    /// The significant position of the last `}` that `blockEnd` skipped as typed too early
    /// (`closesEarly`), for the message of the builder after it.
    var earlyBrace = -1
    /// Whether the builder being parsed is a branch of an `anyOf` (not a block's one builder).
    var inAnyOfBranch = false
    /// Whether the block about to be read is the then block of a `conditional` or an `if`,
    /// which an `else` may follow (taken by `block()`).
    var readingThenBlock = false
    /// Whether the `if let` about to be read has no then block (`guard let user else { … }`,
    /// reported): its `else` follows the name.
    var thenBlockLeftOut = false
    /// The second builder reported in the then block just read (its diagnostic's index, and
    /// its head, `screen Login`), for the `conditional` around it (see `conditionalBuilder`).
    var thenBlockExtra: (diagnostic: Int, head: String)? = nil
    /// The blocks closed by a `}` on a line of its own indented less than the line that
    /// opened each, in the order they closed: the `{` (a token index) and that `}` (a
    /// significant position), where a `}` missing higher up most likely belongs (see
    /// `blockEnd`).
    var misplacedCloses: [(open: Int, close: Int)] = []
    /// Whether the file has the keyword `root` anywhere (a block at the start of a line at
    /// top level is read as a `root` whose keyword is missing only in a file without one).
    lazy var hasRootKeyword: Bool = tokens.contains { $0.kind == .kwRoot }
    var usesEnd = -1
    /// Inside a type (TypeParser.swift): whether it failed already (one error per type), and
    /// the brackets it opened and has not closed.
    var inType = false
    var typeFailed = false
    var typeBrackets: [TokenKind] = []
    /// How many `linkLine` tokens were read as a declaration of their own.
    var linkLinesRead = 0

    /// Whether a `screen` at the start of a line may close blocks by its indentation. Off in
    /// the first, strict parse, so that layout never makes valid code invalid.
    let layoutRecovery: Bool

    init(source: SourceText, file: FileID, tokens: [Token], lexicalDiagnostics: [Diagnostic],
         significant: [Int32], maxDepth: Int, layoutRecovery: Bool) {
        self.source = source
        self.file = file
        self.tokens = tokens
        self.diagnostics = lexicalDiagnostics
        self.maxDepth = maxDepth
        self.significant = significant
        self.layoutRecovery = layoutRecovery
        events.reserveCapacity(significant.count * 3)
    }

    /// Parses a text: strictly first; only when that finds syntax errors, again with layout
    /// recovery, keeping the parse with fewer errors (layout recovery on a tie, since it keeps
    /// the declarations after a missing `}`).
    ///
    /// With `readingLinkLines`, a `link` declaration in the plain form `LinkLine` reads is one
    /// token and one node, for a caller that only lowers the tree (see
    /// `SyntaxTree.parse(_:file:maxDepth:readingLinkLines:)`); a file where that parse finds
    /// a syntax error, or reads such a line anywhere but as a declaration of its own, is
    /// parsed again token by token, so that its errors are the same as without it.
    static func parse(_ source: SourceText, file: FileID, maxDepth: Int, readingLinkLines: Bool = false) -> SyntaxTree {
        if readingLinkLines {
            let lexed = Lexer.tokenize(source, file: file, readingLinkLines: true)
            var parser = Parser(source: source, file: file, tokens: lexed.tokens, lexicalDiagnostics: lexed.diagnostics,
                                significant: significantTokens(lexed.tokens), maxDepth: maxDepth, layoutRecovery: false)
            if lexed.linkLines == 0 {
                // The same tokens as without it.
                return parse(source, file: file, maxDepth: maxDepth, lexed: (lexed.tokens, lexed.diagnostics), strict: &parser)
            }
            let tree = parser.parseFile()
            if parser.diagnostics.count == lexed.diagnostics.count && parser.linkLinesRead == lexed.linkLines {
                return SyntaxTree(source: tree.source, tokens: tree.tokens, nodes: tree.nodes, diagnostics: tree.diagnostics,
                                  linkLineParts: lexed.linkLineParts)
            }
        }
        let lexed = Lexer.tokenize(source, file: file)
        var strict = Parser(source: source, file: file, tokens: lexed.tokens, lexicalDiagnostics: lexed.diagnostics,
                            significant: significantTokens(lexed.tokens), maxDepth: maxDepth, layoutRecovery: false)
        let tree = parse(source, file: file, maxDepth: maxDepth, lexed: lexed, strict: &strict)
        // A tree let go once lowered is not worth a copy.
        return readingLinkLines ? tree : tree.inExactStorage()
    }

    /// The indices of the tokens the parser sees.
    private static func significantTokens(_ tokens: [Token]) -> [Int32] {
        var significant: [Int32] = []
        significant.reserveCapacity(tokens.count / 2 + 1)
        for (index, token) in tokens.enumerated() where !token.kind.isSkipped { significant.append(Int32(index)) }
        return significant
    }

    /// The strict parse of `lexed`, then the one with layout recovery when it found errors.
    private static func parse(_ source: SourceText, file: FileID, maxDepth: Int, lexed: (tokens: [Token], diagnostics: [Diagnostic]),
                              strict: inout Parser) -> SyntaxTree {
        let significant = strict.significant
        let first = strict.parseFile()
        if first.diagnostics.count == lexed.diagnostics.count { return first }
        var layout = Parser(source: source, file: file, tokens: lexed.tokens, lexicalDiagnostics: lexed.diagnostics,
                            significant: significant, maxDepth: maxDepth, layoutRecovery: true)
        let second = layout.parseFile()
        return second.diagnostics.count <= first.diagnostics.count ? second : first
    }

    // MARK: Token access

    /// The significant token at `position` (an index into `significant`).
    @inline(__always) func token(at position: Int) -> Token { tokens[Int(significant[position])] }
    var current: Token { token(at: pos) }
    var kind: TokenKind { current.kind }
    /// The kind of the significant token `ahead` positions after the current one (the end of
    /// file past the last).
    func peekKind(_ ahead: Int = 1) -> TokenKind {
        token(at: min(pos + ahead, significant.count - 1)).kind
    }
    func at(_ kind: TokenKind) -> Bool { self.kind == kind }
    var atEOF: Bool { kind == .eof }

    mutating func advance() {
        guard !atEOF else { return }
        events.append(.advance)
        pos += 1
    }

    mutating func open(_ kind: SyntaxKind) { events.append(.open(kind)) }
    mutating func close() { events.append(.close) }

    /// Where a missing token is reported: just after the previous token.
    var previousEnd: Int {
        pos > 0 ? token(at: pos - 1).end : current.start
    }

    var currentText: String { source.text(current.range) }

    /// Whether the current token's text is `word` (compared byte by byte: no string made).
    func currentIs(_ word: StaticString) -> Bool { token(current, is: word) }

    /// The position of the current token when it is a name (for a message that may quote it
    /// later: its text is read only then).
    var identifierPosition: Int? { at(.identifier) ? pos : nil }

    /// Whether `token`'s text is `word` (compared byte by byte: no string made).
    func token(_ token: Token, is word: StaticString) -> Bool {
        guard Int(token.length) == word.utf8CodeUnitCount, token.end <= source.bytes.count else { return false }
        return source.bytes.withUnsafeBufferPointer { bytes in
            UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
        }
    }

    /// Whether a lexical error (an unexpected character, already reported) lies between the
    /// previous token and the current one.
    var followsLexicalError: Bool {
        let from = pos > 0 ? Int(significant[pos - 1]) + 1 : 0
        return tokens[from..<Int(significant[pos])].contains { $0.kind == .unknown }
    }

    /// Whether a string in curly or single quotes (`“Shared.routes”`, `'Shared.routes'`)
    /// stands right before the current token: the lexer reported it, with the string in
    /// straight double quotes as its repair, so a place that expects a string says nothing
    /// more.
    var followsCurlyString: Bool {
        let from = pos > 0 ? Int(significant[pos - 1]) + 1 : 0
        return tokens[from..<Int(significant[pos])].contains { $0.kind == .unknown && Lexer.isMisquotedString(source.bytes, $0) }
    }

    func describeCurrent() -> String { describe(at: pos) }

    var unwinding: Bool { unwindAt != nil }

    mutating func report(_ range: Range<Int>, _ message: String, related: [RelatedLocation] = [],
                         repair: SyntaxError.Repair? = nil) {
        if pos == lastErrorAt { return }
        lastErrorAt = pos
        // A name with letters outside ASCII (`Über`) was reported by the lexer: whatever is
        // wrong where it stands is that one mistake.
        if current.kind == .identifier && current.isMalformed { return }
        diagnostics.append(SyntaxError.diagnostic(file: file, range: range, message: message, related: related, repair: repair))
    }

    /// A missing token: zero-width after the previous token. Silent while blocks unwind.
    mutating func expected(_ what: String, related: [RelatedLocation] = []) {
        guard !unwinding else { return }
        let found = atEOF ? "" : ", found \(describeCurrent())"
        report(previousEnd..<previousEnd, "expected \(what)\(found)", related: related)
    }

    /// An unexpected token, which the caller skips: reported on it when it is on the line of
    /// the token before it (it is the mistake); at the start of a line or at the end of the
    /// file, a missing token, zero-width after the previous one (see `expected`).
    mutating func unexpected(_ what: String) {
        guard !atEOF, !current.startsLine else { return expected(what) }
        guard !unwinding else { return }
        report(current.range, "expected \(what), found \(describeCurrent())")
    }

    // MARK: Layout for recovery

    func indentation(ofLineContaining offset: Int) -> Int {
        var position = source.lineStart(containing: offset)
        var indentation = 0
        while position < source.count && (source.bytes[position] == 0x20 || source.bytes[position] == 0x09) {
            position += 1
            indentation += 1
        }
        return indentation
    }

    func column(_ token: Token) -> Int {
        token.start - source.lineStart(containing: token.start)
    }

    /// True when the current token closes every open block (see the type's doc comment).
    func atBlockCloser(blockHasBuilder: Bool) -> Bool {
        if atEOF { return true }
        if let unwindAt { return unwindAt == pos }
        let token = current
        guard token.startsLine, token.kind.startsDeclaration || atLinkDeclaration else { return false }
        if token.kind != .kwScreen { return !atLinkInsideBlock }
        guard layoutRecovery else { return false }
        let tokenColumn = column(token)
        if tokenColumn < (openBraces.last?.indent ?? 0) { return true }
        return (tokenColumn == 0 && (blockHasBuilder || screenLineEndsAnUnclosedBlock)) || screenLineDeclaresParameters
    }

    /// At `screen NAME`: whether a line above starts with `screen NAME` at column 0 (its
    /// declaration: this line, then, places it). Looks back a bounded way.
    var screenDeclaredAbove: Bool {
        guard pos + 1 < significant.count, token(at: pos + 1).kind == .identifier else { return false }
        let name = token(at: pos + 1)
        var at = pos - 1
        while at > 0 && at > pos - 4096 {
            let t = token(at: at - 1)
            if t.kind == .kwScreen && t.startsLine && column(t) == 0 {
                let other = token(at: at)
                if other.kind == .identifier && other.length == name.length
                    && source.bytes[other.start..<other.end].elementsEqual(source.bytes[name.start..<name.end]) { return true }
            }
            at -= 1
        }
        return false
    }

    /// At `screen` at the start of a line, at column 0, in a block that has no builder yet:
    /// whether the line holds no `{` and the next line starts a declaration at column 0, so
    /// that nothing would close the block: the `}` was left out (`builder refunds {` typed
    /// above `screen Payment`), and the line declares a screen. A block written without
    /// indentation (`root {` / `screen Home` / `}`) is closed by its `}`; at the end of the
    /// file, the line is read as the block's builder.
    var screenLineEndsAnUnclosedBlock: Bool {
        var at = pos + 1
        while at < significant.count && at < pos + 64 {
            let t = token(at: at)
            if t.kind == .eof { return false }
            if t.startsLine {
                return column(t) == 0 && (t.kind.startsDeclaration || t.kind == .linkLine || (t.kind == .identifier && token(t, is: "link")))
                    && !screenDeclaredAbove
            }
            if t.kind == .lBrace || t.kind == .rBrace { return false }
            at += 1
        }
        return false
    }

    /// At a `link` declaration that starts a line indented inside the innermost open block
    /// (deeper than the line of its `{`): a declaration written in the block, not the start
    /// of the next declaration after a missing `}` (see `linkInsideBlock()`).
    var atLinkInsideBlock: Bool {
        guard layoutRecovery, current.startsLine, let innermost = openBraces.last else { return false }
        return column(current) > innermost.indent && atLinkDeclaration
    }

    /// A `link` declaration written inside a block (`link item "/items/{id}" -> …` in `root`'s
    /// block, as if it were a branch): one error, and the declaration (over the lines it
    /// takes) is skipped; the block reads on.
    @inline(never)
    mutating func linkInsideBlock() {
        let start = current.start
        let end = linkInsideBlockEnd()
        if !unwinding {
            report(start..<(start + 4), "a `link` is declared at the top level of the file, not inside a block: move it out of the block (after its `}`)",
                   repair: .moveLinkOutOfBlock(end: token(at: end - 1).end))
        }
        open(.error)
        while pos < end { advance() }
        close()
        garbage.append(start..<current.start)
    }

    /// The significant position after the link declaration that starts at the current token:
    /// its name and pattern (up to the pattern, over lines), then its path while a line
    /// starts with `->` or `/`, or the line before ends in one, or inside parentheses.
    private func linkInsideBlockEnd() -> Int {
        var i = pos
        var sawPattern = false
        var parens = 0
        repeat {
            let t = token(at: i)
            if t.kind == .string { sawPattern = true }
            if t.kind == .lParen { parens += 1 } else if t.kind == .rParen { parens = max(0, parens - 1) }
            i += 1
            guard i < significant.count else { break }
            let next = token(at: i), before = token(at: i - 1).kind
            if next.kind == .eof { break }
            if !next.startsLine || parens > 0 { continue }
            let goesOn = sawPattern
                ? next.kind == .arrow || next.kind == .slash || before == .arrow || before == .slash
                : next.kind == .string || next.kind == .identifier && before != .identifier
            if !goesOn { break }
        } while true
        return i
    }

    /// At `screen`: whether a parameter list with a type follows its name (`screen A(id:
    /// String)`), which only a declaration has (a node's arguments, a mistake of their own, are
    /// values: `screen A(id: "42")`). A type starts with `[`, `(` or a capitalised name.
    var screenLineDeclaresParameters: Bool {
        guard pos + 5 < significant.count, token(at: pos + 1).kind == .identifier else { return false }
        let paren = token(at: pos + 2), label = token(at: pos + 3), colon = token(at: pos + 4), type = token(at: pos + 5)
        guard paren.kind == .lParen, !paren.startsLine, label.kind == .identifier, colon.kind == .colon else { return false }
        switch type.kind {
        case .lBracket, .lParen: return true
        case .identifier: return type.start < source.bytes.count && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(source.bytes[type.start])
        default: return false
        }
    }

    /// Reports the missing `}` of the innermost open block once and starts unwinding. When a
    /// block inside it was closed by a `}` indented as an enclosing block's, the `}`s from
    /// there on closed the wrong blocks: the one left out is that block's, after the token
    /// before that `}` (see `misplacedBrace(inside:)`).
    mutating func missingBrace(_ brace: Int) {
        guard !unwinding else { return }
        if let (unclosed, at) = misplacedBrace(inside: brace) {
            report(at..<at, "expected `}`", related: [RelatedLocation(file: file, range: tokens[unclosed].range, message: "unclosed `{`")])
            unwindAt = pos
            return
        }
        let related = [RelatedLocation(file: file, range: tokens[brace].range, message: "unclosed `{`")]
        let found = atEOF ? "" : ", found \(describeCurrent())"
        // At the end of the file, a block left open is a mistake of its own, even right after
        // another one (`uses a, b,` and no `}`): the first fixed, it would be the next error.
        if atEOF { lastErrorAt = -1 }
        // At the end of the file, the blocks still open can only close there (a block that a
        // `}` closed too early was found above): the repair writes their `}`s.
        let braces = openBraces.reversed().map(\.token)
        let closesAtEnd = atEOF && braces.allSatisfy { tokens[$0].kind == .lBrace }
        report(previousEnd..<previousEnd, "expected `}`\(found)", related: related,
               repair: closesAtEnd ? .closeBlocks(braces: braces.map { tokens[$0].start }) : nil)
        unwindAt = pos
    }

    /// The block inside the one whose `{` is `brace` that the first of the latest `}`s
    /// indented as an enclosing block's closed, and where its own `}` was left out: after
    /// the token before that `}`. Nil when no such `}` closed a block inside it.
    /// Only when nothing but `}`s came after that `}`: the chain of closes that ends the
    /// block (a builder after it means the blocks it closed were meant to close there).
    func misplacedBrace(inside brace: Int) -> (unclosed: Int, at: Int)? {
        let inside = misplacedCloses.reversed().prefix { $0.open > brace }
        guard let misplaced = inside.last, misplaced.close > 0, misplaced.close < pos,
              (misplaced.close..<pos).allSatisfy({ token(at: $0).kind == .rBrace }) else { return nil }
        return (misplaced.open, token(at: misplaced.close - 1).end)
    }

    // MARK: Recovery

    /// Skips a run of unexpected tokens as one error node with one diagnostic. Balanced
    /// braces inside the run are skipped with it.
    mutating func skipGarbage(_ message: String, stopAtBuilder: Bool, blockHasBuilder: Bool) {
        if !unwinding { report(current.range, message) }
        let start = current.start
        defer { garbage.append(start..<current.start) }
        open(.error)
        var braces = 0
        repeat {
            if kind == .lBrace { braces += 1 }
            if kind == .rBrace { braces -= 1 }
            advance()
            if atEOF { break }
            if braces == 0 {
                if at(.rBrace) { break }
                if stopAtBuilder && kind.startsBuilder { break }
            }
        } while !atBlockCloser(blockHasBuilder: blockHasBuilder)
        close()
    }

    mutating func tooDeep() {
        if !reportedDepth {
            report(current.range, "nesting is too deep (more than \(maxDepth) levels): this builder and the rest of its block are skipped")
            reportedDepth = true
        }
        // Skip to the end of the enclosing block without recursion.
        open(.error)
        var braces = 0
        while !atEOF {
            if at(.rBrace) {
                if braces == 0 { break }
                braces -= 1
            } else if at(.lBrace) {
                braces += 1
            } else if current.startsLine && kind.startsDeclaration && kind != .kwScreen {
                break
            }
            advance()
        }
        close()
    }
}
