import RoutesModel
import RoutesSyntax

/// `unused-suppression`: a `// routes:ignore …` comment that suppresses nothing, names a rule
/// that does not exist, or names one that cannot be suppressed (see `Suppressions`).
public enum UnusedSuppression: RuleDefinition {
    public static let id = RuleID("unused-suppression")
    public static let severity = Severity.warning
    public static let category = RuleCategory.hygiene
    public static let summary = "A suppression comment that suppresses nothing, or names no rule that can be suppressed."
    public static let marksUnnecessary = true
    public static let documentation = RuleDocumentation(
        what: """
            `// routes:ignore rule-id[, rule-id]` at the end of a line, or alone on the line \
            above, suppresses those rules' diagnostics that start on that line (a reason may \
            follow the ids: `// routes:ignore unreachable-screen -- designed, not placed yet`). \
            This reports \
            a rule id in such a comment that suppresses nothing there, that is not a rule, or \
            whose rule cannot be suppressed (syntax errors and the analysis limit), and a \
            comment that names no rule.
            """,
        why: """
            A suppression outlives the problem it silenced: when the code changes, a stale one \
            would hide the next real finding on that line without anyone noticing.
            """,
        example: """
            screen Home
            root { screen Home } // routes:ignore \(ShadowedBranch.id)
            """,
        fix: """
            Delete the rule id (or the whole comment); correct a misspelt id (`routes rules` \
            lists them).
            """)
    public static let fixes = [
        RuleFix(.safe, """
            Remove the rule id from the comment, or the whole comment when it names nothing \
            else (its line too when the comment is alone on it).
            """),
        RuleFix(.unsafe, """
            Replace a misspelt id by the suggested rule (preferred), offered when that rule \
            reports something the comment then suppresses.
            """),
    ]

    public enum Finding: Sendable, Hashable {
        /// A rule id that suppresses nothing on its line.
        case unused(RuleID)
        /// A word that is no rule id.
        case unknown(String, suggestion: String?)
        /// A rule whose diagnostics cannot be suppressed.
        case notSuppressible(RuleID)
        /// `// routes:ignore` naming no rule.
        case empty
    }

    static func message(_ finding: Finding) -> String {
        switch finding {
        case .unused(let id): "`\(id)` suppresses nothing: no `\(id)` diagnostic starts on this line"
        case .unknown(let word, let suggestion): "`\(word)` is not a rule" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")
        case .notSuppressible(let id): "`\(id)` cannot be suppressed"
        case .empty: "this suppression names no rule: write `// routes:ignore rule-id`"
        }
    }

    static func diagnostic(_ finding: Finding, file: FileID, range: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(finding), detail: DiagnosticDetail(finding))
    }
}

extension RuleID {
    public static let unusedSuppression = UnusedSuppression.id
}
