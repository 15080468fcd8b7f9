/// Blocks and the builders they hold (docs/language.md, Builders): `screen`, `anyOf`,
/// `conditional`, `if let`, `if screen`, `wildcard`, `empty` and references to named builders.
extension Parser {
    /// Parses `{ builder }`. Returns false when the `{` is missing (nothing else is parsed).
    @discardableResult
    mutating func block() -> Bool {
        // (Taken here, whether or not the block is read: a later block is no then block.)
        let isThenBlock = readingThenBlock
        readingThenBlock = false
        open(.block)
        guard let opening = openBlock() else {
            close()
            return false
        }
        defer { openBraces.removeLast() }
        if opening.isVirtual {
            blockWithoutBrace()
        } else {
            blockBody(brace: opening.brace, isThenBlock: isThenBlock)
        }
        close()
        return true
    }

    /// Reads a block's `{` and pushes it on `openBraces`; nil when the block is not read.
    ///
    /// Without its `{`, a block is read as if the `{` were there when a builder follows on
    /// the same line, or on a later line indented more than the line that opens the block
    /// (`root` on a line of its own, its body indented below): the one mistake is the
    /// missing `{`. The token before stands for the `{` then (`isVirtual`).
    mutating func openBlock() -> (brace: Int, isVirtual: Bool)? {
        if at(.lBrace) {
            let brace = Int(significant[pos])
            advance()
            openBraces.append((brace, indentation(ofLineContaining: tokens[brace].start)))
            return (brace, false)
        }
        expected("`{`")
        let opener = pos > 0 ? Int(significant[pos - 1]) : Int(significant[pos])
        let indent = indentation(ofLineContaining: tokens[opener].start)
        guard !unwinding, kind.startsBuilder, !atBlockCloser(blockHasBuilder: false),
              !current.startsLine || indentation(ofLineContaining: current.start) > indent else {
            return nil
        }
        openBraces.append((opener, indent))
        return (opener, true)
    }

    /// The builder of a block without its `{`. It takes a `}` only on a line of its own,
    /// indented as the line that opens the block (where its own `}` would be), and ends
    /// silently otherwise.
    mutating func blockWithoutBrace() {
        inAnyOfBranch = false
        builder()
        if at(.rBrace) && current.startsLine && column(current) == openBraces[openBraces.count - 1].indent {
            advance()
        }
    }

    /// After a block's `{`: the one builder, then only `}`.
    mutating func blockBody(brace: Int, isThenBlock: Bool = false) {
        if atStrayBrace() { skipStrayBrace() }
        while atLinkInsideBlock { linkInsideBlock() }
        if at(.rBrace) {
            report(current.range,
                   "a block cannot be empty: it holds exactly one builder (write `empty` for one that builds nothing)")
            advance()
            return
        }
        if !atBlockCloser(blockHasBuilder: false) && !kind.startsBuilder {
            skipGarbage("expected a builder, found \(describeCurrent())", stopAtBuilder: true, blockHasBuilder: false)
        }
        let oneBuilder = pos
        if !atBlockCloser(blockHasBuilder: false) && kind.startsBuilder {
            inAnyOfBranch = false
            builder()
        }
        blockEnd(brace: brace, oneBuilder: oneBuilder, isThenBlock: isThenBlock)
    }

    /// Whether the current token is a second `{` right after a block's own, at the end of its
    /// line (`anyOf { {`, a key pressed twice): the block's builders follow on the next lines,
    /// and the `}` that closes them is the block's own. So only when the braces up to the end
    /// of the declaration (the file's end, or a line that starts the next one) close at most
    /// the blocks open here but for this one (and for the later `{` typed twice): with a `}`
    /// missing besides (a file being typed), it is read so too, one `}` fewer to miss. When
    /// they close it too, it opens a block (one without its head: skipped as one error). What
    /// it looks at counts against the budget of the layout's lookahead.
    mutating func atStrayBrace() -> Bool {
        guard at(.lBrace), !current.startsLine, !unwinding, pos > 0, pos + 1 < significant.count,
              token(at: pos - 1).kind == .lBrace, token(at: pos + 1).startsLine else { return false }
        var net = 0
        var i = pos
        while i < significant.count {
            let t = token(at: i)
            if t.kind == .eof { break }
            if t.startsLine && t.kind.startsDeclaration && (t.kind != .kwScreen || column(t) == 0) { break }
            guard scansAhead() else { return false }
            // (A later `{` typed twice counts as what it is too.)
            let typedTwice = i > pos && t.kind == .lBrace && !t.startsLine && token(at: i - 1).kind == .lBrace
                && i + 1 < significant.count && token(at: i + 1).startsLine
            if t.kind == .lBrace && !typedTwice { net += 1 } else if t.kind == .rBrace { net -= 1 }
            i += 1
        }
        return net >= 1 - openBraces.count
    }

    /// Skips the `{` of `atStrayBrace()`: one error, and nothing else is read differently.
    mutating func skipStrayBrace() {
        report(current.range, "unexpected `{`: the block is opened by the `{` before it", repair: .remove)
        skipAsError()
    }

    /// After a block's builder (which starts at significant position `oneBuilder`): the `}`.
    /// Another builder before it is one error (kept in an error node), anything else is
    /// skipped, and a line that closes every block ends it with a missing `}`.
    mutating func blockEnd(brace: Int, oneBuilder: Int, isThenBlock: Bool = false) {
        var reportedExtra = false
        while true {
            if isThenBlock && (at(.kwElse) || atMisspeltElse) && !unwinding {
                // `} else {` reached with this then block still open: a `}` is missing inside
                // it, and the one before `else` is this block's. One error, where the block
                // closed by a `}` at another indentation lacks its own (else before `else`),
                // and the `else` is read.
                missingBraceBeforeElse(thenBrace: brace)
                return
            }
            if at(.rBrace) {
                if !reportedExtra && typedTwice(closing: brace) {
                    // `screen Home { empty } }` and the block's own `}` on the next line: the
                    // one error, and the `}` below closes the block.
                    report(current.range, "unexpected `}`: this block is closed by the `}` on the next line", repair: .remove)
                    skipAsError()
                    continue
                }
                if !reportedExtra && closesEarly(brace) {
                    // `screen A }` and below it, indented inside the block, another builder,
                    // then the block's own `}`: the first `}` was typed on the wrong line. It
                    // is skipped, and the builder after it is this block's second.
                    earlyBrace = pos
                    skipAsError()
                    continue
                }
                noteClose(of: brace)
                advance()
                return
            }
            if atLinkInsideBlock {
                linkInsideBlock()
                continue
            }
            if atBlockCloser(blockHasBuilder: true) {
                missingBrace(brace)
                return
            }
            if kind.startsBuilder && layoutRecovery && !reportedExtra && !unwinding && closesByIndentation(brace) {
                // A builder on a line of its own, indented as the line that opened this
                // block: the `}` above it is missing (`screen Results { empty` and the next
                // branch below it). This block ends here; the builder belongs to the
                // enclosing one, so the `}`s below still match their blocks.
                let (message, related, range) = extraBuilderMessage(blockBrace: brace, oneBuilder: oneBuilder)
                report(range, message, related: related)
                return
            }
            if kind.startsBuilder {
                if !reportedExtra && !unwinding {
                    let (message, related, range) = extraBuilderMessage(blockBrace: brace, oneBuilder: oneBuilder)
                    let reportedBefore = diagnostics.count
                    report(range, message, related: related,
                           repair: missesCommaInUses ? .insertComma : presentationWordAfterScreen != nil ? .insertAsIfPresentation : nil)
                    reportedExtra = true
                    // A second builder on a line of its own in a then block: perhaps the `else`
                    // branch, its `} else {` left out (see `conditionalBuilder`).
                    if isThenBlock && current.startsLine && related.isEmpty && range == current.range && diagnostics.count > reportedBefore {
                        thenBlockExtra = (diagnostics.count - 1, builderHead)
                    }
                }
                open(.error)
                inAnyOfBranch = false
                builder()
                close()
            } else {
                skipGarbage("expected `}`, found \(describeCurrent())", stopAtBuilder: false, blockHasBuilder: true)
            }
        }
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
        if !unwinding && !current.startsLine && hasUnknownToken(before: pos),
           let semicolon = unknownTokens(before: pos).first(where: { text(ofToken: $0) == ";" }) {
            // `anyOf { detail; help }`: the `;` before a builder on its line, as in Swift.
            explain(unknown: semicolon, "no `;` is needed here: builders are separated by blanks or lines", repair: .remove)
        }
        switch kind {
        case .kwScreen:
            screenBuilder()
        case .kwAnyOf:
            anyOf()
        case .kwConditional:
            conditionalBuilder()
        case .kwIf:
            ifBuilder(afterElse: afterElse)
        case .kwLet where peekKind() == .identifier && !token(at: pos + 1).startsLine && !unwinding:
            ifLetWrittenOtherwise(afterElse: afterElse)
        case .identifier where atIfLetWrittenOtherwise:
            ifLetWrittenOtherwise(afterElse: afterElse)
        case .kwWildcard:
            wildcardBuilder()
        case .kwEmpty:
            open(.emptyBuilder)
            advance()
            close()
        case .identifier where misspeltBuilderKeyword != nil:
            // `anyof {`, `conditonal f {`, `scren Home {`: one error, read as the keyword meant.
            let meant = misspeltBuilderKeyword!
            let word: String
            switch meant {
            case .kwAnyOf: word = "anyOf"
            case .kwConditional: word = "conditional"
            case .kwWildcard: word = "wildcard"
            case .kwIf: word = "if"
            default: word = "screen"
            }
            report(current.range, "expected a builder, found `\(currentText)`: did you mean `\(word)`?",
                   repair: .replaceWithKeyword(word))
            switch meant {
            case .kwAnyOf: anyOf()
            case .kwConditional: conditionalBuilder()
            case .kwWildcard: wildcardBuilder()
            case .kwIf: ifBuilder(afterElse: afterElse)
            default: screenBuilder(keywordMisspelt: true)
            }
        case .identifier where atBuilderCall:
            builderCall()
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

    /// `detail()`, `detail(store: store)`: a builder named as a Swift function is called.
    /// One error over the parentheses, and the name is read as the reference it is. Without
    /// arguments the fix is safe; with them, what they meant to pass is in scope where the
    /// builder is used, or is not, and the fix that drops them is not safe. Apart from
    /// `builder`, which recurses through blocks: its frame stays small (see `usesClause`).
    @inline(never)
    mutating func builderCall() {
        guard let close = builderCallEnd else { return }
        open(.referenceBuilder)
        let name = currentText
        advance()
        let empty = close == pos + 1
        report(current.start..<token(at: close).end, empty
            ? "a builder is used by its name alone, without `()`: `\(name)`"
            : "a builder takes no arguments: it is used by its name alone, `\(name)`, and what it uses comes from where it is placed",
               repair: empty ? .remove : .removeUnsafely)
        open(.error)
        while pos <= close { advance() }
        self.close()
        self.close()
    }

    /// `if` followed by neither `let` nor `screen`: one error, right after `if`; its fix reads
    /// what the name after it is (`if draft {`). Apart from `builder`, which recurses through
    /// blocks: its frame stays small (see `usesClause`).
    @inline(never)
    mutating func reportIfWithoutLet() {
        if at(.identifier) && !current.startsLine, let bang = unknownTokens(before: pos).last, text(ofToken: bang) == "!",
           tokens[bang].end == current.start {
            // `if !isLoggedIn {`: one error, at the `!` (the lexer's, explained).
            let name = currentText
            explain(unknown: bang, "there is no `!`: the else block is what is built where the condition is false; write `conditional \(name) { … } else { … }` for a flag (`if let \(name)` for an optional) with the two blocks swapped")
            return
        }
        let named = at(.identifier) && !current.startsLine && peekKind() == .lBrace
        report(previousEnd..<previousEnd, ifWithoutLetMessage(), repair: named ? .testWithoutLet : nil)
    }

    /// `let draft {` (the `if` left out), `iflet draft {`, `guard let draft {`: one error, read
    /// as the `if let` meant. Apart from `builder`, which recurses through blocks: its frame
    /// stays small (see `usesClause`).
    @inline(never)
    mutating func ifLetWrittenOtherwise(afterElse: Bool) {
        if at(.kwLet) {
            report(current.range, "expected `if` before `let`: an optional is unwrapped with `if let \(text(at: pos + 1)) { … }`",
                   repair: .replaceWithKeyword("if let"))
        } else {
            let written = currentText
            let optional = text(at: pos + (written == "guard" ? 2 : 1))
            if written == "guard" && peekKind(2) == .identifier && peekKind(3) == .kwElse && !token(at: pos + 3).startsLine {
                // `guard let user else { screen Login }`, as in Swift: nothing follows in a
                // block of one builder, so it builds nothing where `user` is present. One
                // error, whose fix writes that; the `else` is read without a then block.
                report(current.start..<token(at: pos + 2).end,
                       "expected `if let`, found `guard let`: an optional is unwrapped with `if let \(optional) { … } else { … }`, here `if let \(optional) { empty } else { … }`",
                       repair: .replaceWithKeyword("if let \(optional) { empty }"))
                skipAsError()
                thenBlockLeftOut = true
            } else if written == "guard" {
                report(current.start..<token(at: pos + 1).end, "expected `if let`, found `guard let`: an optional is unwrapped with `if let \(optional) { … } else { … }`",
                       repair: .replaceWithKeyword("if let"))
                skipAsError()
            } else {
                report(current.range, "expected `if let`, found `\(written)`: an optional is unwrapped with `if let \(optional) { … }`",
                       repair: .replaceWithKeyword("if let"))
            }
        }
        ifBuilder(afterElse: afterElse, ifMissing: true)
    }

    /// `conditional flag { … } else { … }`: without the `else`, one error that offers
    /// `else { empty }`.
    mutating func conditionalBuilder() {
        open(.conditionalBuilder)
        keyword()
        let flagPosition = identifierPosition
        condition(.flag)
        readingThenBlock = true
        let enclosingExtra = thenBlockExtra
        thenBlockExtra = nil
        defer { thenBlockExtra = enclosingExtra }
        if block() {
            if at(.kwElse) || atMisspeltElse {
                elseClause()
            } else if let (index, head) = thenBlockExtra, !unwinding {
                // `conditional f { screen A  screen B }`: the line `} else {` deleted. One
                // error, at the second builder, that says so (and not also a missing `else`).
                diagnostics[index].message = "a block holds exactly one builder: if `\(head)` is the `else` branch, write `} else {` on the line before it"
            } else if !unwinding {
                report(previousEnd..<previousEnd, conditionalWithoutElseMessage(flag: flagPosition.map { text(at: $0) }),
                       repair: .insertElseEmpty)
                // At the end of the file, a block still open around it is a mistake of its
                // own (`root {` never closed), reported there too: the `else` added, it would
                // be the next error.
                if atEOF { lastErrorAt = -1 }
            }
        }
        close()
    }

    /// `if let optional { … }` or `if screen Screen { … }`, each with an optional `else`.
    /// `if let a, let b` opens an `if let` for each further name (`nestedIfLets`), closed here
    /// after the last block.
    ///
    /// - Parameter afterElse: see `builder(afterElse:)`.
    /// - Parameter ifMissing: at a word that stands for `if let` (reported): its `let` written
    ///   without `if`, `iflet`, or the `let` after Swift's `guard`.
    mutating func ifBuilder(afterElse: Bool, ifMissing: Bool = false) {
        var next = ifMissing ? .kwLet : peekKind()
        var nested = 0
        if !ifMissing, let meant = misspeltIfWord, !unwinding {
            // `if lett draft {`, `if scren Help {`: one error, read as the word meant.
            report(token(at: pos + 1).range, "expected `let` or `screen` after `if`, found `\(text(at: pos + 1))`: did you mean `\(meant == .kwLet ? "let" : "screen")`?",
                   repair: .replaceWithKeyword(meant == .kwLet ? "let" : "screen"))
            next = meant
        }
        if next == .kwLet || next == .kwScreen {
            open(next == .kwLet ? .ifLetBuilder : .ifScreenBuilder)
            if !ifMissing { keyword() }
            keyword()
            if at(next) && !current.startsLine && !unwinding && peekKind() == .identifier {
                // `if let let o`: the word written twice is one error, and the rest reads on.
                report(current.range, "`\(currentText)` is written twice: write `if \(currentText) \(text(at: pos + 1))`")
                advance()
            }
            let screenPosition = identifierPosition
            condition(next == .kwLet ? .optional : .screen)
            if next == .kwLet { nested = nestedIfLets() }
            if next == .kwScreen { presentationOfNoPlacement(screenPosition, "`if screen \(text(at: screenPosition, or: "Detail"))` only tests the path's element") }
        } else {
            // Recover as an `if let` (without `let`, so that the model reads its name as
            // any condition: a flag may have been meant, and its kind is not checked): one
            // error, and the name and blocks still parse.
            open(.ifLetBuilder)
            keyword()
            let comparison = nilComparison
            let reversed = comparison == nil ? reversedNilComparison : nil
            if !afterElse && !unwinding && comparison == nil && reversed == nil { reportIfWithoutLet() }
            if let reversed, !unwinding {
                // `if nil != draft {`: the same, written the other way round.
                let optional = text(at: pos + 1)
                explain(unknown: reversed, nilComparisonMessage(optional, equal: text(ofToken: reversed) == "=="))
                skipAsError()
            }
            if at(.identifier) && !current.startsLine { advance() }
            if let comparison, !unwinding {
                // `if draft != nil {`, as in Swift: one error, at the comparison, and the
                // name is read as the condition (with `==`, the model reads the blocks the
                // other way round: see `Lowerer`).
                let optional = text(at: pos - 1)
                explain(unknown: comparison, through: Int(significant[pos]), nilComparisonMessage(optional, equal: text(ofToken: comparison) == "=="))
                skipAsError()
            }
        }
        readingThenBlock = true
        // (A second builder in this then block is no `else` branch of an enclosing one.)
        let enclosingExtra = thenBlockExtra
        defer { thenBlockExtra = enclosingExtra }
        if thenBlockLeftOut && at(.kwElse) {
            thenBlockLeftOut = false
            elseClause()
        } else if block() && (at(.kwElse) || atMisspeltElse) {
            elseClause()
        }
        for _ in 0..<nested {
            close()
            close()
        }
        close()
    }

    /// The error of `if draft != nil` or `== nil` (the name may be a flag: the parser does
    /// not know).
    func nilComparisonMessage(_ name: String, equal: Bool) -> String {
        equal
            ? "there is no `== nil`: `if let \(name) { … } else { … }` builds its else block where `\(name)` is absent (read so here; a flag is tested with `conditional \(name) { … } else { … }`)"
            : "there is no `!= nil`: an optional is unwrapped with `if let \(name) { … }`, which builds its block where `\(name)` is present (a flag is tested with `conditional \(name) { … }`)"
    }

    /// At `nil` after `if`: the `!=` or `==` (an index into `tokens`) of `nil != draft` on
    /// its line, when a name follows it.
    var reversedNilComparison: Int? {
        guard at(.identifier), token(current, is: "nil"), !current.startsLine, pos + 1 < significant.count else { return nil }
        let after = token(at: pos + 1)
        guard after.kind == .identifier, !after.startsLine else { return nil }
        return unknownTokens(before: pos + 1).first { text(ofToken: $0) == "!=" || text(ofToken: $0) == "==" }
    }

    /// At the name after `if`: the `!=` or `==` (an index into `tokens`) of `draft != nil`
    /// on the name's line, when that is what follows the name.
    var nilComparison: Int? {
        guard at(.identifier), !current.startsLine, pos + 1 < significant.count else { return nil }
        let after = token(at: pos + 1)
        guard after.kind == .identifier, !after.startsLine, self.token(after, is: "nil") else { return nil }
        return unknownTokens(before: pos + 1).first { text(ofToken: $0) == "!=" || text(ofToken: $0) == "==" }
    }

    /// `wildcard Screen { … }`.
    mutating func wildcardBuilder() {
        open(.wildcardBuilder)
        keyword()
        let screenPosition = identifierPosition
        name("a screen name after `wildcard`")
        if let screenPosition, at(.lParen) && !current.startsLine { wildcardArguments(screen: text(at: screenPosition)) }
        presentationOfNoPlacement(screenPosition, "a `wildcard` builds its block for the element")
        if at(.kwUses) && !current.startsLine && !unwinding { wildcardUses(screenPosition) }
        block()
        close()
    }

    /// `wildcard Home uses store {`: one error over the list, skipped; the block is read. A
    /// wildcard only stands for its screen: the screen node in its block uses what it needs.
    @inline(never)
    mutating func wildcardUses(_ screenPosition: Int?) {
        let start = current.start
        var last = pos
        while last + 1 < significant.count && !token(at: last + 1).startsLine
                && (token(at: last + 1).kind == .identifier || token(at: last + 1).kind == .comma) { last += 1 }
        let screen = text(at: screenPosition, or: "Home")
        report(start..<token(at: last).end, "a `wildcard` has no `uses`: the screen node in its block lists what it uses (`wildcard \(screen) { screen \(screen) \(source.text(start..<token(at: last).end)) }`)")
        open(.error)
        while pos <= last { advance() }
        close()
    }

    mutating func elseClause() {
        open(.elseClause)
        if at(.identifier) && !unwinding {
            report(current.range, "expected `else`, found `\(currentText)`: did you mean `else`?", repair: .replaceWithKeyword("else"))
        }
        keyword()
        if at(.kwIf) && !unwinding {
            report(current.range, elseIfMessage())
            inAnyOfBranch = false
            builder(afterElse: true)
        } else {
            if kind.startsBuilder && !current.startsLine && !unwinding {
                // `else conditional g { … }`: read as if the block's `{` were there.
                report(previousEnd..<previousEnd, "expected `{` after `else`: an `else` takes a block, `else { \(at(.kwLet) ? "if let" : currentText) … }`")
            }
            block()
        }
        close()
    }

    /// - Parameter keywordMissing: the node is a name followed by `uses`, `(`, `{` or `as` (see
    ///   `atScreenWithoutKeyword`): one error, then it is read as the screen node it is.
    /// - Parameter keywordMisspelt: `screen` is misspelt (reported): the word is skipped.
    mutating func screenBuilder(keywordMissing: Bool = false, keywordMisspelt: Bool = false) {
        if keywordMissing && !unwinding {
            let screenName = currentText
            let message = peekKind() == .lParen
                ? "expected `screen` before `\(screenName)`: a screen node is written `screen \(screenName)`, without arguments (they belong in paths)"
                : peekKind() == .lBrace
                ? "expected `screen` before `\(screenName)`: a nesting block follows a screen node, `screen \(screenName) { … }`"
                : peekKind() == .kwUses
                ? "expected `screen` before `\(screenName)`: a screen node is written `screen \(screenName) uses …`"
                : "expected `screen` before `\(screenName)`: a screen node is written `screen \(screenName) as …`"
            // (Not before arguments: they are a mistake of their own, which the fix would keep.)
            report(current.range, message, repair: peekKind() == .lParen ? nil : .replaceWithKeyword("screen \(screenName)"))
        }
        open(.screenBuilder)
        if keywordMisspelt {
            skipAsError()
        } else if !keywordMissing {
            advance()
        }
        let screenPosition = identifierPosition
        name("a screen name after `screen`")
        if at(.lParen) && !current.startsLine { screenArguments(silently: keywordMissing) }
        placementPresentation(of: screenPosition, afterUses: false)
        usesClause(screenPosition: screenPosition)
        if at(.lBrace) || nestingWithoutBrace(screenLine: screenPosition) {
            block()
        }
        close()
    }

    /// A screen node's `uses` list, if it has one (written, misspelt or left out), and the
    /// presentation after it. Apart from `screenBuilder`, which recurses through nestings:
    /// its frame stays small, so that the deepest nesting the parser reads fits the stack
    /// of a debug build.
    @inline(never)
    mutating func usesClause(screenPosition: Int?) {
        if !unwinding && at(.dot) && !current.startsLine && peekKind() == .identifier && !token(at: pos + 1).startsLine
            && token(token(at: pos + 1), is: "self") {
            // `screen Home.self`, as Swift names a type: one error, and the node reads on.
            report(current.start..<token(at: pos + 1).end, "a screen node names its screen without `.self`: `screen \(text(at: screenPosition, or: "Home"))`",
                   repair: .remove)
            skipAsError()
            skipAsError()
        }
        // `screen Home d, e {`: a name list after the screen without `uses` (a reference
        // takes no block, and a `,` separates no builders): one error, read as the list.
        // Only after the screen's name, before a name written as a dependency's (lowerCamel) that
        // is no presentation (`screen Detail cover {` wants `as`) nor a misspelt keyword.
        let usesMissing = !unwinding && screenPosition != nil && at(.identifier) && !current.startsLine && !followsLexicalError
            && (peekKind() == .comma || peekKind() == .lBrace) && !token(at: pos + 1).startsLine
            && (source.bytes[current.start] < 0x41 || source.bytes[current.start] > 0x5A) && !isPresentationWord(current)
            && !Self.misspells(Array(source.bytes[current.start..<current.end]), "anyOf")
            && !Self.misspells(Array(source.bytes[current.start..<current.end]), "conditional")
        if usesMissing {
            report(previousEnd..<previousEnd, "expected `uses` before `\(currentText)`: a screen node lists its dependencies as `screen \(text(at: screenPosition, or: "Home")) uses \(currentText)\(peekKind() == .comma ? ", …" : "")`",
                   repair: .insertUses)
        }
        // `screen Home usess store {`: a misspelt `uses` before a name, one error, read as
        // `uses` (in an `anyOf`, where names on a line are branches, only before a `,` or a
        // block after that name, which no branch takes). The words a builder is named (`use`,
        // `user`, `used`, `users`) only so too: `screen Home user` is that builder, a second
        // one, but `screen Home use store {` is no builder.
        let usesWord = at(.identifier) ? Array(source.bytes[current.start..<current.end]) : []
        let listFollows = pos + 2 < significant.count && !token(at: pos + 2).startsLine
            && (token(at: pos + 2).kind == .comma || token(at: pos + 2).kind == .lBrace)
        let usesMisspelt = !unwinding && !usesMissing && screenPosition != nil && at(.identifier) && !current.startsLine
            && !followsLexicalError && (Self.misspells(usesWord, "uses") || usesWord == Array("use".utf8))
            && peekKind() == .identifier && !token(at: pos + 1).startsLine
            && (!inAnyOfBranch && !Self.builderWordsNearUses.contains(usesWord) || listFollows)
        if usesMisspelt {
            report(current.range, "expected `uses`, found `\(currentText)`: did you mean `uses`?", repair: .replaceWithKeyword("uses"))
        }
        if at(.kwUses) || usesMissing || usesMisspelt {
            open(.usesClause)
            if usesMisspelt { skipAsError() } else if !usesMissing { advance() }
            if !unwinding && at(.colon) && !current.startsLine && peekKind() == .identifier && !token(at: pos + 1).startsLine {
                // `uses: store`: one error, at the `:`, and the list is read.
                report(current.range, "no `:` after `uses`: write `uses \(text(at: pos + 1))`", repair: .remove)
                skipAsError()
            }
            let parenthesized = !unwinding && (at(.lParen) || at(.lBracket)) && !current.startsLine ? parenthesizedUses() : nil
            if let parenthesized {
                // `uses(store, api)`, as a call, or `uses [store, api]`, as an array: one error
                // over the brackets, and the list in them is read.
                let what = at(.lParen) ? "parentheses" : "brackets"
                let blankBefore = current.start > 0 && (source.bytes[current.start - 1] == 0x20 || source.bytes[current.start - 1] == 0x09)
                report(current.start..<token(at: parenthesized).end, "a `uses` list is written without \(what): `uses \(usesListText(through: parenthesized))`",
                       repair: .replaceWithKeyword((blankBefore ? "" : " ") + usesListText(through: parenthesized)))
                skipAsError()
            }
            defer { if parenthesized != nil && (at(.rParen) || at(.rBracket)) { skipAsError() } }
            var afterComma = false
            while true {
                if at(.identifier) {
                    advance()
                    usesEnd = pos
                    if !unwinding && followsLexicalError { forceUnwrapInUses() }
                } else {
                    if !unwinding {
                        if afterComma, at(.lBrace) || at(.rBrace) || atEOF || current.startsLine {
                            // `uses a, b, {`: one error, where a name was expected after the
                            // `,` that ends the list.
                            report(previousEnd..<previousEnd, "expected a dependency or optional name after `,`: a `uses` list does not end with `,`",
                                   repair: .removeComma)
                        } else if kind.isKeyword && !current.startsLine && !atBlockCloser(blockHasBuilder: false) {
                            keywordAsName("a dependency or optional name")
                        } else {
                            expected("a dependency or optional name")
                        }
                    }
                    break
                }
                if at(.comma) {
                    afterComma = true
                    advance()
                } else if !unwinding && !inAnyOfBranch && at(.identifier) && !current.startsLine,
                          let semicolon = unknownTokens(before: pos).first(where: { text(ofToken: $0) == ";" }) {
                    // `uses a; b` (not in an `anyOf`, where `b` is the next branch): one error,
                    // at the `;`, and `b` is read in the list.
                    explain(unknown: semicolon, "the names of a `uses` list are separated by `,`, not `;`", repair: .replaceWithKeyword(","))
                    afterComma = false
                } else if !unwinding && at(.question) && current.start == token(at: pos - 1).end {
                    // `uses store?`: one error, whose fix removes the `?`; the list reads on.
                    report(current.range, "no `?` after a name of a `uses` list: `uses … \(text(at: pos - 1))` (an optional is unwrapped by `if let \(text(at: pos - 1))` around the node)", repair: .remove)
                    skipAsError()
                    guard at(.comma) else { break }
                    afterComma = true
                    advance()
                } else if !unwinding, let typeEnd = typeAfterUsesName {
                    // `uses store: Store`, as a parameter is declared: one error over the
                    // type, which is skipped, and the list reads on.
                    report(current.start..<token(at: typeEnd).end, "a `uses` list names dependencies without their types: `uses \(text(at: pos - 1))`",
                           repair: .remove)
                    while pos <= typeEnd { skipAsError() }
                    guard at(.comma) else { break }
                    afterComma = true
                    advance()
                } else if !unwinding && atAndBetweenUses {
                    // `uses a & b`, `uses a and b`: one error, at the `&` or `and`, and `b` is
                    // read in the list.
                    report(current.range, "the names of a `uses` list are separated by `,`, not `\(currentText)`", repair: .replaceWithKeyword(","))
                    skipAsError()
                    afterComma = true
                } else {
                    break
                }
            }
            close()
            placementPresentation(of: screenPosition, afterUses: true)
        }
    }

    /// After a name of a `uses` list glued to a `!` (`uses store!`): the lexer's error for the
    /// `!`, explained, with a fix that removes it.
    @inline(never)
    mutating func forceUnwrapInUses() {
        let name = token(at: pos - 1)
        guard let bang = unknownTokens(before: pos).first, text(ofToken: bang) == "!", tokens[bang].start == name.end else { return }
        let text = source.text(name.start..<name.end)
        explain(unknown: bang, "no `!` after a name of a `uses` list: `uses … \(text)` (an optional is unwrapped by `if let \(text)` around the node)", repair: .remove)
    }

    /// At `&` or `and` after a name of a `uses` list, with a name after it on the line: in an
    /// `anyOf`, where a name on the line may be the next branch, only when a `{` or a `,`
    /// follows that name.
    var atAndBetweenUses: Bool {
        guard at(.ampersand) || (at(.identifier) && token(current, is: "and")),
              !current.startsLine, peekKind() == .identifier, !token(at: pos + 1).startsLine else { return false }
        if !inAnyOfBranch || at(.ampersand) { return true }
        let after = token(at: min(pos + 2, significant.count - 1))
        return !after.startsLine && (after.kind == .lBrace || after.kind == .comma)
    }

    /// At a `:` after a name of a `uses` list: the position of the last token of the Swift
    /// type after it (`Store`, `App.Store`, `Store?`), when a `{`, a `,` or the end of the
    /// line follows it; else nil.
    var typeAfterUsesName: Int? {
        guard at(.colon), !current.startsLine, peekKind() == .identifier, !token(at: pos + 1).startsLine else { return nil }
        var last = pos + 1
        while last + 2 < significant.count && token(at: last + 1).kind == .dot && !token(at: last + 1).startsLine
            && token(at: last + 2).kind == .identifier && !token(at: last + 2).startsLine {
            last += 2
        }
        if last + 1 < significant.count && token(at: last + 1).kind == .question && !token(at: last + 1).startsLine { last += 1 }
        let after = token(at: min(last + 1, significant.count - 1))
        return after.startsLine || after.kind == .lBrace || after.kind == .comma || after.kind == .rBrace || after.kind == .eof ? last : nil
    }

    /// At the `(` or `[` after `uses`: the position of the `)` or `]` that closes a list of
    /// names in it (names and `,`s, on the line), or nil.
    func parenthesizedUses() -> Int? {
        let close: TokenKind = kind == .lParen ? .rParen : .rBracket
        var at = pos + 1
        var wantsName = true
        while at < significant.count && at < pos + 64 {
            let token = token(at: at)
            if token.startsLine { return nil }
            switch token.kind {
            case .identifier where wantsName: wantsName = false
            case .comma where !wantsName: wantsName = true
            case close where !wantsName: return at
            default: return nil
            }
            at += 1
        }
        return nil
    }

    /// The names between the `(` at the current position and the `)` at `close`, as a
    /// `uses` list writes them (`a, b`).
    func usesListText(through close: Int) -> String {
        var names: [String] = []
        for at in (pos + 1)..<close where token(at: at).kind == .identifier { names.append(text(at: at)) }
        return names.joined(separator: ", ")
    }

    /// How many tokens `closesEarly` and `nestingWithoutBrace` look ahead for the `}` they
    /// need, at most (a block longer than that is not read so); what they look at in one parse
    /// (tokens and the leading blanks of their lines) is bounded by `layoutScanBudget`: a
    /// file of lines that each ask (a staircase of indentation) is parsed in linear time.
    static let layoutLookahead = 4096

    /// Whether the lookahead of `closesEarly` or `nestingWithoutBrace` may look at one more
    /// token; counts it.
    mutating func scansAhead() -> Bool {
        guard layoutScanBudget > 0 else { return false }
        layoutScanBudget -= 1
        return true
    }

    /// The indentation of the line `token` starts, for the lookahead: what finding it reads
    /// (the line's leading blanks) is counted against the same budget.
    mutating func indentationAhead(_ token: Token) -> Int {
        let indent = indentation(ofLineContaining: token.start)
        layoutScanBudget -= indent
        return indent
    }

    /// Whether the current `}`, at the end of a line of the block that `blockBrace` opens, was
    /// typed too early (with layout recovery): a builder follows on the next line, indented
    /// more than the line that opens the block, and the first line below indented no more
    /// than that line is a `}` at its indentation.
    mutating func closesEarly(_ blockBrace: Int) -> Bool {
        guard layoutRecovery, !unwinding, !current.startsLine, tokens[blockBrace].kind == .lBrace,
              pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        let indent = indentation(ofLineContaining: tokens[blockBrace].start)
        guard next.startsLine, next.kind.startsBuilder, indentation(ofLineContaining: next.start) > indent else { return false }
        return closingBraceBelow(from: pos + 2, indent: indent)
    }

    /// At a `}` after a line's first token that would close the block whose `{` is `brace`,
    /// on an earlier line: whether it is one `}` too many (`screen Home { empty } }`, with
    /// layout recovery). The next token is a `}` on a line of its own at the indentation of
    /// the line that opened the block (an indentation the block around it does not have),
    /// and the braces from there to the end of the declaration close exactly the blocks
    /// open here: with this one too, one more than are open. What it looks at counts against
    /// the budget of the layout's lookahead.
    mutating func typedTwice(closing brace: Int) -> Bool {
        guard layoutRecovery, !unwinding, !current.startsLine, tokens[brace].kind == .lBrace,
              pos + 1 < significant.count, let open = openBraces.last, open.token == brace,
              source.lineStart(containing: tokens[brace].start) != source.lineStart(containing: current.start) else { return false }
        let next = token(at: pos + 1)
        guard next.kind == .rBrace, next.startsLine, column(next) == open.indent else { return false }
        if openBraces.count >= 2 && openBraces[openBraces.count - 2].indent == open.indent { return false }
        var net = 0
        var i = pos + 1
        while i < significant.count {
            let t = token(at: i)
            if t.kind == .eof { break }
            if t.startsLine && t.kind.startsDeclaration && (t.kind != .kwScreen || column(t) == 0) { break }
            guard scansAhead() else { return false }
            if t.kind == .lBrace { net += 1 } else if t.kind == .rBrace { net -= 1 }
            i += 1
        }
        return net == -openBraces.count
    }

    /// At the `}` that closes the block whose `{` is `brace`: notes it when it stands on a
    /// line of its own indented less than the line that opened the block (at an enclosing
    /// block's indentation: the `}` meant for that block).
    mutating func noteClose(of brace: Int) {
        guard current.startsLine, tokens[brace].kind == .lBrace,
              column(current) < indentation(ofLineContaining: tokens[brace].start) else { return }
        misplacedCloses.append((brace, pos))
    }

    /// At `as` after a placement's presentation: whether a second presentation follows on
    /// the line (`as sheet as cover(allowsPush: false)`). `as`, `cover` and `popover` are also
    /// names: `as cover` there without options is two more branches of an `anyOf`.
    var atSecondPresentation: Bool {
        guard atAs, !current.startsLine, pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        guard !next.startsLine else { return false }
        if next.kind == .kwPush || next.kind == .kwSheet { return true }
        guard isPresentationWord(next), pos + 2 < significant.count else { return false }
        let after = token(at: pos + 2)
        return after.kind == .lParen && !after.startsLine
    }

    /// The error of a then block that `else` finds open (see `blockEnd`).
    mutating func missingBraceBeforeElse(thenBrace: Int) {
        let (unclosed, at) = misplacedBrace(inside: thenBrace) ?? (thenBrace, previousEnd)
        report(at..<at, "expected `}`", related: [RelatedLocation(file: file, range: tokens[unclosed].range, message: "unclosed `{`")])
    }

    /// At a `}` of the `anyOf` whose `{` is `blockBrace`: whether it was typed by mistake
    /// inside the list, with layout recovery: it starts a line indented more than the line
    /// that opened the `anyOf`, the next line is a builder indented as much, and below it the
    /// first line indented no more than the `anyOf`'s is a `}` at that indentation.
    mutating func straysInside(_ blockBrace: Int) -> Bool {
        guard layoutRecovery, !unwinding, current.startsLine, pos + 1 < significant.count else { return false }
        let indent = indentation(ofLineContaining: tokens[blockBrace].start)
        guard column(current) > indent else { return false }
        let next = token(at: pos + 1)
        guard next.startsLine, next.kind.startsBuilder, indentation(ofLineContaining: next.start) > indent else { return false }
        return closingBraceBelow(from: pos + 2, indent: indent)
    }

    /// Whether the current token begins the nesting of the screen node before it whose `{`
    /// is missing: with layout recovery, a builder on a later line indented more than the
    /// screen's line, and below it, the first line indented no more than the screen's is a
    /// `}` at the screen's indentation (the `}` of that nesting). `block()` reads it then, as
    /// one error (a deeper line after a branch of an `anyOf` is no nesting without that `}`).
    mutating func nestingWithoutBrace(screenLine screenPosition: Int?) -> Bool {
        guard layoutRecovery, !unwinding, let screenPosition, current.startsLine, kind.startsBuilder else { return false }
        let indent = indentation(ofLineContaining: token(at: screenPosition).start)
        guard indentation(ofLineContaining: current.start) > indent else { return false }
        return closingBraceBelow(from: pos + 1, indent: indent)
    }

    /// The lookahead that `closesEarly` and `nestingWithoutBrace` share: whether, from the
    /// significant token at `start` on, the first line indented no more than `indent` begins
    /// with a `}` at that indentation (within `layoutLookahead` tokens and the parse's budget).
    mutating func closingBraceBelow(from start: Int, indent: Int) -> Bool {
        var ahead = start
        while ahead < min(significant.count, pos + Self.layoutLookahead) && scansAhead() {
            let later = token(at: ahead)
            if later.kind == .eof { return false }
            if later.startsLine && indentationAhead(later) <= indent {
                return later.kind == .rBrace && column(later) == indent
            }
            ahead += 1
        }
        return false
    }

    /// A placement's own presentation, `as sheet` after the screen name; a presentation
    /// written without `as`, or after the `uses` list, is one error that says how to write
    /// it, and is read as meant. On the screen's line `as` always begins the presentation; at
    /// the start of the next line only when a presentation follows it on that line (else it
    /// is the name of the next builder). `screenPosition`: where the screen's name is.
    mutating func placementPresentation(of screenPosition: Int?, afterUses: Bool) {
        guard !unwinding, !current.startsLine || atAsBeforePresentation else { return }
        var screen: String { text(at: screenPosition, or: "Detail") }
        if atAs {
            open(.presentation)
            let asToken = current
            advance()
            // `as as sheet`: one error, at the second `as`, then read as `as sheet`.
            if atAsBeforePresentation && !unwinding {
                // (After the `uses` list, the error below says where `as` goes.)
                if !afterUses { report(current.range, "`as` is written twice: `screen \(screen) as \(peekText())`") }
                skipAsError()
            }
            // The word may follow on the next line: `as` on the screen's line has begun the
            // presentation (newlines only separate tokens).
            let hasWord = isPresentationWord(current)
            let presentationStart = pos
            if afterUses {
                report(asToken.range, "`as` goes right after the screen name, before `uses`: `screen \(screen) as \(hasWord ? currentText : "sheet") uses …`")
            } else if !hasWord {
                let what = "a presentation after `as`: `push`, `sheet`, `cover` or `popover` (the last three may take `(allowsPush: false)`)"
                if at(.identifier) { unexpected(what) } else { expected(what) }
                if at(.identifier) && !current.startsLine {
                    // `as modal`: the unknown word is skipped, not read as the next builder.
                    skipAsError()
                }
            }
            if hasWord { presentationWord() }
            // `as sheet as cover`: one error at the second, which is skipped (with any after it).
            var extra = 0
            while hasWord && atSecondPresentation && !unwinding {
                if extra == 0 { report(current.range, "a placement has one presentation: `screen \(screen) as \(text(at: presentationStart))` is given already") }
                extra += 1
                open(.error)
                advance()
                presentationWord()
                close()
            }
            close()
        } else if at(.kwPush) || at(.kwSheet) || atPresentationWordWithoutAs {
            let word = currentText
            report(current.range, afterUses
                   ? "a placement's presentation is written `as \(word)`, right after the screen name: `screen \(screen) as \(word) uses …`"
                   : "a placement's presentation is written with `as`: `screen \(screen) as \(word)`",
                   repair: afterUses ? nil : .insertAs)
            open(.presentation)
            presentationWord()
            close()
        }
    }

    /// Words one edit from `uses` that name builders (see `screenBuilder`).
    static let builderWordsNearUses: [[UInt8]] = ["use", "user", "used", "users"].map { Array($0.utf8) }

    /// At `cover` or `popover` right after a placement's screen (and its `uses` list): whether
    /// it is the placement's presentation written without `as`. Both are names too (of a
    /// builder, a dependency): so only where no name can stand, before a block, options or
    /// `uses` on the line. Elsewhere (`screen Detail popover }`) it is a second builder, whose
    /// error says how to write the presentation (`extraBuilderMessage`).
    var atPresentationWordWithoutAs: Bool {
        guard isPresentationWord(current), !current.startsLine else { return false }
        let next = token(at: min(pos + 1, significant.count - 1))
        return !next.startsLine && (next.kind == .lBrace || next.kind == .lParen || next.kind == .kwUses)
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

    /// `as sheet` after `if screen Detail` or `wildcard Detail`, which place no screen: one
    /// error, and the presentation (with its `(allowsPush: false)`) is skipped, so that the
    /// block after it still parses. `why`: what the builder does instead.
    mutating func presentationOfNoPlacement(_ screenPosition: Int?, _ why: String) {
        guard atAs, !current.startsLine, !unwinding else { return }
        let screen = text(at: screenPosition, or: "Detail")
        let word = pos + 1 < significant.count && isPresentationWord(token(at: pos + 1)) ? peekText() : "sheet"
        report(current.range, "`as` gives a placement its presentation, `screen \(screen) as \(word)`, and \(why): write it on the `screen` node in the block")
        let start = current.start
        open(.error)
        advance()
        // (The word may follow on the next line: `as` has begun the presentation.)
        if isPresentationWord(current) {
            advance()
            // Options left open, `(allowsPush: false {`, end before the block.
            if at(.lParen) && !current.startsLine { advancePastParentheses(stoppingAtBrace: true) }
        }
        close()
        garbage.append(start..<current.start)
    }

    /// Skips everything up to the matching `)` on the same line (braces inside included).
    mutating func skipArguments() {
        let start = current.start
        open(.error)
        advancePastParentheses()
        close()
        garbage.append(start..<current.start)
    }

    /// Advances from a `(` past its matching `)`, or to the end of its line; with
    /// `stoppingAtBrace`, to a `{` or `}` at most (options, which hold none).
    mutating func advancePastParentheses(stoppingAtBrace: Bool = false) {
        var depth = 0
        repeat {
            if kind == .lParen { depth += 1 }
            if kind == .rParen { depth -= 1 }
            advance()
        } while depth > 0 && !atEOF && !current.startsLine && !(stoppingAtBrace && (at(.lBrace) || at(.rBrace)))
    }

    /// The branches of an `anyOf` whose `{` was left out (reported), on lines indented below
    /// its own (at `indent`): read as its branches, and a `}` on a line of its own at its
    /// indentation (where its own would stand) closes it, as a screen's nesting whose `{` was
    /// left out (`blockWithoutBrace`).
    mutating func anyOfWithoutBrace(indent: Int, opener: Int) {
        openBraces.append((opener, indent))
        let wasInBranch = inAnyOfBranch
        defer {
            openBraces.removeLast()
            inAnyOfBranch = wasInBranch
        }
        while !atEOF && kind.startsBuilder && current.startsLine && column(current) > indent && !atBlockCloser(blockHasBuilder: false) {
            inAnyOfBranch = true
            builder()
        }
        if at(.rBrace) && current.startsLine && column(current) == indent { advance() }
    }

    mutating func anyOf() {
        open(.anyOfBuilder)
        let indent = indentation(ofLineContaining: current.start)
        // (Only an `anyOf` that starts its line: on the line of the block around it, a `}` at
        // that line's indentation is that block's.)
        let startsLine = current.startsLine
        keyword()
        guard at(.lBrace) else {
            expected("`{` after `anyOf`")
            if layoutRecovery && startsLine && !unwinding && current.startsLine && kind.startsBuilder && column(current) > indent {
                anyOfWithoutBrace(indent: indent, opener: Int(significant[pos - 1]))
            }
            close()
            return
        }
        let brace = Int(significant[pos])
        advance()
        openBraces.append((brace, indentation(ofLineContaining: tokens[brace].start)))
        // (A block's one builder: closing it early would make the next branch that block's
        // second builder, an error of its own; a branch of an enclosing `anyOf` would not.)
        let isBlocksBuilder = !inAnyOfBranch
        let wasInBranch = inAnyOfBranch
        defer {
            openBraces.removeLast()
            inAnyOfBranch = wasInBranch
        }
        var branches = 0
        while true {
            if at(.rBrace) {
                if branches > 0 && isBlocksBuilder && straysInside(brace) {
                    // A `}` on a line of its own, indented inside the `anyOf`, with more
                    // branches below it and the `anyOf`'s own `}` after them: one error, and
                    // the `}` is skipped.
                    report(current.range, "unexpected `}`: the branches below it are indented inside this `anyOf`, whose `}` comes after them",
                           related: [RelatedLocation(file: file, range: tokens[brace].range, message: "the `anyOf` opened here")])
                    skipAsError()
                    continue
                }
                if branches == 0 {
                    report(tokens[brace].start..<current.end, "`anyOf` needs at least one branch (write `empty` for none)")
                }
                noteClose(of: brace)
                advance()
                break
            }
            if atLinkInsideBlock {
                linkInsideBlock()
                continue
            }
            if atBlockCloser(blockHasBuilder: false) {
                missingBrace(brace)
                break
            }
            if kind.startsBuilder {
                inAnyOfBranch = true
                builder()
                branches += 1
            } else if branches == 0 && atStrayBrace() {
                skipStrayBrace()
            } else if branches > 0 && at(.comma) && !current.startsLine && !unwinding && pos + 1 < significant.count
                        && token(at: pos + 1).kind.startsBuilder {
                // `anyOf { screen A, screen B }`: one error, and the branches read on.
                report(current.range, "unexpected `,`: the branches of an `anyOf` are separated by blanks or lines", repair: .remove)
                skipAsError()
            } else {
                skipGarbage("expected a builder or `}`, found \(describeCurrent())", stopAtBuilder: true, blockHasBuilder: false)
            }
        }
        close()
    }
}
