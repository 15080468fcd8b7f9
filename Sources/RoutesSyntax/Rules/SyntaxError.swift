/// `syntax-error`: the text does not parse. The check is the lexer and the resilient parser
/// (`Lexer.tokenize`, `Parser`): they recover and go on, one error per real mistake, each
/// worded where the parser knows what it expected and what it found.
public enum SyntaxError: RuleDefinition {
    public static let id = RuleID("syntax-error")
    public static let severity = Severity.error
    public static let category = RuleCategory.syntax
    public static let summary = "The text does not parse."
    /// What did not parse is not checked: that cannot be silenced or turned off.
    public static let suppressible = false
    public static let configurable = false
    public static let documentation = RuleDocumentation(
        what: """
            A token is missing or unexpected, a block is not closed, a string or escape is \
            malformed, or the file is not valid UTF-8. The parser recovers and keeps going, \
            with one error per mistake: a declaration keyword at the start of a line closes \
            every open block, so the rest of the file is still checked.
            """,
        why: """
            A file that does not parse does not say what the app does: the part that did not \
            parse is left out of the routing tree, and nothing about it can be checked.
            """,
        example: """
            screen Home
            root {
              screen Home {
            }
            """,
        fix: """
            Write what the message asks for at the place it points to (here, close the \
            `screen Home {` block with a `}`). There is no `else if`: write `else { if … }`; \
            a block holds one builder: list several with `anyOf { … }`.
            """)

    /// A syntax error at `range` of `file`.
    public static func diagnostic(file: FileID, range: Range<Int>, message: String,
                                  related: [RelatedLocation] = []) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message, related: related)
    }
}

extension RuleID {
    public static let syntaxError = SyntaxError.id
}
