import RoutesSyntax

/// `duplicate-declaration`: a name (or `root`) declared twice in one import closure, or a
/// screen parameter label declared twice. Checked when the project builds each file's scope
/// (`Project`) and when a screen's parameters are lowered (`Lowering`).
public enum DuplicateDeclaration: RuleDefinition {
    public static let id = RuleID("duplicate-declaration")
    public static let severity = Severity.error
    public static let category = RuleCategory.names
    public static let summary = "A name, or root, is declared twice in one import closure."
    public static let documentation = RuleDocumentation(
        what: """
            Screens, dependencies, optionals, flags and builders share one namespace: each \
            name is declared once in a file and everything it imports. A second `root` in one \
            program is a duplicate too, and so is a parameter label written twice in one \
            screen. The later declaration is reported (across files, the importing file's is \
            the later one), related to the first.
            """,
        why: """
            Every use of the name means the first declaration: the second one is dead, and \
            whoever edits it changes nothing in the app.
            """,
        example: """
            screen Home
            screen Home sheet
            root { screen Home }
            """,
        fix: """
            Rename one of the two (and its uses), or delete the one that is not meant.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            Rename the later declaration (or parameter label) to the name followed by the \
            first number that no declaration of the project has (`Home2`). Its uses keep \
            meaning the first one. Not offered for a second `root`, nor when the first \
            declaration stands on a line with a syntax error (it may be what the parser made \
            of something else, as a placement pasted at the top level), nor when the later one \
            is indented below a syntax error of its file (a node of a block that a stray `}` \
            closed early).
            """),
    ]

    /// What is declared twice.
    public enum Finding: Sendable, Hashable {
        /// A name, declared first as `firstKind`.
        case name(String, firstKind: DeclarationKind)
        /// `root`, twice in one program.
        case root
        /// A screen's parameter label.
        case parameter(label: String, screen: String)
    }

    public static func message(_ finding: Finding) -> String {
        switch finding {
        case .name(let name, _): "invalid redeclaration of `\(name)`"
        case .root: "`root` is declared more than once in this program"
        case .parameter(let label, let screen): "parameter `\(label)` of screen `\(screen)` is declared twice"
        }
    }

    static func relatedMessage(_ finding: Finding) -> String {
        switch finding {
        case .name(let name, let kind): "`\(name)` first declared here as \(kind.withArticle)"
        case .root: "the first `root`"
        case .parameter(let label, _): "`\(label)` first declared here"
        }
    }

    /// The diagnostic at the later declaration's name, related to the first; its detail is
    /// the finding.
    public static func diagnostic(_ finding: Finding, file: FileID, range: Range<Int>,
                                  firstFile: FileID, firstRange: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(finding),
                   related: [RelatedLocation(file: firstFile, range: firstRange, message: relatedMessage(finding))],
                   detail: DiagnosticDetail(finding))
    }
}

extension RuleID {
    public static let duplicateDeclaration = DuplicateDeclaration.id
}
