/// Recovery for what people write out of habit from Swift and other languages: `&&`, `||`,
/// `!` and `==` in conditions, `if let a, let b`, `else if`, `flag f = true`, `let` bindings,
/// a forgotten `screen` or `builder` keyword, a missing comma, a `}` on the wrong line.
///
/// Each is one syntax error (`SyntaxError`) whose message says what the language has instead. The text is
/// then read as meant where that is clear (`if let a, let b` as an `if let` nested in
/// another, `Home uses appStore` as a screen node, `Home` at the start of a line as a screen
/// declaration), and skipped otherwise (an error node, whose names the model keeps so that
/// nothing they name is reported unused), so that nothing else is reported for the mistake.
extension Parser {
    /// The kind of name a condition takes.
    enum ConditionKind {
        case flag, optional, screen

        var expected: String {
            switch self {
            case .flag: return "a flag name after `conditional`"
            case .optional: return "an optional name after `if let`"
            case .screen: return "a screen name after `if screen`"
            }
        }

        /// The words that start the builder.
        var keyword: String {
            switch self {
            case .flag: return "conditional"
            case .optional: return "if let"
            case .screen: return "if screen"
            }
        }

        /// What the name stands for.
        var role: String {
            switch self {
            case .flag: return "flag"
            case .optional: return "optional"
            case .screen: return "screen"
            }
        }
    }

    // MARK: Tokens the parser does not see

    /// The lexer's unknown-character tokens (each already reported) just before the
    /// significant token at `position`.
    func unknownTokens(before position: Int) -> [Int] {
        guard position < significant.count else { return [] }
        let from = position > 0 ? Int(significant[position - 1]) + 1 : 0
        var out: [Int] = []
        for token in from..<Int(significant[position]) where tokens[token].kind == .unknown { out.append(token) }
        return out
    }

    /// Whether there is an unknown-character token just before the significant token at
    /// `position` (as `unknownTokens(before:)`, without making an array: every condition asks).
    func hasUnknownToken(before position: Int) -> Bool {
        guard position < significant.count else { return false }
        var token = position > 0 ? Int(significant[position - 1]) + 1 : 0
        while token < Int(significant[position]) {
            if tokens[token].kind == .unknown { return true }
            token += 1
        }
        return false
    }

    /// Whether two byte offsets lie on one line.
    func onOneLine(_ first: Int, _ second: Int) -> Bool {
        source.lineStart(containing: first) == source.lineStart(containing: second)
    }

    /// The text of `token` (an index into `tokens`).
    func text(ofToken token: Int) -> String { source.text(tokens[token].range) }

    /// The text of the significant token at `position`.
    func text(at position: Int) -> String { source.text(token(at: position).range) }

    /// The text of the name at `position` (an `identifierPosition`), or `placeholder` when
    /// there was none: what a message quotes for a name it may lack.
    func text(at position: Int?, or placeholder: String) -> String { position.map { text(at: $0) } ?? placeholder }

    /// Reports `message` at the unknown-character token `unknown` in place of the lexer's
    /// error for it: the same mistake, explained. A token the lexer did not report (an
    /// operator of the type syntax, `&`) gets a new error over it through `last`.
    mutating func explain(unknown: Int, through last: Int? = nil, _ message: String, repair: SyntaxError.Repair? = nil) {
        guard !unwinding, pos != lastErrorAt else { return }
        let start = tokens[unknown].start
        // The lexer reported the token as unexpected characters, unless it is invalid UTF-8.
        let invalid = source.invalidUTF8.contains { $0.lowerBound == start }
        explained.insert(start)
        if tokens[unknown].kind == .unknown, !invalid,
           let reported = diagnostics.firstIndex(where: { $0.range.lowerBound == start }) {
            diagnostics[reported].message = message
            if let repair { diagnostics[reported].detail = DiagnosticDetail(repair) }
        } else {
            diagnostics.append(SyntaxError.diagnostic(file: file, range: start..<tokens[last ?? unknown].end, message: message, repair: repair))
        }
        lastErrorAt = pos
    }

    /// Skips the significant tokens before position `end` as one error node. The lexer's
    /// errors from byte `from` up to the next token are part of the mistake already reported.
    mutating func skipSilently(to end: Int, droppingLexicalErrorsFrom from: Int) {
        if pos < end {
            open(.error)
            while pos < end && !atEOF { advance() }
            close()
        }
        if from < current.start { garbage.append(from..<current.start) }
    }

    /// Skips the rest of the current line (from significant token `pos` on) as one error node.
    mutating func skipRestOfLine(droppingLexicalErrorsFrom from: Int) {
        var end = pos
        while end < significant.count - 1 && !token(at: end).startsLine { end += 1 }
        skipSilently(to: end, droppingLexicalErrorsFrom: from)
    }

    // MARK: Conditions

    /// The condition after `conditional`, `if let` or `if screen`: one name. A condition
    /// written as an expression up to its block's `{` (`f && g`, `!f`, `f == true`,
    /// `o != nil`, `is logged in`) is one error that says what to write instead, and is
    /// skipped: the builder then tests an unknown condition, so both of its blocks are
    /// analysed and nothing about the condition is reported again. An `if let` keeps its
    /// first name, and `if let x = o` is read as `if let o`, so that the optional is in scope
    /// in its block. (`if let a, let b` stops before the comma: see `nestedIfLets`.)
    mutating func condition(_ kind: ConditionKind) {
        guard !unwinding else {
            name(kind.expected)
            return
        }
        let end = expressionEnd(kind)
        if isPlainName(upTo: end) {
            name(kind.expected)
            if kind == .optional && at(.question) && current.start == previousEnd && peekKind() == .lBrace { unwrapMark() }
            return
        }
        if kind == .optional && end == pos + 1 && token(at: end).kind == .lBrace && at(.identifier),
           case let marks = unknownTokens(before: end), marks.count == 1, text(ofToken: marks[0]) == "!", tokens[marks[0]].start == current.end {
            // `if let draft! {`: the lexer's error for the `!`, explained.
            let optional = currentText
            name(kind.expected)
            explain(unknown: marks[0], "no `!` after the optional's name: `if let \(optional) { … }` builds its block where `\(optional)` is present, and it is in scope there",
                    repair: .remove)
            return
        }
        let operators = expressionOperators(upTo: end)
        let names = (pos..<end).filter { token(at: $0).kind == .identifier }.map { text(at: $0) }
        // `if let x = o`: Swift's binding; the language keeps the optional's own name.
        if kind == .optional, end - pos == 2, names.count == 2, operators.texts == ["="],
           unknownTokens(before: pos + 1) == operators.starts {
            explain(unknown: operators.starts[0],
                    "there are no `let` bindings: write `if let \(names[1]) { … }`; inside its block the optional is in scope as `\(names[1])`")
            skipSilently(to: pos + 1, droppingLexicalErrorsFrom: current.start)
            name(kind.expected)
            return
        }
        let start = min(operators.starts.first.map { tokens[$0].start } ?? current.start, current.start)
        guard reportExpression(kind, upTo: end, operators: operators, firstName: names.first) else {
            // Characters that belong to no condition (`;`, `@`): the lexer's error is enough.
            name(kind.expected)
            return
        }
        // An `if let` keeps its first name: the optional is in scope in its block as the
        // `uses` there expect (an unknown condition would put nothing in scope).
        if kind == .optional && at(.identifier) { advance() }
        skipSilently(to: end, droppingLexicalErrorsFrom: start)
    }

    /// At a `?` glued after the optional's name of an `if let` (`if let draft? {`): one
    /// error, whose fix removes it; skipped.
    @inline(never)
    mutating func unwrapMark() {
        let optional = text(at: pos - 1)
        report(current.range, "no `?` after the optional's name: `if let \(optional) { … }` builds its block where `\(optional)` is present, and it is in scope there",
               repair: .remove)
        skipAsError()
    }

    /// The significant position where a condition's expression ends: names, literals and
    /// brackets on this line, up to the `{`.
    func expressionEnd(_ kind: ConditionKind) -> Int {
        var end = pos
        scan: while end < significant.count - 1 {
            let next = token(at: end)
            if next.kind == .lBrace || (end > pos && next.startsLine) { break }
            switch next.kind {
            case .identifier, .kwTrue, .kwFalse, .lParen, .rParen, .dot, .number, .string: end += 1
            // Operators that are tokens of the type syntax (`&`, `<`, `>`, `->`).
            case .ampersand, .lAngle, .rAngle, .arrow: end += 1
            case .comma where kind != .optional: end += 1
            default: break scan
            }
        }
        return end
    }

    /// Whether significant token `position` is an operator of the type syntax (`&`, `<`, `>`,
    /// `->`).
    func isTypeOperator(_ position: Int) -> Bool {
        [TokenKind.ampersand, .lAngle, .rAngle, .arrow].contains(token(at: position).kind)
    }

    /// Whether the condition up to `end` is the usual case, a name alone (or not closed by
    /// its block's `{`), without operators: known without making arrays.
    func isPlainName(upTo end: Int) -> Bool {
        let closed = token(at: end).kind == .lBrace
        guard end - pos <= 1 || !closed else { return false }
        return !(pos...end).contains { hasUnknownToken(before: $0) || ($0 < end && isTypeOperator($0)) }
    }

    /// The operators of a condition written as an expression, each by its first and last
    /// token, and its text.
    struct ExpressionOperators {
        var starts: [Int] = []
        var ends: [Int] = []
        var texts: [String] = []
    }

    /// The operators of the expression up to `end`: unknown characters and operator tokens,
    /// those that touch one another as one (`&&` is two `&` tokens, `>=` a `>` and an unknown
    /// `=`).
    func expressionOperators(upTo end: Int) -> ExpressionOperators {
        var pieces: [Int] = []
        for position in pos...end {
            pieces += unknownTokens(before: position)
            if position < end && isTypeOperator(position) { pieces.append(Int(significant[position])) }
        }
        var operators = ExpressionOperators()
        for piece in pieces {
            if let last = operators.ends.last, tokens[last].end == tokens[piece].start {
                operators.ends[operators.ends.count - 1] = piece
            } else {
                operators.starts.append(piece)
                operators.ends.append(piece)
            }
        }
        operators.texts = zip(operators.starts, operators.ends).map { source.text(tokens[$0].start..<tokens[$1].end) }
        return operators
    }

    /// Reports a condition written as an expression with what to write instead, by its first
    /// combination (`&&`, `||`, `,`, `and`, `or`), else comparison, else negation, else
    /// parentheses or a second word. False, reporting nothing, when its only operators are
    /// characters that belong to no condition.
    mutating func reportExpression(_ kind: ConditionKind, upTo end: Int, operators: ExpressionOperators,
                                   firstName: String?) -> Bool {
        if let index = operators.texts.firstIndex(where: { $0.contains("&") || $0.contains("|") }) {
            explain(unknown: operators.starts[index], through: operators.ends[index], combinationMessage(kind, operators.texts[index]))
        } else if let word = (pos..<end).first(where: { position in
            let word = token(at: position)
            return position > pos && (word.kind == .comma || (word.kind == .identifier && ["and", "or"].contains(text(at: position))))
        }) {
            report(token(at: word).range, combinationMessage(kind, text(at: word)))
        } else if let index = operators.texts.firstIndex(where: { $0.contains("=") }) {
            explain(unknown: operators.starts[index], through: operators.ends[index],
                    comparisonMessage(kind, operators.texts[index], firstName: firstName))
        } else if let index = operators.texts.firstIndex(where: { $0.hasPrefix("!") }) {
            explain(unknown: operators.starts[index], negationMessage(kind, firstName: firstName))
        } else if !operators.starts.isEmpty {
            return false
        } else if at(.lParen) {
            report(current.range, "a condition is a name alone, without parentheses: write `\(kind.keyword) \(firstName ?? "…") { … }`")
        } else {
            let subject = firstName.map { "the \(kind.role) name `\($0)`" } ?? "the \(kind.role) name"
            report(token(at: pos + 1).range,
                   "expected `{` after \(subject), found \(describe(at: pos + 1)): `\(kind.keyword)` takes one \(kind.role) name")
        }
        return true
    }

    func combinationMessage(_ kind: ConditionKind, _ op: String) -> String {
        switch kind {
        case .flag:
            return "conditions take one flag (there is no `\(op)`): nest `conditional` blocks, or declare a flag for the combination"
        case .optional:
            return "`if let` unwraps one optional (there is no `\(op)`): nest `if let` blocks"
        case .screen:
            return "`if screen` tests one screen (there is no `\(op)`): nest `if screen` blocks in the else blocks, or list the cases in an `anyOf`"
        }
    }

    /// The message for a comparison (`f == true`, `o != nil`) in a condition.
    func comparisonMessage(_ kind: ConditionKind, _ op: String, firstName: String?) -> String {
        switch kind {
        case .flag:
            return "a condition is a flag's name alone (there is no `\(op)`): write `conditional \(firstName ?? "f") { … } else { … }`; the else block is what is built when it is false"
        case .optional:
            return "`if let \(firstName ?? "o")` is itself the test for nil (there is no `\(op)`): write `if let \(firstName ?? "o") { … } else { … }`; the else block is what is built without it"
        case .screen:
            return "`if screen \(firstName ?? "S")` is itself the test of the element (there is no `\(op)`): write `if screen \(firstName ?? "S") { … } else { … }`"
        }
    }

    /// The message for a negation (`!f`) in a condition.
    func negationMessage(_ kind: ConditionKind, firstName: String?) -> String {
        let what: String
        switch kind {
        case .flag: what = "what a `conditional` builds when its flag is false"
        case .optional: what = "what an `if let` builds when its optional is nil"
        case .screen: what = "what an `if screen` builds for any other screen"
        }
        return "there is no `!`: the else block is \(what); write `\(kind.keyword) \(firstName ?? "…") { … } else { … }` with the two blocks swapped"
    }

    /// How the significant token at `position` is named in messages (`describeCurrent()` for
    /// the current one).
    func describe(at position: Int) -> String {
        let kind = token(at: position).kind
        switch kind {
        case .identifier: return "`\(text(at: position))`"
        case .string: return "string \(text(at: position))"
        case .number: return "number `\(text(at: position))`"
        case .eof: return "end of file"
        case .attribute: return "attribute `\(text(at: position))`"
        default: return kind.isKeyword ? "keyword `\(text(at: position))`" : kind.display
        }
    }

    /// `if let a, let b` (or `if let a, b`), Swift's two unwraps in one `if`: one error, and
    /// each further name read as an `if let` nested in the block of the one before it (the
    /// block that follows belongs to the innermost), so that inside it every optional is in
    /// scope as written. Returns how many blocks it opened, each holding an `if let`: the
    /// caller closes both after the last block.
    mutating func nestedIfLets() -> Int {
        var count = 0
        while at(.comma) && !current.startsLine && !unwinding && depth + count < maxDepth {
            let next = peekKind()
            guard next == .kwLet || next == .identifier else { break }
            if count == 0 {
                let before = token(at: pos - 1)
                let after = token(at: min(pos + (next == .kwLet ? 2 : 1), significant.count - 1))
                let outer = before.kind == .identifier ? source.text(before.range) : "a"
                let inner = after.kind == .identifier ? source.text(after.range) : "b"
                report(current.range, "`if let` unwraps one optional: nest the blocks, `if let \(outer) { if let \(inner) { … } }`")
            }
            open(.block)
            open(.ifLetBuilder)
            open(.error)
            advance()
            close()
            if at(.kwLet) { advance() }
            condition(.optional)
            count += 1
        }
        return count
    }

    /// The message for `if` followed by neither `let` nor `screen`.
    func ifWithoutLetMessage() -> String {
        let found = atEOF ? "" : ", found \(describeCurrent())"
        guard at(.identifier) && !current.startsLine else { return "expected `let` or `screen` after `if`\(found)" }
        let nameText = currentText
        // (A capitalised name is a screen's, by the language's custom.)
        if let first = nameText.unicodeScalars.first, ("A"..."Z").contains(first) {
            return "expected `let` or `screen` after `if`\(found): whether the path's next screen is \(nameText) is tested with `if screen \(nameText) { … }`"
        }
        return "expected `let` or `screen` after `if`\(found): a flag is tested with `conditional \(nameText) { … } else { … }`, an optional with `if let \(nameText) { … }`"
    }

    /// The message for a `conditional` whose block is not followed by `else`.
    func conditionalWithoutElseMessage(flag: String?) -> String {
        let found = atEOF ? "" : ", found \(describeCurrent())"
        let when = flag.map { "when `\($0)` is false" } ?? "when the flag is false"
        let optional = flag.map { "; if `\($0)` is an optional, it is tested with `if let \($0) { … }`, which needs none" } ?? ""
        return "expected `else { ... }`\(found): a `conditional` needs both branches (`else { empty }` builds nothing \(when)\(optional))"
    }

    /// The message for `else if …` (the `if` is the current token).
    func elseIfMessage() -> String {
        let next = peekKind()
        let nameToken = token(at: min(pos + (next == .kwLet || next == .kwScreen ? 2 : 1), significant.count - 1))
        let nameText = nameToken.kind == .identifier ? source.text(nameToken.range) : "…"
        switch next {
        case .kwLet: return "there is no `else if`: nest the test in the else block, `else { if let \(nameText) { … } }`"
        case .kwScreen: return "there is no `else if`: nest the test in the else block, `else { if screen \(nameText) { … } }`"
        default:
            return "there is no `else if`: nest the test in the else block, `else { conditional \(nameText) { … } else { … } }` (`if let \(nameText)` for an optional)"
        }
    }

    // MARK: Declarations

    /// `= value` after a flag, dependency or optional (`flag f = true`), or a type after a
    /// flag (`flag f: Bool`), on the declaration's line: one error, and the rest of the line is
    /// skipped.
    mutating func declarationTail(_ kind: SyntaxKind, namePosition: Int?) {
        guard !unwinding else { return }
        var shownName: String { text(at: namePosition, or: "name") }
        if pos > 0, let eq = unknownTokens(before: pos).first(where: { text(ofToken: $0).hasPrefix("=") }),
           onOneLine(token(at: pos - 1).start, tokens[eq].start) {
            let message: String
            switch kind {
            case .flagDecl:
                message = "a flag has no value in the file: the app decides it at run time; declare it as `flag \(shownName)` (preview a path with it false: `routes tree --path PATH --flag \(shownName)=false`)"
            case .dependencyDecl:
                message = "a dependency has no value in the file: the app provides it; declare its name and type, `dependency \(shownName): Type`"
            default:
                message = "an optional has no value in the file: the app provides it, or nil; declare its name and type, `optional \(shownName): Type`"
            }
            explain(unknown: eq, message)
            skipRestOfLine(droppingLexicalErrorsFrom: tokens[eq].start)
        } else if kind == .flagDecl && at(.colon) && !current.startsLine {
            report(current.range, "a flag has no type: it is a condition, true or false at run time; declare it as `flag \(shownName)`")
            skipRestOfLine(droppingLexicalErrorsFrom: current.start)
        }
    }

    /// A line at top level that starts with a misspelt declaration keyword followed on its
    /// line by what that declaration takes (`scren Detail`, `flg isLoggedIn`, `buidler home {`,
    /// `improt "Settings.routes"`, `Root {`): one error that names the keyword, with a fix, and
    /// the line is read as that declaration, so that what it declares is declared. No valid
    /// program has a name at the start of a top-level line.
    mutating func misspeltDeclaration() -> Bool {
        guard at(.identifier), current.startsLine, !unwinding, pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        guard !next.startsLine else { return false }
        let word = Array(source.bytes[current.start..<current.end])
        let candidates: [String]
        switch next.kind {
        case .string: candidates = ["import"]
        case .lBrace: candidates = ["root"]
        // `roots: {`: the block after a `:` (one error of its own, skipped).
        case .colon where pos + 2 < significant.count && token(at: pos + 2).kind == .lBrace && !token(at: pos + 2).startsLine:
            candidates = ["root"]
        case .identifier: candidates = ["screen", "dependency", "optional", "flag", "builder"]
        default: return false
        }
        guard let meant = candidates.first(where: { Self.misspells(word, $0) }) else { return false }
        report(current.range, "expected a declaration, found `\(currentText)`: did you mean `\(meant)`?",
               repair: .replaceWithKeyword(meant))
        switch meant {
        case "import": importDeclaration(keyword: .misspelt)
        case "root": rootDeclaration(keyword: .misspelt)
        case "screen": screenDeclaration(keyword: .misspelt)
        case "dependency": valueDeclaration(.dependencyDecl, keyword: .misspelt)
        case "optional": valueDeclaration(.optionalDecl, keyword: .misspelt)
        case "flag": flagDeclaration(keyword: .misspelt)
        default: builderDeclaration(keyword: .misspelt)
        }
        return true
    }

    /// A block at the start of a line at top level. In a file without `root`, the routing
    /// tree's block without `root` (one error, with a fix that inserts it): read as the root.
    /// Else one error, and the block is read and skipped whole (what it names is neither
    /// unused nor never placed for that mistake).
    mutating func blockWithoutDeclaration() -> Bool {
        guard at(.lBrace), current.startsLine, !unwinding else { return false }
        if !hasRootKeyword {
            report(current.range, "expected a declaration, found `{`: the routing tree is declared as `root { … }`",
                   repair: .insertRoot)
            rootDeclaration(keyword: .missing)
            return true
        }
        report(current.range, "expected a declaration, found `{`: a block belongs to `root { … }` or to a named `builder NAME { … }`")
        let start = current.start
        open(.error)
        block()
        close()
        garbage.append(start..<current.start)
        return true
    }

    /// A line that starts with a name at top level: a declaration whose keyword is missing
    /// (`Home`, `Detail(id: String) sheet`, `home { … }`, `appStore: AppStore`). One error,
    /// and it is read as the screen, builder or dependency it declares, so that its uses
    /// resolve. Returns false for anything else.
    mutating func declarationWithoutKeyword() -> Bool {
        guard at(.identifier), current.startsLine, !unwinding else { return false }
        let nameText = currentText
        let next = token(at: min(pos + 1, significant.count - 1))
        let sameLine = !next.startsLine && next.kind != .eof
        if next.kind == .colon && sameLine {
            report(current.range, "expected a declaration, found `\(nameText)`: a dependency is declared as `dependency \(nameText): Type` (`optional` when it may be nil)")
            valueDeclaration(.dependencyDecl, keyword: .missing)
            return true
        }
        if next.kind == .lBrace {
            report(current.range, "expected a declaration, found `\(nameText)`: a named builder is declared as `builder \(nameText) { … }`")
            builderDeclaration(keyword: .missing)
            return true
        }
        // A name alone on its line is a screen's only when it is written as one (UpperCamel).
        let upper = currentText.first?.isUppercase == true
        if (!sameLine && upper) || next.kind == .lParen || next.kind == .kwSheet || next.kind == .kwPush {
            report(current.range, "expected a declaration, found `\(nameText)`: a screen is declared as `screen \(nameText)`")
            screenDeclaration(keyword: .missing)
            return true
        }
        return false
    }

    /// `let name = <builder>` or `let name = true` at top level (`var` too): one error, and it
    /// is read as the `builder` or `flag` it stands for, so that its uses resolve. Returns
    /// false for any other binding (see `topLevelMessage`).
    mutating func letBinding() -> Bool {
        guard at(.kwLet) || (at(.identifier) && currentIs("var")), peekKind() == .identifier,
              !unwinding, pos + 2 < significant.count else { return false }
        let nameText = text(at: pos + 1)
        let value = token(at: pos + 2)
        guard !value.startsLine else { return false }
        let isBuilder = value.kind == .lBrace || (value.kind.startsBuilder && value.kind != .identifier)
        guard isBuilder || value.kind == .kwTrue || value.kind == .kwFalse else { return false }
        report(current.range, isBuilder
            ? "there are no `let` bindings: a builder is named with `builder \(nameText) { … }`, and used by writing `\(nameText)` where it goes"
            : "there are no `let` bindings: a condition is declared as `flag \(nameText)`; the app decides its value at run time")
        open(isBuilder ? .builderDecl : .flagDecl)
        open(.error)
        advance()
        close()
        advance()
        // The `=` (an unknown character) is part of this mistake.
        garbage.append(token(at: pos - 1).end..<current.start)
        if !isBuilder {
            skipRestOfLine(droppingLexicalErrorsFrom: current.start)
        } else if at(.lBrace) {
            block()
        } else {
            open(.block)
            inAnyOfBranch = false
            builder()
            close()
        }
        close()
        return true
    }

    /// A declaration written as in Swift at the start of a line: `let api: APIClient` or
    /// `var api: APIClient` (a dependency), `func detail {` (a builder), `struct Home`,
    /// `class Home` or `enum Home` (a screen). One error at the Swift word, whose fix writes
    /// the language's keyword, and the declaration is read as the one meant, so that its
    /// uses resolve. Returns false for anything else.
    mutating func swiftDeclaration() -> Bool {
        guard current.startsLine, !unwinding, at(.kwLet) || at(.identifier), pos + 2 < significant.count else { return false }
        let name = token(at: pos + 1), after = token(at: pos + 2)
        guard name.kind == .identifier, !name.startsLine else { return false }
        let word = currentText, nameText = text(at: pos + 1)
        let afterOnLine = !after.startsLine && after.kind != .eof
        if (at(.kwLet) || word == "var") && after.kind == .colon && afterOnLine {
            report(current.range, "there are no `\(word)` bindings: a dependency is declared as `dependency \(nameText): Type` (`optional` when it may be nil)",
                   repair: .replaceWithKeyword("dependency"))
            valueDeclaration(.dependencyDecl, keyword: .misspelt)
            return true
        }
        if word == "func" && (after.kind == .lBrace || after.kind == .lParen) && afterOnLine {
            report(current.range, "expected a declaration, found `func`: a named builder is declared as `builder \(nameText) { … }`",
                   repair: .replaceWithKeyword("builder"))
            builderDeclaration(keyword: .misspelt)
            return true
        }
        let upper = name.start < source.bytes.count && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(source.bytes[name.start])
        if ["struct", "class", "enum"].contains(word) && upper && (!afterOnLine || after.kind == .lParen || after.kind == .kwSheet || after.kind == .kwPush) {
            report(current.range, "expected a declaration, found `\(word)`: a screen is declared as `screen \(nameText)`",
                   repair: .replaceWithKeyword("screen"))
            screenDeclaration(keyword: .misspelt)
            return true
        }
        if ["struct", "class", "enum"].contains(word) && upper && after.kind == .colon && afterOnLine,
           let last = conformancesEnd(from: pos + 3) {
            // `struct Detail: View`, a SwiftUI screen's declaration: one error over the line,
            // whose fix writes `screen Detail`; read as that declaration.
            report(current.start..<token(at: last).end, "expected a declaration, found `\(word)`: a screen is declared as `screen \(nameText)` (its view is the app's)",
                   repair: .replaceWithKeyword("screen \(nameText)"))
            open(.screenDecl)
            skipAsError()
            advance()
            open(.error)
            while pos <= last { advance() }
            close()
            close()
            return true
        }
        return false
    }

    /// From the first name after `struct Name:`: the position of the last token of a list of
    /// conformances (`View`, `SwiftUI.View, Hashable`) that ends its line, or nil.
    func conformancesEnd(from start: Int) -> Int? {
        var at = start
        var wantsName = true
        while at < significant.count && at < start + 32 {
            let t = token(at: at)
            if t.startsLine || t.kind == .eof { return wantsName ? nil : at - 1 }
            switch t.kind {
            case .identifier where wantsName: wantsName = false
            case .dot where !wantsName, .comma where !wantsName: wantsName = true
            default: return nil
            }
            at += 1
        }
        return nil
    }

    /// The message for what starts a line at top level and no declaration.
    func topLevelMessage() -> String {
        if at(.kwLet) || (at(.identifier) && currentIs("var") && peekKind() == .identifier) {
            return "there are no `let` bindings: declare a `builder`, `flag`, `dependency` or `optional` instead"
        }
        if at(.identifier) && currentIs("link") {
            return "a link declaration needs a name, a pattern and a path: `link item \"/items/{id}\" -> Home/Detail(id: id)`"
        }
        if at(.kwUses) && !current.startsLine && lineStartsWithScreen {
            // `screen Detail uses store` at the top level: a placement pasted out of the tree,
            // or a declaration given its dependencies.
            return "a screen's declaration has no `uses`: `uses` belongs to a `screen` node inside `root` or a builder (a screen's dependency is declared `dependency store: Store`, or `… from Screen` when that screen provides it)"
        }
        return "expected a declaration (`import`, `screen`, `dependency`, `optional`, `flag`, `builder`, `root` or `link`), found \(describeCurrent())"
    }

    /// Whether the current token's line starts with `screen`.
    var lineStartsWithScreen: Bool {
        var p = pos
        while p > 0 && !token(at: p).startsLine { p -= 1 }
        return token(at: p).kind == .kwScreen
    }

    // MARK: Builders

    /// A lowerCamel name followed by `()` on its line (`detail()`): a builder's reference
    /// written as a Swift call. (`Detail()` is a screen node without its keyword.)
    var atBuilderCall: Bool { builderCallEnd != nil }

    /// At a lowerCamel name glued to a `(` (`detail()`, `detail(store: store)`): the position
    /// of the `)` that closes it on the line, or nil.
    var builderCallEnd: Int? {
        guard at(.identifier), pos + 2 < significant.count,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(source.bytes[current.start]) else { return nil }
        let open = token(at: pos + 1)
        guard open.kind == .lParen, !open.startsLine, open.start == current.end else { return nil }
        var depth = 0
        var at = pos + 1
        while at < significant.count && at < pos + 64 {
            let t = token(at: at)
            if at > pos + 1 && t.startsLine { return nil }
            switch t.kind {
            case .lParen: depth += 1
            case .rParen:
                depth -= 1
                if depth == 0 { return at }
            case .lBrace, .rBrace, .eof: return nil
            default: break
            }
            at += 1
        }
        return nil
    }

    /// At `iflet` or `guard let` before a name on the line, where a builder goes: an `if let`
    /// written otherwise.
    var atIfLetWrittenOtherwise: Bool {
        guard at(.identifier), !unwinding, pos + 2 < significant.count else { return false }
        let next = token(at: pos + 1), after = token(at: pos + 2)
        // (`iflet store` in an `anyOf` may be two builders; with a block after it, it is not.)
        if currentIs("iflet") || currentIs("ifLet") { return next.kind == .identifier && !next.startsLine && after.kind == .lBrace && !after.startsLine }
        return currentIs("guard") && next.kind == .kwLet && !next.startsLine && after.kind == .identifier && !after.startsLine
    }

    /// A name in a builder position followed by `uses`, `(`, `{` or `as` on its line: a screen node
    /// without its `screen` keyword.
    var atScreenWithoutKeyword: Bool {
        guard at(.identifier), pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        guard !next.startsLine else { return false }
        if next.kind == .identifier && token(next, is: "as"), pos + 2 < significant.count {
            // `Detail as sheet`: `as` before a presentation follows only a screen node. In an
            // `anyOf`, `a as cover` may be three builders: there only before `push` or
            // `sheet`, which name none.
            let after = token(at: pos + 2)
            guard !after.startsLine else { return false }
            return inAnyOfBranch ? after.kind == .kwPush || after.kind == .kwSheet : isPresentationWord(after)
        }
        return next.kind == .kwUses || next.kind == .lParen || next.kind == .lBrace
    }

    /// Whether the current token starts a line indented as the (indented) line whose `{`
    /// opened the block: where that block's `}` would stand, so the `}` is missing above it.
    func closesByIndentation(_ blockBrace: Int) -> Bool {
        guard current.startsLine, tokens[blockBrace].kind == .lBrace else { return false }
        let opened = indentation(ofLineContaining: tokens[blockBrace].start)
        return opened > 0 && column(current) == opened
    }

    /// At `cover` or `popover` right after `screen NAME` on its line: the screen's name.
    var presentationWordAfterScreen: String? {
        guard isPresentationWord(current), current.kind == .identifier, !current.startsLine, pos >= 2,
              token(at: pos - 1).kind == .identifier, token(at: pos - 2).kind == .kwScreen else { return nil }
        return text(at: pos - 1)
    }

    /// Whether the current token is a name right after a `uses` list on its line, without a
    /// comma before it (`screen A uses a b`).
    var missesCommaInUses: Bool { at(.identifier) && !current.startsLine && pos == usesEnd }

    /// The message for a second builder in a block (the current token), which `blockEnd` found
    /// after `oneBuilder` (the significant position where the block's builder starts).
    /// With it, its range: zero-width where a token it says is missing was expected (after
    /// the token before), else over the builder.
    func extraBuilderMessage(blockBrace: Int, oneBuilder: Int) -> (String, [RelatedLocation], Range<Int>) {
        let missing = previousEnd..<previousEnd
        let generic = "a block holds exactly one builder: list several inside `anyOf { ... }`"
        // `screen A uses a b`: a name after a `uses` list without a comma.
        if missesCommaInUses {
            return ("expected `,` before `\(currentText)`: without it `\(currentText)` is read as a second builder, and a block holds exactly one (if it is a builder, list both inside `anyOf { ... }`)", [], missing)
        }
        // `screen Detail popover` in a block: the placement's presentation without `as`, or
        // a builder named `popover` (the fix, which inserts `as`, is not safe).
        if let screen = presentationWordAfterScreen {
            return ("a block holds exactly one builder: if `\(currentText)` is the presentation of this placement, write `screen \(screen) as \(currentText)`", [], current.range)
        }
        guard current.startsLine, pos > 0 else { return (generic, [], current.range) }
        // `anyOf { … screen A }` and the next branch on the line after: the `}` came early.
        let previous = token(at: pos - 1)
        if token(at: oneBuilder).kind == .kwAnyOf && previous.kind == .rBrace && !previous.startsLine {
            let line = source.line(containing: previous.start) + 1
            return ("this builder is outside the `anyOf`: the `}` at the end of line \(line) closed it; move that `}` to a line of its own after the last branch",
                    [RelatedLocation(file: file, range: previous.range, message: "this `}` closes the `anyOf`")], current.range)
        }
        // `screen A }` in a block, and this builder indented inside it (`closesEarly`).
        if pos - 1 == earlyBrace {
            let line = source.line(containing: previous.start) + 1
            return ("a block holds exactly one builder: list several inside `anyOf { ... }` (the `}` at the end of line \(line) does not end this block: its own `}` is below)",
                    [RelatedLocation(file: file, range: previous.range, message: "this `}` is inside the block")], current.range)
        }
        // A line indented as the line that opened the block, whose `}` is missing above it.
        if closesByIndentation(blockBrace) {
            let line = source.line(containing: tokens[blockBrace].start)
            let which = line == source.line(containing: previousEnd) ? "this one" : "line \(line + 1)"
            return ("expected `}` at the end of this line: the next line is indented as \(which), whose `{` is still open (a block holds exactly one builder)",
                    [RelatedLocation(file: file, range: tokens[blockBrace].range, message: "unclosed `{`")], missing)
        }
        return (generic, [], current.range)
    }

    /// The current builder's first words: its keyword and the name after it on its line
    /// (`screen Login`, `anyOf`, `detail`).
    var builderHead: String {
        guard pos + 1 < significant.count, kind.isKeyword, token(at: pos + 1).kind == .identifier, !token(at: pos + 1).startsLine
        else { return currentText }
        return currentText + " " + text(at: pos + 1)
    }

    // MARK: Misspelt keywords

    /// Advances past a builder's keyword; a misspelling read in its place (reported) is kept
    /// in an error node, so that the model does not read it as the builder's name.
    mutating func keyword() {
        if at(.identifier) {
            skipAsError()
        } else {
            advance()
        }
    }

    /// Advances past the current token, kept in an error node of its own: in the tree, read
    /// by nothing in the model (a mistake already reported).
    mutating func skipAsError() {
        open(.error)
        advance()
        close()
    }

    /// A keyword where a name goes (`screen root`, `uses screen`, `link root "/"`): one error,
    /// and the keyword is skipped, so that what follows it reads on.
    mutating func keywordAsName(_ what: String) {
        report(current.range, "expected \(what), found keyword `\(currentText)` (a keyword cannot be a name)")
        skipAsError()
    }

    /// The builder keyword the current name misspells, when what follows on its line is what
    /// that keyword takes: `anyof {`, `conditonal f {`, `wildcrd Tabs {`, `iff let o`. No valid
    /// program has a name followed by `{`, by a name and `{`, or by `let`, so the reading
    /// changes none. A misspelt `screen` is read
    /// so before a name followed by what only a screen node takes (`scren Home {`, `scren
    /// Home uses store`), and in a block's one builder before a screen's name too (`scren
    /// Home`): two names on a line are two references in an `anyOf`.
    var misspeltBuilderKeyword: TokenKind? {
        guard at(.identifier), pos + 1 < significant.count else { return nil }
        let next = token(at: pos + 1)
        guard !next.startsLine else { return nil }
        let word = Array(source.bytes[current.start..<current.end])
        if next.kind == .identifier, pos + 2 < significant.count, token(at: pos + 2).kind == .lBrace,
           !token(at: pos + 2).startsLine, Self.misspells(word, "conditional") {
            return .kwConditional
        }
        if next.kind == .identifier, pos + 2 < significant.count, token(at: pos + 2).kind == .lBrace,
           !token(at: pos + 2).startsLine, Self.misspells(word, "wildcard") {
            return .kwWildcard
        }
        // (`iff screen A` in an `anyOf` is two branches when `iff` is a builder.)
        if (next.kind == .kwLet || next.kind == .kwScreen && !inAnyOfBranch) && Self.misspells(word, "if") { return .kwIf }
        if next.kind == .lBrace && Self.misspells(word, "anyOf") { return .kwAnyOf }
        if next.kind == .identifier && Self.misspells(word, "screen") {
            // A name followed by what only a screen node takes on its line (`uses`, `(`,
            // `{`); as a block's one builder, also a screen's name (UpperCamel) or `as`,
            // since two names there are no valid program either.
            let after = pos + 2 < significant.count ? token(at: pos + 2) : next
            let sameLine = after.start != next.start && !after.startsLine
            if sameLine && (after.kind == .kwUses || after.kind == .lParen || after.kind == .lBrace) { return .kwScreen }
            if !inAnyOfBranch && ((0x41...0x5A).contains(source.bytes[next.start]) || sameLine && token(after, is: "as")) {
                return .kwScreen
            }
        }
        return nil
    }

    /// At `if`: the keyword that the name after it misspells, `let` or `screen`, when a name
    /// follows it on the line (`if lett draft {`, `if scren Help {`).
    var misspeltIfWord: TokenKind? {
        guard pos + 2 < significant.count else { return nil }
        let word = token(at: pos + 1), name = token(at: pos + 2)
        guard word.kind == .identifier, !word.startsLine, name.kind == .identifier, !name.startsLine else { return nil }
        let bytes = Array(source.bytes[word.start..<word.end])
        if Self.misspells(bytes, "let") { return .kwLet }
        if Self.misspells(bytes, "screen") { return .kwScreen }
        return nil
    }

    /// Whether the current name misspells `else` after a block, a block following it on its
    /// line (`} els {`).
    var atMisspeltElse: Bool {
        guard at(.identifier), !unwinding, pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        return next.kind == .lBrace && !next.startsLine
            && Self.misspells(Array(source.bytes[current.start..<current.end]), "else")
    }

    /// Whether `word` is a misspelling of `keyword`: not the keyword itself, at least three
    /// letters, and at most one edit away (two for keywords of six letters or more), where an
    /// edit is a letter added, left out or changed (a change of case too: `anyof`), or two
    /// neighbours swapped.
    public static func misspells(_ word: [UInt8], _ keyword: String) -> Bool {
        let target = Array(keyword.utf8)
        guard word.count >= 3, word != target else { return false }
        let limit = target.count >= 6 ? 2 : 1
        guard abs(word.count - target.count) <= limit else { return false }
        // Optimal string alignment distance, rows of the table.
        var before = [Int](repeating: 0, count: target.count + 1)
        var previous = Array(0...target.count)
        var row = [Int](repeating: 0, count: target.count + 1)
        for i in 1...word.count {
            row[0] = i
            for j in 1...target.count {
                let cost = word[i - 1] == target[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && word[i - 1] == target[j - 2] && word[i - 2] == target[j - 1] {
                    row[j] = min(row[j], before[j - 2] + 1)
                }
            }
            (before, previous, row) = (previous, row, before)
        }
        return previous[target.count] <= limit
    }
}
