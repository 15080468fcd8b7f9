/// Swift types in declarations (`id: String`, `dependency store: any Store & Sendable`), kept
/// as text but parsed enough to check their brackets:
///
/// ```
/// type          = { attribute } ( functionType | plainType )
/// functionType  = tuple [ "async" ] [ "throws" [ "(" type ")" ] ] "->" type
/// plainType     = [ "any" | "some" ] postfixType { "&" postfixType }
/// postfixType   = primaryType { "?" | "." name [ genericArgs ] }
/// primaryType   = name [ genericArgs ] | "[" type [ ":" type ] "]" | tuple
/// genericArgs   = "<" type { "," type } ">"
/// tuple         = "(" [ element { "," element } ] ")"
/// element       = [ label [ name ] ":" ] [ "inout" | "borrowing" | "consuming" | "sending" ] type
/// ```
///
/// `any`, `some`, `async`, `throws` and the parameter specifiers are ordinary identifiers
/// that only their place gives meaning to, as in Swift. A malformed type is one error: after
/// the first, the rest of the type reports nothing, and what is left of it on its line is
/// skipped.
extension Parser {
    /// Words that precede a type in a function type's parameter (`inout Int`).
    static let parameterSpecifiers: Set<String> = ["inout", "borrowing", "consuming", "sending"]

    /// Whether the current token can start a type.
    var atTypeStart: Bool {
        at(.identifier) || at(.lBracket) || at(.lParen) || at(.attribute)
    }

    /// Whether the current token is the identifier `word`.
    func atWord(_ word: StaticString) -> Bool {
        at(.identifier) && currentIs(word)
    }

    /// Whether the token after the current one can start a type. (Layout never matters: no
    /// valid type is followed by one of these.)
    var nextStartsType: Bool {
        switch peekKind() {
        case .identifier, .lBracket, .lParen, .attribute: return true
        default: return false
        }
    }

    /// Parses a type. The outermost call owns the error state of everything inside it.
    mutating func type() {
        let outermost = !inType
        if outermost {
            inType = true
            typeFailed = false
            typeBrackets.removeAll()
        }
        defer {
            if outermost {
                inType = false
                if typeFailed { skipRestOfType() }
            }
        }
        open(.type)
        defer { close() }
        if depth >= maxDepth {
            tooDeep()
            return
        }
        depth += 1
        defer { depth -= 1 }
        while at(.attribute) { advance() }
        if at(.lParen) {
            tuple()
            if atWord("async") || atWord("throws") || at(.arrow) {
                functionTail()
            } else {
                postfix()
                composition()
            }
            return
        }
        if (atWord("any") || atWord("some")) && nextStartsType { advance() }
        guard postfixType() else { return }
        composition()
        if at(.arrow) && !typeFailed {
            // `Int -> Void`: Swift wants the parameters in parentheses.
            typeFailed = true
            report(current.range, "a function type's parameters are written in parentheses: `(Int) -> Void`, not `Int -> Void`")
        }
    }

    /// `{ "&" postfixType }`.
    mutating func composition() {
        while at(.ampersand) {
            advance()
            guard postfixType() else { return }
        }
    }

    /// `primaryType { "?" | "." name [ genericArgs ] }`; false when no type was there.
    @discardableResult
    mutating func postfixType() -> Bool {
        if at(.identifier) {
            advance()
            if at(.lAngle) { genericArguments() }
        } else if at(.lBracket) {
            let bracket = Int(significant[pos])
            openBracket()
            type()
            if at(.colon) {
                advance()
                type()
            }
            if at(.rBracket) {
                closeBracket()
            } else {
                typeExpected("`]`", related: [RelatedLocation(file: file, range: tokens[bracket].range, message: "to match this `[`")])
            }
        } else if at(.lParen) {
            tuple()
        } else {
            typeExpected("a type")
            return false
        }
        postfix()
        return true
    }

    /// `{ "?" | "." name [ genericArgs ] }`.
    mutating func postfix() {
        while true {
            if at(.question) {
                advance()
            } else if at(.dot) {
                advance()
                guard at(.identifier) else {
                    typeExpected("a type name after `.`")
                    return
                }
                advance()
                if at(.lAngle) { genericArguments() }
            } else {
                return
            }
        }
    }

    /// `"<" type { "," type } ">"`.
    mutating func genericArguments() {
        let angle = Int(significant[pos])
        openBracket()
        type()
        while at(.comma) {
            advance()
            type()
        }
        if at(.rAngle) {
            closeBracket()
        } else {
            typeExpected("`>`", related: [RelatedLocation(file: file, range: tokens[angle].range, message: "to match this `<`")])
        }
    }

    /// `"(" [ element { "," element } ] ")"`: a tuple, a parenthesized type, or a function
    /// type's parameters.
    mutating func tuple() {
        let paren = Int(significant[pos])
        openBracket()
        if at(.rParen) {
            closeBracket()
            return
        }
        while true {
            // `label:` or `_ name:` before the element's type.
            if kind.isLabel && peekKind() == .colon {
                advance()
                advance()
            } else if kind.isLabel && peekKind() == .identifier && peekKind(2) == .colon {
                advance()
                advance()
                advance()
            }
            if at(.identifier), Parser.parameterSpecifiers.contains(currentText), nextStartsType { advance() }
            type()
            if typeFailed { return }
            if at(.comma) {
                advance()
                continue
            }
            if at(.rParen) {
                closeBracket()
            } else {
                typeExpected("`,` or `)`", related: [RelatedLocation(file: file, range: tokens[paren].range, message: "to match this `(`")])
            }
            return
        }
    }

    /// `[ "async" ] [ "throws" [ "(" type ")" ] ] "->" type`, after a function type's parameters.
    mutating func functionTail() {
        if atWord("async") { advance() }
        if atWord("throws") {
            advance()
            if at(.lParen) && !current.startsLine {
                let paren = Int(significant[pos])
                openBracket()
                type()
                if at(.rParen) {
                    closeBracket()
                } else {
                    typeExpected("`)`", related: [RelatedLocation(file: file, range: tokens[paren].range, message: "to match this `(`")])
                }
            }
        }
        if at(.arrow) {
            advance()
            type()
        } else {
            typeExpected("`->` and the result type of the function type")
        }
    }

    /// A type's syntax error: reported once per outermost type.
    mutating func typeExpected(_ what: String, related: [RelatedLocation] = []) {
        if typeFailed { return }
        typeFailed = true
        expected(what, related: related)
    }

    mutating func openBracket() {
        typeBrackets.append(kind)
        advance()
    }

    mutating func closeBracket() {
        if !typeBrackets.isEmpty { typeBrackets.removeLast() }
        advance()
    }

    /// After a malformed type, the rest of it on the same line is skipped: its unclosed
    /// brackets' contents and closers, up to what can follow a type (`,` `)` `from`, a brace
    /// or a declaration), so that the one mistake is one error.
    mutating func skipRestOfType() {
        var unclosed = typeBrackets
        var any = false
        scan: while !atEOF && !current.startsLine && !at(.lBrace) && !at(.rBrace) && !kind.isKeyword {
            switch kind {
            case .lParen, .lBracket, .lAngle:
                unclosed.append(kind)
            case .rParen, .rBracket, .rAngle:
                let opener: TokenKind = kind == .rParen ? .lParen : kind == .rBracket ? .lBracket : .lAngle
                guard let match = unclosed.lastIndex(of: opener) else {
                    if kind == .rParen { break scan }
                    break
                }
                unclosed.removeSubrange(match...)
            case .comma:
                if unclosed.isEmpty { break scan }
            default:
                break
            }
            if !any {
                open(.error)
                any = true
            }
            advance()
        }
        if any { close() }
    }
}
