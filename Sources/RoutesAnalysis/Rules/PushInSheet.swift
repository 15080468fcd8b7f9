import RoutesModel
import RoutesSyntax

/// `push-in-sheet`: a `push` screen node that can be built, but on every path that builds it
/// the last non-push element before it is presented with `allowsPush: false` (a sheet, a
/// cover or a popover; the presentation in force at the node that built it).
public enum PushInSheet: PerNodeRule {
    public static let id = RuleID("push-in-sheet")
    public static let severity = Severity.warning
    public static let category = RuleCategory.presentation
    public static let summary = "A pushed screen that always follows a sheet that does not allow pushes."
    public static let documentation = RuleDocumentation(
        what: """
            A screen presented with `push` (the default) that is built only after a screen \
            presented with `allowsPush: false` (`sheet`, `cover` or `popover`), with no other \
            modal screen between them: it would be pushed where nothing can be pushed. The \
            presentation that counts is the one in force where each screen is placed (its own \
            `as …`, else its declaration's). Related: that sheet, cover or popover. A push \
            that follows it is reported too when it also follows the sheet.
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
            Present the screen as a `sheet` (everywhere, or at this placement with `as sheet`), \
            let the sheet allow pushes (`sheet`), or move the screen out of the sheet's nesting.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            Declare the pushed screen a `sheet` (its declaration changes, wherever it is built).
            """),
        RuleFix(.unsafe, """
            Present the pushed screen as a sheet at this placement only (`as sheet` after its \
            name; an `as push` there becomes `as sheet`).
            """),
        RuleFix(.unsafe, """
            Let the sheet allow pushes (`sheet(allowsPush: false)` becomes `sheet`, and so for a \
            cover or a popover), offered when its declaration is the only place of the programs \
            that forbids pushes.
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
        /// Whether the ways to it may follow other screens presented without pushes than
        /// `sheet` (then the message names `sheet` as one of them).
        var othersMayPrecede = false
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
              graph.presentation(node: g, code: code) == .push else { return nil }
        guard flow.builtEnvironments(g, sigma: 0) == BDD.zero, flow.builtEnvironments(g, sigma: 1) != BDD.zero else { return nil }
        // It must hold however the uncertain leaves build.
        if let other = facts.alternativeFlow, other.builtEnvironments(g, sigma: 0) != BDD.zero
            || other.builtEnvironments(g, sigma: 1) == BDD.zero { return nil }
        var sheet: (GraphNode, ScreenCode)? = nil
        for node in facts.way(to: g, sigma: 1).dropLast().reversed() {
            if case .screen(let sheetCode?, _) = graph.nodes[node].kind, graph.presentation(node: node, code: sheetCode) != .push {
                sheet = (GraphNode(node), ScreenCode(sheetCode))
                break
            }
        }
        var finding = Finding(node: GraphNode(g), screen: ScreenCode(code), sheet: sheet)
        if let sheet {
            // (Another screen, or the same one presented otherwise there: a cover on one way
            // and a popover on another. Not another placement of the same presentation.)
            let named = graph.presentation(node: sheet.0.index, code: sheet.1.index)
            finding.othersMayPrecede = candidateSheets(before: g, facts).contains { node in
                guard case .screen(let other?, _) = graph.nodes[node].kind else { return false }
                return other != sheet.1.index || graph.presentation(node: node, code: other) != named
            }
        }
        return finding
    }

    /// The screen nodes presented without pushes that may come last before node g on a way
    /// to it: those from whose nesting the graph leads to g through states reached after such
    /// a presentation (σ 1), past no other screen presented otherwise than pushed. A superset
    /// of those the ways really follow (a context masked on the way still counts): when it
    /// holds only the sheet of the way found, every way follows that sheet.
    static func candidateSheets(before g: Int, _ facts: ProgramFacts) -> Set<Int> {
        let graph = facts.graph, flow = facts.flow, semantics = facts.semantics
        var seen: Set<Int> = [g]
        var stack = [g]
        var found = Set<Int>()
        while let n = stack.popLast() {
            let owner = semantics.nestingOwner(n)
            Flow.forEachPredecessor(n, in: semantics, crossNestings: true) { p in
                if p == owner, case .screen(let code?, _) = graph.nodes[p].kind {
                    let presentation = graph.presentation(node: p, code: code)
                    if presentation != .push {
                        if !presentation.allowsPush { found.insert(p) }
                        return
                    }
                    guard flow.builtEnvironments(p, sigma: 1) != BDD.zero else { return }
                } else if flow.context(p, sigma: 1) == BDD.zero {
                    return
                }
                if seen.insert(p).inserted { stack.append(p) }
            }
        }
        return found
    }

    static func node(of finding: Finding) -> Int? { finding.node.index }

    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic {
        // The presentation in force where the sheet, cover or popover is built.
        let kind = finding.sheet.map { facts.graph.presentation(node: $0.node.index, code: $0.screen.index).nounWithArticle } ?? "a sheet"
        let sheetName = finding.sheet.map { "`\(facts.screenName($0.screen.index))`, \(kind)" } ?? kind
        let related = finding.sheet.map {
            [facts.location($0.node.index, "`\(facts.screenName($0.screen.index))` is presented here as \(kind) with `allowsPush: false`")]
        } ?? []
        let follows = finding.othersMayPrecede
            ? "a screen presented without pushes (\(sheetName), on one of them)"
            : "\(sheetName) that does not allow pushes"
        var diagnostic = facts.diagnostic(
            Self.self, at: finding.node.index,
            "`\(facts.screenName(finding.screen.index))` is pushed, but on every path that builds it, it follows \(follows)",
            related: related)
        diagnostic.detail = DiagnosticDetail(Detail(screen: facts.graph.screens[finding.screen.index],
                                                    sheet: finding.sheet.map { facts.graph.screens[$0.screen.index] }))
        return diagnostic
    }
}

extension RuleID {
    public static let pushInSheet = PushInSheet.id
}
