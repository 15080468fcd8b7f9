import RoutesModel
import RoutesSyntax

/// `wildcard-mismatch`: `wildcard W { B }` where B cannot build a W in any environment. A
/// property of the builder itself, over every environment.
public enum WildcardMismatch: PerNodeRule {
    public static let id = RuleID("wildcard-mismatch")
    public static let severity = Severity.warning
    public static let category = RuleCategory.routing
    public static let summary = "A wildcard whose builder cannot build its screen: it builds nothing."
    public static let documentation = RuleDocumentation(
        what: """
            `wildcard W { B }` replaces the path element with a `W` and asks B to build it. \
            When B cannot build a W in any environment, the wildcard builds nothing, whatever \
            the element. Nothing inside it is reported again.
            """,
        why: """
            Every path that reaches the wildcard stops there: the app shows nothing where the \
            wildcard was meant to show a screen, for every link and every user.
            """,
        example: """
            screen Shop
            screen Browse
            root { wildcard Browse { screen Shop } }
            """,
        fix: """
            Name the screen the builder starts with (`wildcard Shop { … }`), or make the \
            builder build the wildcard's screen.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            Name a screen the builder starts with instead (one fix per screen without \
            parameters that a `screen` node of its first element names; preferred when \
            there is one).
            """),
    ]

    /// What the fixes read: the wildcard.
    public struct Detail: Sendable, Hashable {
        public var wildcard: NodeRef
    }

    struct Finding {
        var wildcard: GraphNode
        var screen: ScreenCode
    }

    /// Node g's finding, if it is a wildcard whose body cannot build its screen: it depends
    /// on g and on what its body builds.
    static func finding(at g: Int, _ facts: ProgramFacts) -> Finding? {
        let semantics = facts.semantics
        guard facts.used[g], case .wildcard(let code?, let body) = facts.graph.nodes[g].kind, !semantics.uncertain[body],
              semantics.environments(semantics.builds[body], element: code) == BDD.zero else { return nil }
        return Finding(wildcard: GraphNode(g), screen: ScreenCode(code))
    }

    static func node(of finding: Finding) -> Int? { finding.wildcard.index }

    /// Nothing inside a wildcard that builds nothing is reported again.
    static var cause: OutermostCause.Covered { .children }

    static func message(_ finding: Finding, _ facts: ProgramFacts) -> String {
        let screen = facts.screenName(finding.screen.index)
        return "`wildcard \(screen)` builds nothing: its builder cannot build \(screen) in any environment"
    }

    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic {
        var diagnostic = facts.diagnostic(Self.self, at: finding.wildcard.index, message(finding, facts))
        diagnostic.detail = DiagnosticDetail(Detail(wildcard: facts.nodeRef(finding.wildcard.index)))
        return diagnostic
    }
}

extension RuleID {
    public static let wildcardMismatch = WildcardMismatch.id
}
