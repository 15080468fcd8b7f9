import RoutesSyntax

/// `wrong-kind`: a name that is declared, but as another kind than its place needs. Checked
/// when the project resolves each file's names (`Project.resolveNames`).
public enum WrongKind: RuleDefinition {
    public static let id = RuleID("wrong-kind")
    public static let severity = Severity.error
    public static let category = RuleCategory.names
    public static let summary = "A name is used as the wrong kind of declaration."
    public static let documentation = RuleDocumentation(
        what: """
            A name used where another kind of declaration belongs: a flag in `if let`, an \
            optional or dependency in `conditional`, a screen in `uses`, a dependency after \
            `from`, a screen name used as a builder. Related: where the name is declared.
            """,
        why: """
            The place cannot mean the declaration: `conditional` tests a flag, `if let` \
            unwraps an optional, `uses` takes dependencies. The builder around it does not \
            do what it reads as.
            """,
        example: """
            screen Home
            flag isLoggedIn
            root { if let isLoggedIn { screen Home } }
            """,
        fix: """
            Use the construct of the declaration's kind (`conditional isLoggedIn { … }` for a \
            flag, `screen Home` to build a screen), or name a declaration of the right kind.
            """)

    public static let fixes = [
        RuleFix(.safe, """
            Write the construct of the name's kind, where the mistake has one clear reading: \
            `conditional f { … } else { empty }` for `if let f { … }` on a flag (its `else` \
            kept), `if let o` for `conditional o` on an optional, `screen S` for a screen used \
            as a builder, and the `,` missing before a dependency or optional that follows a \
            `uses` list on its line.
            """),
        RuleFix(.unsafe, """
            For a screen used as a builder where a builder of that name with a lower-case \
            first letter is declared (`Detail` and `builder detail`), two readings: the \
            builder's name, or `screen S`. Neither is applied by `--fix` alone.
            """),
    ]

    public struct Finding: Sendable, Hashable {
        public var name: String
        public var kind: DeclarationKind
        public var expected: [DeclarationKind]
        /// A builder the name may have been meant for: the screen's name with a lower-case
        /// first letter (`Detail` where a builder `detail` is declared).
        public var builder: String? = nil

        public init(name: String, kind: DeclarationKind, expected: [DeclarationKind], builder: String? = nil) {
            (self.name, self.kind, self.expected, self.builder) = (name, kind, expected, builder)
        }
    }

    public static func message(_ finding: Finding) -> String {
        var message = "`\(finding.name)` is \(finding.kind.withArticle), not \(finding.expected.map(\.withArticle).joined(separator: " or "))"
        // What the language has for the name's own kind.
        switch (finding.expected, finding.kind) {
        case ([.builder], .screen):
            message += ": write `screen \(finding.name)` to build it"
            if let builder = finding.builder { message += ", or did you mean the builder `\(builder)`?" }
        case ([.builder], .dependency), ([.builder], .optional):
            message += ": \(finding.kind.withArticle) is listed after `uses`, names separated by `,` (a name after the list without one is read as the next builder)"
        case ([.builder], .flag), ([.optional], .flag):
            message += ": a flag is tested with `conditional \(finding.name) { … } else { … }`"
        case ([.optional], .dependency):
            message += ": `if let` unwraps optionals; a dependency is always present"
        case ([.flag], .optional):
            message += ": an optional is tested with `if let \(finding.name) { … }`"
        default:
            break
        }
        return message
    }

    /// The diagnostic at the name, related to its declaration.
    public static func diagnostic(_ finding: Finding, file: FileID, range: Range<Int>, declaredIn: FileID, at: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(finding),
                   related: [RelatedLocation(file: declaredIn, range: at, message: "`\(finding.name)` is declared here as \(finding.kind.withArticle)")],
                   detail: DiagnosticDetail(finding))
    }
}

extension RuleID {
    public static let wrongKind = WrongKind.id
}
