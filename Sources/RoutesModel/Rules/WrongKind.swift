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
    ]

    public struct Finding: Sendable, Hashable {
        public var name: String
        public var kind: DeclarationKind
        public var expected: [DeclarationKind]
    }

    public static func message(_ f: Finding) -> String {
        var m = "`\(f.name)` is \(f.kind.withArticle), not \(f.expected.map(\.withArticle).joined(separator: " or "))"
        // What the language has for the name's own kind.
        switch (f.expected, f.kind) {
        case ([.builder], .screen):
            m += ": write `screen \(f.name)` to build it"
        case ([.builder], .dependency), ([.builder], .optional):
            m += ": \(f.kind.withArticle) is listed after `uses`, names separated by `,` (a name after the list without one is read as the next builder)"
        case ([.builder], .flag), ([.optional], .flag):
            m += ": a flag is tested with `conditional \(f.name) { … } else { … }`"
        case ([.optional], .dependency):
            m += ": `if let` unwraps optionals; a dependency is always present"
        case ([.flag], .optional):
            m += ": an optional is tested with `if let \(f.name) { … }`"
        default:
            break
        }
        return m
    }

    /// The diagnostic at the name, related to its declaration.
    public static func diagnostic(_ f: Finding, file: FileID, range: Range<Int>, declaredIn: FileID, at: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(f),
                   related: [RelatedLocation(file: declaredIn, range: at, message: "`\(f.name)` is declared here as \(f.kind.withArticle)")],
                   detail: DiagnosticDetail(f))
    }
}

extension RuleID {
    public static let wrongKind = WrongKind.id
}
