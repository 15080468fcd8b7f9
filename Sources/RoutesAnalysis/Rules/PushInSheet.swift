import RoutesModel
import RoutesSyntax

/// `push-in-sheet`: a `push` screen node that can be built, but on every path that builds it
/// the last non-push element before it is a `sheet(allowsPush: false)` screen.
public enum PushInSheet: PerNodeRule {
    public static let id = RuleID("push-in-sheet")
    public static let severity = Severity.warning
    public static let category = RuleCategory.presentation
    public static let summary = "A pushed screen that always follows a sheet that does not allow pushes."
    public static let documentation = RuleDocumentation(
        what: """
            A screen presented with `push` (the default) that is built only after a \
            `sheet(allowsPush: false)` screen, with no other sheet between them: it would be \
            pushed where nothing can be pushed. Related: that sheet. A push that follows it is \
            reported too when it also follows the sheet.
            """,
        why: """
            The sheet has no navigation stack to push onto: the screen does not appear, or the \
            navigation breaks, on every path that reaches it.
            """,
        example: """
            screen Home
            screen Picker sheet(allowsPush: false)
            screen Detail
            root { screen Home { screen Picker { screen Detail } } }
            """,
        fix: """
            Present the screen as a `sheet`, let the sheet allow pushes (`sheet`), or move the \
            screen out of the sheet's nesting.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            Declare the pushed screen a `sheet` (its declaration changes, wherever it is built).
            """),
        RuleFix(.unsafe, """
            Let the sheet allow pushes (`sheet(allowsPush: false)` becomes `sheet`), offered \
            when it is the only screen of the programs that forbids pushes.
            """),
    ]

    /// What the fixes read: the pushed screen, and the sheet before it on one way.
    public struct Detail: Sendable, Hashable {
        public var screen: Symbol
        public var sheet: Symbol?
    }

    struct Finding {
        var node: GraphNode
        var screen: ScreenCode
        /// The last non-push screen node on a way to it, and its screen.
        var sheet: (node: GraphNode, screen: ScreenCode)?
    }

    static func check(_ facts: ProgramFacts) -> [Finding] {
        guard facts.flow.sigmaCount == 2 else { return [] }
        return facts.graph.nodes.indices.compactMap { finding(at: $0, facts) }
    }

    /// Node g's finding, if it is a push that only follows a sheet that allows none. Whether
    /// it is one depends on its own states and its screen's presentation; the sheet named,
    /// on a way to it.
    static func finding(at g: Int, _ facts: ProgramFacts) -> Finding? {
        let graph = facts.graph, flow = facts.flow
        guard flow.sigmaCount == 2, facts.used[g], case .screen(let code?, _) = graph.nodes[g].kind,
              graph.presentations[code] == .push else { return nil }
        guard flow.builtEnvironments(g, sigma: 0) == BDD.zero, flow.builtEnvironments(g, sigma: 1) != BDD.zero else { return nil }
        // It must hold however the uncertain leaves build.
        if let other = facts.alternativeFlow, other.builtEnvironments(g, sigma: 0) != BDD.zero
            || other.builtEnvironments(g, sigma: 1) == BDD.zero { return nil }
        var sheet: (GraphNode, ScreenCode)? = nil
        for node in facts.way(to: g, sigma: 1).dropLast().reversed() {
            if case .screen(let sheetCode?, _) = graph.nodes[node].kind, graph.presentations[sheetCode] != .push {
                sheet = (GraphNode(node), ScreenCode(sheetCode))
                break
            }
        }
        return Finding(node: GraphNode(g), screen: ScreenCode(code), sheet: sheet)
    }

    static func node(of finding: Finding) -> Int? { finding.node.index }

    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic {
        let sheetName = finding.sheet.map { "`\(facts.screenName($0.screen.index))`" } ?? "a sheet"
        let related = finding.sheet.map {
            [facts.location($0.node.index, "`\(facts.screenName($0.screen.index))` is presented here with `allowsPush: false`")]
        } ?? []
        var diagnostic = facts.diagnostic(
            Self.self, at: finding.node.index,
            "`\(facts.screenName(finding.screen.index))` is pushed, but on every path that builds it, it follows \(sheetName), a sheet that does not allow pushes",
            related: related)
        diagnostic.detail = DiagnosticDetail(Detail(screen: facts.graph.screens[finding.screen.index],
                                                    sheet: finding.sheet.map { facts.graph.screens[$0.screen.index] }))
        return diagnostic
    }
}

extension RuleID {
    public static let pushInSheet = PushInSheet.id
}
