/// The top level of a file: declarations, and what stands at the top level instead of one
/// (docs/language.md, Files, names and comments; Declarations).
extension Parser {
    // MARK: File

    mutating func parseFile() -> SyntaxTree {
        open(.sourceFile)
        while !atEOF {
            unwindAt = nil
            openBraces.removeAll()
            if kind.startsDeclaration {
                declaration()
            } else if atTopLevelLinkDeclaration {
                linkDeclaration()
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
        if misspeltDeclaration() || blockWithoutDeclaration() || declarationWithoutKeyword() || letBinding() || swiftDeclaration() { return }
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
        let binding = at(.kwLet) || (at(.identifier) && currentIs("var") && peekKind() == .identifier)
        // Right after an unexpected character on its line (`screen A $ B`), the rest of the
        // line is that mistake's: its error is the only one.
        if !(followsLexicalError && !current.startsLine) { report(current.range, what) }
        let start = current.start
        open(.error)
        var depth = 0
        repeat {
            if kind == .lBrace { depth += 1 }
            if kind == .rBrace && depth > 0 { depth -= 1 }
            advance()
        } while !atEOF && !(kind.startsDeclaration && (binding
            ? current.startsLine && (depth == 0 || kind != .kwScreen)
            : depth == 0 || current.startsLine)
            || current.startsLine && atTopLevelLinkDeclaration)
        close()
        garbage.append(start..<current.start)
    }

    mutating func declaration() {
        switch kind {
        case .kwImport:
            importDeclaration()
        case .kwScreen:
            screenDeclaration()
        case .kwDependency:
            valueDeclaration(.dependencyDecl)
        case .kwOptional:
            valueDeclaration(.optionalDecl)
        case .kwFlag:
            flagDeclaration()
        case .kwBuilder:
            builderDeclaration()
        case .kwRoot:
            rootDeclaration()
        default:
            topLevelGarbage()
        }
    }

    mutating func importDeclaration(keyword: DeclarationKeyword = .present) {
        open(.importDecl)
        declarationKeyword(keyword)
        if at(.string) {
            advance()
        } else if at(.identifier) && !current.startsLine && !unwinding {
            // `import Shared` or `import Shared.routes` (a Swift habit): one error that shows the
            // path as a string, with a fix writing it; the words are skipped.
            let start = current.start
            var end = current.end
            open(.error)
            advance()
            while (at(.identifier) || at(.dot) || at(.slash)) && !current.startsLine && current.start == end {
                end = current.end
                advance()
            }
            close()
            var path = source.text(start..<end)
            if !path.hasSuffix(".routes") { path += ".routes" }
            report(start..<end, "an import names a file by its path, in quotes: `import \"\(path)\"`", repair: .replaceWithKeyword("\"\(path)\""))
        } else if !followsCurlyString {
            expected("a file path string after `import`")
        }
        close()
    }

    mutating func flagDeclaration(keyword: DeclarationKeyword = .present) {
        open(.flagDecl)
        declarationKeyword(keyword)
        let flagPosition = identifierPosition
        name("a flag name")
        declarationTail(.flagDecl, namePosition: flagPosition)
        close()
    }

    mutating func builderDeclaration(keyword: DeclarationKeyword = .present) {
        open(.builderDecl)
        declarationKeyword(keyword)
        let namePosition = identifierPosition
        let named = name("a builder name")
        if named && (at(.lParen) || at(.arrow)) && !current.startsLine && !unwinding {
            // `builder detail(id: String) -> some View {`: a builder written as a Swift
            // function. One error, and the block after the parentheses and the return type
            // is read as the builder's.
            let start = current.start
            let hasParameters = at(.lParen)
            let isEmpty = hasParameters && peekKind() == .rParen
            let builder = text(at: namePosition, or: "name")
            var end = pos
            if hasParameters {
                // Through the matching `)`, over lines too (`(\n  id: String\n) {`), to a `{` or
                // `}` at most (`builder detail(id: String {` keeps its block) or a line that
                // starts a declaration. Reported first, so that a mistake after them (no
                // block) is too.
                var depth = 0
                repeat {
                    let t = token(at: end)
                    if t.kind == .lParen { depth += 1 } else if t.kind == .rParen { depth -= 1 }
                    end += 1
                } while depth > 0 && end < significant.count && !(token(at: end).kind == .eof || token(at: end).kind == .lBrace
                         || token(at: end).kind == .rBrace || token(at: end).startsLine && token(at: end).kind.startsDeclaration && peekKind(end + 1 - pos) != .colon)
            }
            // `-> some View`: a return type, up to the block on its line.
            var returnType = false
            if end < significant.count && token(at: end).kind == .arrow && !token(at: end).startsLine {
                var next = end + 1
                while next < significant.count && !token(at: next).startsLine
                        && ![.lBrace, .rBrace, .eof].contains(token(at: next).kind) { next += 1 }
                if next > end + 1 && next < significant.count && token(at: next).kind == .lBrace && !token(at: next).startsLine {
                    end = next
                    returnType = true
                }
            }
            if end > pos {
                let form = "`builder \(builder) { … }`"
                let parameters = "(a screen's parameters are declared with the screen, `screen Detail(id: String)`, and given in paths)"
                let message = switch (hasParameters, isEmpty, returnType) {
                case (false, _, _): "a builder has no return type: \(form)"
                case (true, true, false): "a builder is declared by its name alone, without `()`: \(form)"
                case (true, true, true): "a builder is declared by its name alone, without `()` or a return type: \(form)"
                case (true, false, false): "a builder takes no parameters: \(form) \(parameters)"
                case (true, false, true): "a builder takes no parameters and has no return type: \(form) \(parameters)"
                }
                report(start..<token(at: end - 1).end, message, repair: hasParameters && !isEmpty ? .removeUnsafely : .remove)
                open(.error)
                while pos < end { advance() }
                close()
                garbage.append(start..<current.start)
            }
        }
        if named { skipSeparatorBeforeBlock("builder \(text(at: namePosition, or: "name"))") }
        if named || at(.lBrace) {
            block()
        }
        close()
    }

    /// `root { … }`; with its keyword misspelt (`roots {`, reported) or missing (`{` at the
    /// start of a line, reported), read so all the same.
    mutating func rootDeclaration(keyword: DeclarationKeyword = .present) {
        open(.rootDecl)
        declarationKeyword(keyword)
        if keyword == .present {
            if at(.kwRoot) && !current.startsLine && !unwinding {
                // `root root {`: one error, at the second `root`, then read on.
                report(current.range, "`root` is written twice: `root { … }`")
                skipAsError()
            }
        }
        if !unwinding && at(.lParen) && !current.startsLine && peekKind() == .rParen && pos + 2 < significant.count
            && token(at: pos + 2).kind == .lBrace && !token(at: pos + 2).startsLine {
            // `root() {`, as a Swift function: one error, and the block is read.
            report(current.start..<token(at: pos + 1).end, "`root` takes no `()`: `root { … }`", repair: .remove)
            skipAsError()
            skipAsError()
        }
        if keyword != .missing { skipSeparatorBeforeBlock("root") }
        block()
        close()
    }

    /// `root: {`, `builder detail = {`: a `:` or `=` between a declaration's head and its
    /// block on one line, one error, skipped (`head` is the declaration as written without it).
    mutating func skipSeparatorBeforeBlock(_ head: String) {
        guard !unwinding else { return }
        let message = "a block follows `\(head)` directly: `\(head) { … }`"
        if at(.colon) && !current.startsLine && peekKind() == .lBrace && !token(at: pos + 1).startsLine {
            report(current.range, message, repair: .remove)
            skipAsError()
        } else if at(.lBrace), let eq = unknownTokens(before: pos).first(where: { text(ofToken: $0) == "=" }), onOneLine(tokens[eq].start, current.start) {
            explain(unknown: eq, message, repair: .remove)
        }
    }

    /// How a declaration's keyword is written: as it should be, misspelt (reported already:
    /// the word is kept in an error node), or left out.
    enum DeclarationKeyword {
        case present, misspelt, missing
    }

    /// Reads a declaration's keyword as it is written (nothing when it is missing).
    mutating func declarationKeyword(_ keyword: DeclarationKeyword) {
        switch keyword {
        case .present:
            advance()
        case .misspelt:
            skipAsError()
        case .missing:
            break
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
        if (at(.number) || at(.string)) && !current.startsLine {
            // `screen 42`: a value where the name goes.
            unexpected(what)
            return false
        }
        if kind.isKeyword && !current.startsLine && !unwinding {
            keywordAsName(what)
            return false
        }
        expected(what)
        return false
    }

    /// - Parameter keyword: how `screen` is written (left out or misspelt: reported).
    mutating func screenDeclaration(keyword: DeclarationKeyword = .present) {
        open(.screenDecl)
        declarationKeyword(keyword)
        let screenPosition = identifierPosition
        name("a screen name")
        if at(.lParen) { parameterList() }
        if atAs && !current.startsLine && pos + 1 < significant.count && isPresentationWord(token(at: pos + 1)) {
            // `screen Detail as sheet`: `as` is a placement's; a declaration names its own.
            open(.presentation)
            let word = peekText()
            let screenName = text(at: screenPosition, or: "Detail")
            report(current.range, "a screen's declaration gives its presentation without `as` (`screen \(screenName) \(word)`); `as` is written at a placement in the routing tree (`screen \(screenName) as \(word)`)",
                   repair: .removeAs)
            advance()
            presentationWord()
            close()
        } else if isPresentationWord(current) {
            open(.presentation)
            presentationWord()
            close()
        } else if at(.dot) && !current.startsLine && !unwinding && pos + 1 < significant.count && isPresentationWord(token(at: pos + 1))
                    && token(at: pos + 1).start == current.end {
            // `screen Detail .sheet`, as SwiftUI's modifier: one error, at the `.`.
            report(current.range, "a presentation is written without `.`: `screen \(text(at: screenPosition, or: "Detail")) \(peekText())`", repair: .remove)
            skipAsError()
            open(.presentation)
            presentationWord()
            close()
        } else if at(.identifier) && !current.startsLine, let meant = misspeltPresentation {
            // `screen Detail shet`: one error, and its options are read as the word's.
            open(.presentation)
            report(current.range, "expected a presentation (`push`, `sheet`, `cover` or `popover`), found `\(currentText)`: did you mean `\(meant)`?",
                   repair: .replaceWithKeyword(meant))
            advance()
            if at(.lParen) && !current.startsLine { presentationOptions(of: meant) }
            close()
        }
        close()
    }

    /// The presentation word the current identifier misspells (`shet`, `Cover`), if any.
    var misspeltPresentation: String? {
        let word = Array(source.bytes[current.start..<current.end])
        // (SwiftUI's and UIKit's words for them too.)
        switch String(decoding: word, as: UTF8.self) {
        case "fullScreenCover", "fullscreenCover", "fullScreen", "fullscreen": return "cover"
        case "modal": return "sheet"
        default: return ["sheet", "cover", "popover", "push"].first { Self.misspells(word, $0) }
        }
    }

    /// Whether the current token is the identifier `as`.
    var atAs: Bool { at(.identifier) && currentIs("as") }

    /// Whether the current token is the identifier `as` and a presentation word follows it on
    /// its line.
    var atAsBeforePresentation: Bool {
        guard atAs, pos + 1 < significant.count else { return false }
        let next = token(at: pos + 1)
        return !next.startsLine && isPresentationWord(next)
    }

    /// The text of the significant token `ahead` positions after the current one.
    func peekText(_ ahead: Int = 1) -> String {
        source.text(token(at: min(pos + ahead, significant.count - 1)).range)
    }

    /// Whether a token starts a presentation: `push`, `sheet`, or the contextual `cover` and
    /// `popover`.
    func isPresentationWord(_ token: Token) -> Bool {
        if token.kind == .kwPush || token.kind == .kwSheet { return true }
        guard token.kind == .identifier else { return false }
        return self.token(token, is: "cover") || self.token(token, is: "popover")
    }

    /// `push`, or `sheet`, `cover`, `popover` with their options; at such a word.
    mutating func presentationWord() {
        let wordPosition = pos
        let isPush = at(.kwPush)
        advance()
        if isPush {
            if at(.lParen) && !current.startsLine {
                report(current.range, "`push` takes no options: only `sheet`, `cover` and `popover` take `(allowsPush: false)`")
                skipArguments()
            }
        } else if at(.lParen) {
            presentationOptions(of: text(at: wordPosition))
        }
    }

    /// `(allowsPush: true | false)` after `sheet`, `cover` or `popover`.
    mutating func presentationOptions(of word: String) {
        let paren = Int(significant[pos])
        advance()
        var ok = false
        if at(.identifier) {
            if !currentIs("allowsPush") {
                report(current.range, "unknown presentation option `\(currentText)`: `\(word)` takes `allowsPush: true` or `allowsPush: false`")
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
                } else if at(.rParen) {
                    expected("`true` or `false`")
                } else {
                    unexpected("`true` or `false`")
                }
            } else {
                expected("`:` after `allowsPush`")
            }
        } else if at(.rParen) {
            expected("`allowsPush: true` or `allowsPush: false`")
        } else {
            unexpected("`allowsPush: true` or `allowsPush: false`")
        }
        if ok {
            if at(.rParen) {
                advance()
            } else if !current.startsLine && (at(.comma) || (kind.isLabel && peekKind() == .colon)) {
                // `sheet(allowsPush: false, animated: true)`: one error, the rest skipped.
                report(current.range, "`\(word)` takes one option: `allowsPush: true` or `allowsPush: false`")
                skipInParens()
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
        let paren = Int(significant[pos])
        advance()
        while true {
            if at(.rParen) {
                advance()
                break
            }
            if atEOF || atDeclarationAfterParameters || at(.lBrace) || at(.rBrace) {
                expected("`)`", related: [RelatedLocation(file: file, range: tokens[paren].range, message: "to match this `(`")])
                break
            }
            if kind.isLabel {
                open(.parameter)
                if swiftParameterWord() { skipAsError() }
                let labelPosition = pos
                advance()
                if at(.colon) {
                    advance()
                    type()
                    defaultValue()
                } else if atTypeStart, !current.startsLine, !unwinding,
                          let eq = unknownTokens(before: pos).first(where: { text(ofToken: $0) == "=" }) {
                    // `(id = String)`: the type written as a value. One error, at the `=`, and
                    // the type is read.
                    let typeStart = current.start
                    type()
                    explain(unknown: eq, "a parameter's type follows `:`, not `=`: `\(text(at: labelPosition, or: "label")): \(source.text(typeStart..<previousEnd))`",
                            repair: .colonForEquals)
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
            } else if !current.startsLine && (isPresentationWord(current) || atAs) && peekKind() != .colon && peekKind() != .comma
                        && peekKind() != .rParen {
                // `(id: Int sheet`: the presentation after a list left open; it reads on.
                expected("`)`", related: [RelatedLocation(file: file, range: tokens[paren].range, message: "to match this `(`")])
                break
            } else if kind.isLabel && peekKind() == .colon,
                      let semicolon = unknownTokens(before: pos).first(where: { text(ofToken: $0) == ";" }) {
                // `(id: String; n: Int)`: one error, at the `;`.
                explain(unknown: semicolon, "parameters are separated by `,`, not `;`", repair: .replaceWithKeyword(","))
            } else if kind.isLabel && peekKind() == .colon {
                // `(id: String name: String)`: the next parameter, without its comma.
                expected("`,` between parameters")
            } else if !at(.rParen) && !atEOF && !atDeclarationAfterParameters && !(current.startsLine && kind.startsDeclaration) && !at(.lBrace) && !at(.rBrace) {
                unexpected("`,` or `)`")
                skipParameterGarbage()
                if at(.comma) { advance() }
            }
        }
        close()
    }

    /// Whether the current token starts a line with a declaration, where a parameter list
    /// left open ends: a declaration keyword not followed by `:` (which makes it a label), or
    /// a link's `link`.
    var atDeclarationAfterParameters: Bool {
        current.startsLine && (kind.startsDeclaration && peekKind() != .colon || atTopLevelLinkDeclaration)
    }

    /// At `_`, `let` or `var` before a parameter's label and its `:` (`(_ id: String)`,
    /// `(let id: String)`, as Swift writes them): reports it, one error whose fix removes
    /// it, and returns true (the caller skips it; the label after it is the parameter's).
    mutating func swiftParameterWord() -> Bool {
        guard !unwinding, at(.kwLet) || (at(.identifier) && (currentIs("_") || currentIs("var"))), pos + 2 < significant.count,
              token(at: pos + 1).kind.isLabel, !token(at: pos + 1).startsLine,
              token(at: pos + 2).kind == .colon, !token(at: pos + 2).startsLine else { return false }
        let word = currentText
        report(current.range, "a screen's parameter is written `\(text(at: pos + 1)): Type`, without `\(word)`: its label is the field a path names",
               repair: .remove)
        return true
    }

    /// After a parameter's type: `= nil`, `= 0`, `= "x"` (a Swift default value) before the
    /// `,` or `)`. One error over it, whose fix removes it; the value is skipped.
    @inline(never)
    mutating func defaultValue() {
        guard !unwinding, [.identifier, .number, .string, .kwTrue, .kwFalse].contains(kind), !current.startsLine,
              peekKind() == .comma || peekKind() == .rParen,
              let eq = unknownTokens(before: pos).first(where: { text(ofToken: $0) == "=" }) else { return }
        let start = tokens[eq].start
        diagnostics.removeAll { $0.range.lowerBound == start }
        explained.insert(start)
        report(start..<current.end, "a screen's parameter has no default value: a path names every parameter it gives, and a link every one",
               repair: .remove)
        skipAsError()
    }

    mutating func skipParameterGarbage() {
        var any = false
        while !atEOF && !at(.comma) && !at(.rParen) && !at(.lBrace) && !at(.rBrace) && !atDeclarationAfterParameters {
            if !any { open(.error); any = true }
            advance()
        }
        if any { close() }
    }

    // `type()`: TypeParser.swift.

    /// - Parameter keyword: how `dependency` or `optional` is written (left out or
    ///   misspelt: reported; left out, it is read as `dependency`).
    mutating func valueDeclaration(_ declarationKind: SyntaxKind, keyword: DeclarationKeyword = .present) {
        open(declarationKind)
        declarationKeyword(keyword)
        let namePosition = identifierPosition
        let named = name(declarationKind == .dependencyDecl ? "a dependency name" : "an optional name")
        let what = declarationKind == .dependencyDecl ? "dependency" : "optional"
        if at(.colon) {
            advance()
            type()
        } else if named, atTypeStart, !current.startsLine, !unwinding,
                  let eq = unknownTokens(before: pos).first(where: { text(ofToken: $0) == "=" }) {
            // `dependency appStore = AppStore`: the type written as a value. One error, at the
            // `=`, and the type is read.
            let typeStart = current.start
            type()
            explain(unknown: eq, "\(what == "dependency" ? "a" : "an") \(what)'s type follows `:`, not `=`: `\(what) \(text(at: namePosition, or: "name")): \(source.text(typeStart..<previousEnd))`",
                    repair: .colonForEquals)
        } else if named, atTypeStart, !current.startsLine, !unwinding {
            // `dependency appStore AppStore`: the `:` left out. One error, and the type is read.
            report(previousEnd..<previousEnd, "expected `:` between the \(what) name and its type, found \(describeCurrent())", repair: .insert(":"))
            type()
        } else if named || !current.startsLine {
            expected("`: Type` after the \(what) name")
            if atTypeStart && !current.startsLine { type() }
        }
        if at(.kwFrom) {
            open(.fromClause)
            advance()
            name("a screen name after `from`")
            close()
        }
        declarationTail(declarationKind, namePosition: namePosition)
        close()
    }
}
