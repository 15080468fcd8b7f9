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
///   that opened the innermost block, or sits in column 0 after the block's one builder. The
///   parse with fewer errors wins, so indentation never makes valid code invalid;
/// - nesting deeper than `maxDepth` is one error, and the rest of that block is skipped
///   without recursion, so no input can overflow the stack;
/// - what people write out of habit from Swift (`&&`, `!`, `else if`, `flag f = true`, `let`
///   bindings, a forgotten `screen`, a missing comma, a `}` on the wrong line) is one error
///   that says what the language has instead (`ParserHints.swift`).
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
    let sig: [Int32]
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
    /// `explain(unknown:_:)`): kept even inside text it skipped.
    var explained = Set<Int>()
    /// The token position just after the last name of the last `uses` list (a name there
    /// without a comma before it is read as the next builder).
    var usesEnd = -1
    /// Inside a type (TypeParser.swift): whether it failed already (one error per type), and
    /// the brackets it opened and has not closed.
    var inType = false
    var typeFailed = false
    var typeBrackets: [TokenKind] = []

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
        self.sig = significant
        self.layoutRecovery = layoutRecovery
        events.reserveCapacity(significant.count * 3)
    }

    /// Parses a text: strictly first; only when that finds syntax errors, again with layout
    /// recovery, keeping the parse with fewer errors (layout recovery on a tie, since it keeps
    /// the declarations after a missing `}`).
    static func parse(_ source: SourceText, file: FileID, maxDepth: Int) -> SyntaxTree {
        let lexed = Lexer.tokenize(source, file: file)
        var sig: [Int32] = []
        sig.reserveCapacity(lexed.tokens.count / 2 + 1)
        for (i, t) in lexed.tokens.enumerated() where !t.kind.isSkipped { sig.append(Int32(i)) }
        var strict = Parser(source: source, file: file, tokens: lexed.tokens, lexicalDiagnostics: lexed.diagnostics,
                            significant: sig, maxDepth: maxDepth, layoutRecovery: false)
        let first = strict.parseFile()
        if first.diagnostics.count == lexed.diagnostics.count { return first }
        var layout = Parser(source: source, file: file, tokens: lexed.tokens, lexicalDiagnostics: lexed.diagnostics,
                            significant: sig, maxDepth: maxDepth, layoutRecovery: true)
        let second = layout.parseFile()
        return second.diagnostics.count <= first.diagnostics.count ? second : first
    }

    // MARK: Token access

    var current: Token { tokens[Int(sig[pos])] }
    var kind: TokenKind { current.kind }
    func peekKind(_ n: Int = 1) -> TokenKind {
        let p = min(pos + n, sig.count - 1)
        return tokens[Int(sig[p])].kind
    }
    func at(_ k: TokenKind) -> Bool { kind == k }
    var atEOF: Bool { kind == .eof }

    mutating func advance() {
        guard !atEOF else { return }
        events.append(.advance)
        pos += 1
    }

    mutating func open(_ k: SyntaxKind) { events.append(.open(k)) }
    mutating func close() { events.append(.close) }

    /// Where a missing token is reported: just after the previous token.
    var previousEnd: Int {
        pos > 0 ? tokens[Int(sig[pos - 1])].end : current.start
    }

    var currentText: String { source.text(current.range) }

    /// Whether a lexical error (an unexpected character, already reported) lies between the
    /// previous token and the current one.
    var followsLexicalError: Bool {
        let from = pos > 0 ? Int(sig[pos - 1]) + 1 : 0
        return tokens[from..<Int(sig[pos])].contains { $0.kind == .unknown }
    }

    func describeCurrent() -> String { describe(at: pos) }

    var unwinding: Bool { unwindAt != nil }

    mutating func report(_ range: Range<Int>, _ message: String, related: [RelatedLocation] = [],
                         repair: SyntaxError.Repair? = nil) {
        if pos == lastErrorAt { return }
        lastErrorAt = pos
        diagnostics.append(SyntaxError.diagnostic(file: file, range: range, message: message, related: related, repair: repair))
    }

    /// A missing token: zero-width after the previous token. Silent while blocks unwind.
    mutating func expected(_ what: String, related: [RelatedLocation] = []) {
        guard !unwinding else { return }
        let found = atEOF ? "" : ", found \(describeCurrent())"
        report(previousEnd..<previousEnd, "expected \(what)\(found)", related: related)
    }

    // MARK: Layout for recovery

    func indentation(ofLineContaining offset: Int) -> Int {
        var i = source.lineStart(containing: offset)
        var n = 0
        while i < source.count && (source.bytes[i] == 0x20 || source.bytes[i] == 0x09) {
            i += 1
            n += 1
        }
        return n
    }

    func column(_ token: Token) -> Int {
        token.start - source.lineStart(containing: token.start)
    }

    /// True when the current token closes every open block (see the type's doc comment).
    func atBlockCloser(blockHasBuilder: Bool) -> Bool {
        if atEOF { return true }
        if let u = unwindAt { return u == pos }
        let tok = current
        guard tok.startsLine, tok.kind.startsDeclaration else { return false }
        if tok.kind != .kwScreen { return true }
        guard layoutRecovery else { return false }
        let col = column(tok)
        if col < (openBraces.last?.indent ?? 0) { return true }
        return col == 0 && blockHasBuilder
    }

    /// Reports the missing `}` of the innermost open block once and starts unwinding.
    mutating func missingBrace(_ brace: Int) {
        guard !unwinding else { return }
        let related = [RelatedLocation(file: file, range: tokens[brace].range, message: "unclosed `{`")]
        let found = atEOF ? "" : ", found \(describeCurrent())"
        report(previousEnd..<previousEnd, "expected `}`\(found)", related: related)
        unwindAt = pos
    }

    // MARK: File

    mutating func parseFile() -> SyntaxTree {
        open(.sourceFile)
        while !atEOF {
            unwindAt = nil
            openBraces.removeAll()
            if kind.startsDeclaration {
                declaration()
            } else {
                topLevelGarbage()
            }
        }
        // The end-of-file token belongs to the file node.
        events.append(.advance)
        close()
        return buildTree()
    }

    mutating func topLevelGarbage() {
        if declarationWithoutKeyword() || letBinding() { return }
        let what: String
        switch kind {
        case .kwAnyOf, .kwConditional, .kwIf, .kwWildcard, .kwEmpty:
            what = "\(describeCurrent()) is a builder: it belongs inside `root { }` or a `builder`"
        case .rBrace:
            what = "unexpected `}`: no block is open here"
        default:
            what = topLevelMessage()
        }
        // `let home = screen Home { … }`: the binding goes on to the end of its line and its
        // braces, whatever keywords it holds.
        let binding = at(.kwLet) || (at(.identifier) && currentText == "var" && peekKind() == .identifier)
        report(current.range, what)
        let start = current.start
        open(.error)
        var depth = 0
        repeat {
            if kind == .lBrace { depth += 1 }
            if kind == .rBrace && depth > 0 { depth -= 1 }
            advance()
        } while !atEOF && !(kind.startsDeclaration && (binding
            ? current.startsLine && (depth == 0 || kind != .kwScreen)
            : depth == 0 || current.startsLine))
        close()
        garbage.append(start..<current.start)
    }

    mutating func declaration() {
        switch kind {
        case .kwImport:
            open(.importDecl)
            advance()
            if at(.string) {
                advance()
            } else {
                expected("a file path string after `import`")
            }
            close()
        case .kwScreen:
            screenDeclaration()
        case .kwDependency:
            valueDeclaration(.dependencyDecl)
        case .kwOptional:
            valueDeclaration(.optionalDecl)
        case .kwFlag:
            open(.flagDecl)
            advance()
            let n = at(.identifier) ? currentText : nil
            name("a flag name")
            declarationTail(.flagDecl, name: n)
            close()
        case .kwBuilder:
            open(.builderDecl)
            advance()
            if name("a builder name") || at(.lBrace) {
                block()
            }
            close()
        case .kwRoot:
            open(.rootDecl)
            advance()
            block()
            close()
        default:
            topLevelGarbage()
        }
    }

    /// Expects an identifier used as a name. A keyword on the same line is reported and
    /// skipped, but for a declaration keyword, which is left to start the next declaration
    /// (`flag flag x` keeps `flag x`); otherwise the name is reported missing. Where an
    /// unexpected character stood for the name (`flag 😀`), its error is the only one.
    @discardableResult
    mutating func name(_ what: String) -> Bool {
        if at(.identifier) {
            advance()
            return true
        }
        if kind.startsDeclaration && !current.startsLine && !unwinding {
            if !followsLexicalError {
                report(current.range, "expected \(what), found keyword `\(currentText)` (a keyword cannot be a name)")
            }
            return false
        }
        if followsLexicalError { return false }
        if kind.isKeyword && !current.startsLine && !unwinding {
            report(current.range, "expected \(what), found keyword `\(currentText)` (a keyword cannot be a name)")
            open(.error)
            advance()
            close()
            return false
        }
        expected(what)
        return false
    }

    /// - Parameter keywordMissing: `screen` was left out (reported): the name comes first.
    mutating func screenDeclaration(keywordMissing: Bool = false) {
        open(.screenDecl)
        if !keywordMissing { advance() }
        name("a screen name")
        if at(.lParen) { parameterList() }
        if at(.kwPush) {
            open(.presentation)
            advance()
            close()
        } else if at(.kwSheet) {
            open(.presentation)
            advance()
            if at(.lParen) { sheetOptions() }
            close()
        }
        close()
    }

    mutating func sheetOptions() {
        let paren = Int(sig[pos])
        advance()
        var ok = false
        if at(.identifier) {
            if currentText != "allowsPush" {
                report(current.range, "unknown presentation option `\(currentText)`: `sheet` takes `allowsPush: true` or `allowsPush: false`")
                advance()
                skipInParens()
                return
            }
            advance()
            if at(.colon) {
                advance()
                if at(.kwTrue) || at(.kwFalse) {
                    advance()
                    ok = true
                } else {
                    expected("`true` or `false`")
                }
            } else {
                expected("`:` after `allowsPush`")
            }
        } else {
            expected("`allowsPush: true` or `allowsPush: false`")
        }
        if ok {
            if at(.rParen) {
                advance()
            } else {
                expected("`)`", related: [RelatedLocation(file: file, range: tokens[paren].range, message: "to match this `(`")])
            }
        } else {
            skipInParens()
        }
    }

    /// After an error inside `( )`: skip to the `)` if it is on this line.
    mutating func skipInParens() {
        var any = false
        while !atEOF && !at(.rParen) && !current.startsLine && !at(.lBrace) && !at(.rBrace) {
            if !any { open(.error); any = true }
            advance()
        }
        if any { close() }
        if at(.rParen) && !current.startsLine { advance() }
    }

    mutating func parameterList() {
        open(.parameterList)
        let paren = Int(sig[pos])
        advance()
        while true {
            if at(.rParen) {
                advance()
                break
            }
            if atEOF || (current.startsLine && kind.startsDeclaration && peekKind() != .colon) || at(.lBrace) || at(.rBrace) {
                expected("`)`", related: [RelatedLocation(file: file, range: tokens[paren].range, message: "to match this `(`")])
                break
            }
            if kind.isLabel {
                open(.parameter)
                advance()
                if at(.colon) {
                    advance()
                    type()
                } else {
                    expected("`:` and a type after the parameter label")
                    skipParameterGarbage()
                }
                close()
            } else {
                report(current.range, "expected a parameter (`label: Type`), found \(describeCurrent())")
                skipParameterGarbage()
            }
            if at(.comma) {
                advance()
            } else if kind.isLabel && peekKind() == .colon {
                // `(id: String name: String)`: the next parameter, without its comma.
                expected("`,` between parameters")
            } else if !at(.rParen) && !atEOF && !(current.startsLine && kind.startsDeclaration) && !at(.lBrace) && !at(.rBrace) {
                expected("`,` or `)`")
                skipParameterGarbage()
                if at(.comma) { advance() }
            }
        }
        close()
    }

    mutating func skipParameterGarbage() {
        var any = false
        while !atEOF && !at(.comma) && !at(.rParen) && !at(.lBrace) && !at(.rBrace)
            && !(current.startsLine && kind.startsDeclaration && peekKind() != .colon) {
            if !any { open(.error); any = true }
            advance()
        }
        if any { close() }
    }

    // `type()`: TypeParser.swift.

    /// - Parameter keywordMissing: `dependency` was left out (reported): the name comes first.
    mutating func valueDeclaration(_ k: SyntaxKind, keywordMissing: Bool = false) {
        open(k)
        let keyword = keywordMissing ? "dependency" : currentText
        if !keywordMissing { advance() }
        let nameText = at(.identifier) ? currentText : nil
        let named = name(k == .dependencyDecl ? "a dependency name" : "an optional name")
        if at(.colon) {
            advance()
            type()
        } else if named || !current.startsLine {
            expected("`: Type` after the \(keyword) name")
            if atTypeStart && !current.startsLine { type() }
        }
        if at(.kwFrom) {
            open(.fromClause)
            advance()
            name("a screen name after `from`")
            close()
        }
        declarationTail(k, name: nameText)
        close()
    }

    // MARK: Builders

    /// Parses `{ builder }`. Returns false when the `{` is missing (nothing else is parsed).
    @discardableResult
    mutating func block() -> Bool {
        open(.block)
        // Without its `{`, a block is read as if the `{` were there when a builder follows on
        // the same line, or on a later line indented more than the line that opens the block
        // (`root` on a line of its own, its body indented below): the one mistake is the
        // missing `{`. Such a block takes a `}` only on a line of its own, indented as that
        // line (where its own `}` would be), and ends silently otherwise.
        let brace: Int
        let virtual: Bool
        if at(.lBrace) {
            brace = Int(sig[pos])
            virtual = false
            advance()
            openBraces.append((brace, indentation(ofLineContaining: tokens[brace].start)))
        } else {
            expected("`{`")
            let opener = pos > 0 ? Int(sig[pos - 1]) : Int(sig[pos])
            let indent = indentation(ofLineContaining: tokens[opener].start)
            guard !unwinding, kind.startsBuilder, !atBlockCloser(blockHasBuilder: false),
                  !current.startsLine || indentation(ofLineContaining: current.start) > indent else {
                close()
                return false
            }
            brace = opener
            virtual = true
            openBraces.append((opener, indent))
        }
        defer { openBraces.removeLast() }
        if virtual {
            builder()
            if at(.rBrace) && current.startsLine && column(current) == openBraces[openBraces.count - 1].indent {
                advance()
            }
            close()
            return true
        }

        // The one builder.
        if at(.rBrace) {
            report(current.range,
                   "a block cannot be empty: it holds exactly one builder (write `empty` for one that builds nothing)")
            advance()
            close()
            return true
        }
        if !atBlockCloser(blockHasBuilder: false) && !kind.startsBuilder {
            skipGarbage("expected a builder, found \(describeCurrent())", stopAtBuilder: true, blockHasBuilder: false)
        }
        let oneBuilder = pos
        if !atBlockCloser(blockHasBuilder: false) && kind.startsBuilder {
            builder()
        }
        // After it: only `}`.
        var reportedExtra = false
        while true {
            if at(.rBrace) {
                advance()
                break
            }
            if atBlockCloser(blockHasBuilder: true) {
                missingBrace(brace)
                break
            }
            if kind.startsBuilder && layoutRecovery && !reportedExtra && !unwinding && closesByIndentation(brace) {
                // A builder on a line of its own, indented as the line that opened this
                // block: the `}` above it is missing (`screen Results { empty` and the next
                // branch below it). This block ends here; the builder belongs to the
                // enclosing one, so the `}`s below still match their blocks.
                let (message, related) = extraBuilderMessage(blockBrace: brace, oneBuilder: oneBuilder)
                report(current.range, message, related: related)
                break
            }
            if kind.startsBuilder {
                if !reportedExtra && !unwinding {
                    let (message, related) = extraBuilderMessage(blockBrace: brace, oneBuilder: oneBuilder)
                    report(current.range, message, related: related, repair: missesCommaInUses ? .insertComma : nil)
                    reportedExtra = true
                }
                open(.error)
                builder()
                close()
            } else {
                skipGarbage("expected `}`, found \(describeCurrent())", stopAtBuilder: false, blockHasBuilder: true)
            }
        }
        close()
        return true
    }

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

    /// - Parameter afterElse: the builder is the `if` of an `else if`, already reported: its
    ///   own recovery (a missing `let` or `screen`) is silent.
    mutating func builder(afterElse: Bool = false) {
        if depth >= maxDepth {
            tooDeep()
            return
        }
        depth += 1
        defer { depth -= 1 }
        switch kind {
        case .kwScreen:
            screenBuilder()
        case .kwAnyOf:
            anyOf()
        case .kwConditional:
            open(.conditionalBuilder)
            advance()
            let flagName = at(.identifier) ? currentText : nil
            condition(.flag)
            if block() {
                if at(.kwElse) {
                    elseClause()
                } else if !unwinding {
                    report(previousEnd..<previousEnd, conditionalWithoutElseMessage(flag: flagName), repair: .insertElseEmpty)
                }
            }
            close()
        case .kwIf:
            let next = peekKind()
            var nested = 0
            if next == .kwLet || next == .kwScreen {
                open(next == .kwLet ? .ifLetBuilder : .ifScreenBuilder)
                advance()
                advance()
                condition(next == .kwLet ? .optional : .screen)
                if next == .kwLet { nested = nestedIfLets() }
            } else {
                // Recover as an `if let` (without `let`, so that the model reads its name as
                // any condition: a flag may have been meant, and its kind is not checked): one
                // error, and the name and blocks still parse.
                open(.ifLetBuilder)
                advance()
                if !afterElse && !unwinding { report(previousEnd..<previousEnd, ifWithoutLetMessage()) }
                if at(.identifier) && !current.startsLine { advance() }
            }
            if block() && at(.kwElse) {
                elseClause()
            }
            for _ in 0..<nested {
                close()
                close()
            }
            close()
        case .kwWildcard:
            open(.wildcardBuilder)
            advance()
            let screenName = at(.identifier) ? currentText : nil
            name("a screen name after `wildcard`")
            if let screenName, at(.lParen) && !current.startsLine { wildcardArguments(screen: screenName) }
            block()
            close()
        case .kwEmpty:
            open(.emptyBuilder)
            advance()
            close()
        case .identifier where atScreenWithoutKeyword:
            screenBuilder(keywordMissing: true)
        case .identifier:
            open(.referenceBuilder)
            advance()
            close()
        default:
            // Callers only call this at a token that starts a builder.
            skipGarbage("expected a builder, found \(describeCurrent())", stopAtBuilder: false, blockHasBuilder: true)
        }
    }

    mutating func elseClause() {
        open(.elseClause)
        advance()
        if at(.kwIf) && !unwinding {
            report(current.range, elseIfMessage())
            builder(afterElse: true)
        } else {
            if kind.startsBuilder && !current.startsLine && !unwinding {
                // `else conditional g { … }`: read as if the block's `{` were there.
                report(previousEnd..<previousEnd, "expected `{` after `else`: an `else` takes a block, `else { \(currentText) … }`")
            }
            block()
        }
        close()
    }

    /// - Parameter keywordMissing: the node is a name followed by `uses`, `(` or `{` (see
    ///   `atScreenWithoutKeyword`): one error, then it is read as the screen node it is.
    mutating func screenBuilder(keywordMissing: Bool = false) {
        if keywordMissing && !unwinding {
            let n = currentText
            let message = peekKind() == .lParen
                ? "expected `screen` before `\(n)`: a screen node is written `screen \(n)`, without arguments (they belong in paths)"
                : peekKind() == .lBrace
                ? "expected `screen` before `\(n)`: a nesting block follows a screen node, `screen \(n) { … }`"
                : "expected `screen` before `\(n)`: a screen node is written `screen \(n) uses …`"
            report(current.range, message)
        }
        open(.screenBuilder)
        if !keywordMissing { advance() }
        name("a screen name after `screen`")
        if at(.lParen) && !current.startsLine { screenArguments(silently: keywordMissing) }
        if at(.kwUses) {
            open(.usesClause)
            advance()
            while true {
                if at(.identifier) {
                    advance()
                    usesEnd = pos
                } else {
                    if !unwinding {
                        if kind.isKeyword && !current.startsLine && !atBlockCloser(blockHasBuilder: false) {
                            report(current.range, "expected a dependency or optional name, found keyword `\(currentText)`")
                            open(.error)
                            advance()
                            close()
                        } else {
                            expected("a dependency or optional name")
                        }
                    }
                    break
                }
                if at(.comma) {
                    advance()
                } else {
                    break
                }
            }
            close()
        }
        if at(.lBrace) {
            block()
        }
        close()
    }

    /// Arguments after a screen node's name (`screen Detail(id: "42")`, as a path writes
    /// them): one error, and everything up to the matching `)` on the same line is skipped
    /// (braces inside included), so that the node and what follows still parse.
    mutating func screenArguments(silently: Bool = false) {
        if !silently {
            report(current.range, "a `screen` node takes no arguments: they belong in paths (`Detail(id: \"42\")`), not in the routing tree")
        }
        skipArguments()
    }

    /// Arguments after a wildcard's screen (`wildcard Tabs(selected: 0)`): one error, skipped
    /// as a screen node's are. A wildcard builds its screen with no arguments at all, so the
    /// screen must have no parameters (the model does not report `invalid-wildcard` again).
    mutating func wildcardArguments(screen: String) {
        report(current.range, "a `wildcard` takes no arguments: it puts `\(screen)()` in the element's place, so `\(screen)` must be a screen without parameters")
        skipArguments()
    }

    /// Skips everything up to the matching `)` on the same line (braces inside included).
    mutating func skipArguments() {
        let start = current.start
        open(.error)
        var depth = 0
        repeat {
            if kind == .lParen { depth += 1 }
            if kind == .rParen { depth -= 1 }
            advance()
        } while depth > 0 && !atEOF && !current.startsLine
        close()
        garbage.append(start..<current.start)
    }

    mutating func anyOf() {
        open(.anyOfBuilder)
        advance()
        guard at(.lBrace) else {
            expected("`{` after `anyOf`")
            close()
            return
        }
        let brace = Int(sig[pos])
        advance()
        openBraces.append((brace, indentation(ofLineContaining: tokens[brace].start)))
        defer { openBraces.removeLast() }
        var branches = 0
        while true {
            if at(.rBrace) {
                if branches == 0 {
                    report(tokens[brace].start..<current.end, "`anyOf` needs at least one branch (write `empty` for none)")
                }
                advance()
                break
            }
            if atBlockCloser(blockHasBuilder: false) {
                missingBrace(brace)
                break
            }
            if kind.startsBuilder {
                builder()
                branches += 1
            } else {
                skipGarbage("expected a builder or `}`, found \(describeCurrent())", stopAtBuilder: true, blockHasBuilder: false)
            }
        }
        close()
    }

    // MARK: Tree

    func buildTree() -> SyntaxTree {
        var nodes: [SyntaxTree.NodeData] = []
        nodes.reserveCapacity(events.count / 3 + 1)
        var stack: [Int] = []
        var sigPos = 0
        var cursor: Int32 = 0  // token index just after the last consumed token
        for event in events {
            switch event {
            case .open(let k):
                stack.append(nodes.count)
                nodes.append(.init(kind: k, tokenStart: -1, tokenEnd: -1, subtreeEnd: -1))
            case .advance:
                let s = sig[sigPos]
                sigPos += 1
                var j = stack.count - 1
                while j >= 0 && nodes[stack[j]].tokenStart == -1 {
                    nodes[stack[j]].tokenStart = s
                    j -= 1
                }
                cursor = s + 1
            case .close:
                let idx = stack.removeLast()
                if nodes[idx].tokenStart == -1 {
                    // An empty node: it and its still-empty ancestors start here.
                    var j = stack.count
                    var k = idx
                    while true {
                        nodes[k].tokenStart = cursor
                        j -= 1
                        if j < 0 || nodes[stack[j]].tokenStart != -1 { break }
                        k = stack[j]
                    }
                }
                nodes[idx].tokenEnd = max(cursor, nodes[idx].tokenStart)
                nodes[idx].subtreeEnd = Int32(nodes.count)
            }
        }
        if !nodes.isEmpty {
            nodes[0].tokenStart = 0
            nodes[0].tokenEnd = Int32(tokens.count)
        }
        // An unexpected character inside a run the parser already reported is the same mistake.
        var kept = diagnostics
        if !garbage.isEmpty {
            // (Unknown tokens are unexpected characters, or invalid UTF-8, a mistake of its own.)
            let invalid = Set(source.invalidUTF8.map(\.lowerBound))
            let unexpected = Set(tokens.lazy.filter { $0.kind == .unknown && !invalid.contains($0.start) && !explained.contains($0.start) }.map(\.start))
            kept = diagnostics.filter { d in
                !(unexpected.contains(d.range.lowerBound) && garbage.contains { $0.contains(d.range.lowerBound) })
            }
        }
        let sorted = kept.enumerated().sorted {
            ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
        }.map(\.element)
        // Reserved at a bound from the events; kept with the tree for as long as the file is.
        nodes.dropUnusedCapacity()
        return SyntaxTree(source: source, tokens: tokens, nodes: nodes, diagnostics: sorted)
    }
}
