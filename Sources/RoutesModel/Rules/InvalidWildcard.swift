import RoutesSyntax

/// `invalid-wildcard`: `wildcard W` where the screen W has parameters. Checked when the
/// project resolves each file's names (`Project.resolveNames`).
public enum InvalidWildcard: RuleDefinition {
    public static let id = RuleID("invalid-wildcard")
    public static let severity = Severity.error
    public static let category = RuleCategory.routing
    public static let summary = "A wildcard names a screen that has parameters."
    public static let documentation = RuleDocumentation(
        what: """
            `wildcard W { … }` replaces the path element with a new `W()`: the screen must \
            have no parameters, since nothing would give them values.
            """,
        why: """
            The wildcard cannot create its screen: whatever the link, the element it should \
            build is not built.
            """,
        example: """
            screen Shop(selectedTab: Int)
            root { wildcard Shop { screen Shop } }
            """,
        fix: """
            Name a screen without parameters, or give the screen's parameters up (a tab can be \
            a screen of its own).
            """)

    public struct Finding: Sendable, Hashable {
        public var screen: String
        public var labels: [String]
    }

    /// The finding for `wildcard` naming a declaration of `kind` whose parameters have
    /// `labels`, if that is a screen with parameters.
    public static func check(_ wildcard: Name, kind: DeclarationKind, labels: [String]) -> Finding? {
        guard kind == .screen, !labels.isEmpty else { return nil }
        return Finding(screen: wildcard.text, labels: labels)
    }

    public static func message(_ finding: Finding) -> String {
        "`wildcard \(finding.screen)` needs a screen without parameters, but `\(finding.screen)` has (\(finding.labels.joined(separator: ", ")))"
    }

    /// The diagnostic at the wildcard's screen name, related to the screen's declaration.
    public static func diagnostic(_ finding: Finding, file: FileID, range: Range<Int>, declaredIn: FileID, at: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(finding),
                   related: [RelatedLocation(file: declaredIn, range: at, message: "`\(finding.screen)` is declared here")])
    }
}

extension RuleID {
    public static let invalidWildcard = InvalidWildcard.id
}
