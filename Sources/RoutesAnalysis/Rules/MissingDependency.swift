import RoutesModel
import RoutesSyntax

/// `missing-dependency`: a `uses d` (or the `if let d` of an `optional d … from P`) where d is
/// not in scope on every way the node is built (or evaluated). The ways are found by the
/// scope-item engine (`ScopeItems`).
public enum MissingDependency: RuleDefinition {
    public static let id = RuleID("missing-dependency")
    public static let severity = Severity.error
    public static let category = RuleCategory.scope
    public static let summary = "A screen uses a dependency that is not in scope on every way it is built."
    public static let documentation = RuleDocumentation(
        what: """
            A `uses d` at a `screen S` node needs d in scope on every way the node is built: \
            every path and environment that resolve to it, with all the builders passed \
            through from `root`. A dependency without `from` is always in scope; one `from P` \
            is in scope after an earlier element of the path was built by a `screen P` node; \
            an `optional` only inside the then-block of its `if let` (with `from P`, both). The \
            `if let` of an optional `from P` needs P wherever it is evaluated. One error per \
            name (a name listed twice is one entry); related: the outermost reference of one \
            shortest way that lacks it.
            """,
        why: """
            The screen's content would be created without the dependency it needs: a crash, \
            or a screen that cannot work, on the way the checker names (often a deep link that \
            skips the screen that provides it).
            """,
        example: """
            screen Shop
            screen Product
            dependency cartStore: CartStore from Shop
            root {
              anyOf {
                screen Product uses cartStore
                screen Shop { screen Product uses cartStore }
              }
            }
            """,
        fix: """
            Decide which paths the app should have first: a way that lacks the provider is \
            often a link or a notification that opens the screen directly. To keep those \
            paths, give the dependency to the whole app (no `from`: the app provides it in its \
            environment); to make them pass the provider, nest the screen inside \
            `screen P { … }` where the way starts (the links then open `P` first). An optional \
            is unwrapped with `if let d { … }` around the node.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            For a dependency `from P`: give it to the whole app, removing `from P` from its \
            declaration (preferred: every way then has it in scope, and every path the tree \
            builds stays as it was; the app provides the value in its environment).
            """),
        RuleFix(.unsafe, """
            For an optional: wrap the node in `if let d { … }` (preferred: the one way to have \
            it in scope). For a dependency `from P`, as an alternative: nest the node in \
            `screen P { … }`, so that it is built one element later, after a `P`; that changes \
            the paths that reach it (a link or a notification that opened it now needs a `P` \
            before it), so it is not the one `--fix` takes.
            """),
    ]

    /// What the fixes read: the use's declaration, the node whose `uses` (or `if let`)
    /// names it, and what some way lacks.
    public struct Detail: Sendable, Hashable {
        public var declaration: Symbol
        public var node: NodeRef
        /// The screens whose `from` some way lacks (the declaration's provider).
        public var providers: [Symbol]
        /// Whether some way lacks the `if let` of the optional.
        public var optional: Bool
    }

    struct Finding {
        var node: GraphNode
        /// The name in the `uses` list or the `if let`.
        var name: Name
        var declaration: Symbol
        /// The items it lacks, each with one way that lacks it (outermost first).
        var missing: [(item: ScopeItem, way: [Int])]
    }

    /// The names the plan found needing items, against the ways without them (`failures`,
    /// keyed by item code × node count + node).
    static func check(_ facts: ProgramFacts, uses: [MissingDependencyPlan.Use], failures: [Int: [Int]]) -> [Finding] {
        if failures.isEmpty { return [] }
        let graph = facts.graph
        var found: [Finding] = []
        // Each file's nodes once (a lint's model left them out, see `BuilderGraph.leaveModel(for:)`).
        var nodesOf: [FileID: FileModel] = [:]
        for need in uses {
            let g = Int(need.node)
            var missing: [(ScopeItem, [Int])] = []
            for item in [need.first, need.second] where !item.isNone {
                if let way = failures[item.index * graph.nodes.count + g] {
                    missing.append((ScopeItems.item(item, in: graph), way))
                }
            }
            guard !missing.isEmpty else { continue }
            let name: Name
            let file = graph.nodes[g].file
            if nodesOf[file] == nil { nodesOf[file] = graph.project.builderNodes(of: file) }
            let model = nodesOf[file]!
            switch model.nodes[graph.nodes[g].local].kind {
            case .screen(_, let names, _): name = model.uses(names)[Int(need.use - graph.useStart[g])]
            case .ifLet(let optional?, _, _): name = optional
            default: continue
            }
            found.append(Finding(node: GraphNode(g), name: name, declaration: graph.declarationSymbol(Int(need.number)), missing: missing))
        }
        return found
    }

    static func message(_ finding: Finding, _ facts: ProgramFacts) -> String {
        let reasons = finding.missing.map { item, _ -> String in
            switch item {
            case .provider(let providerCode):
                let provider = facts.screenName(providerCode)
                return "it is provided by `\(provider)`, and a way reaches this point with no \(provider) before it"
            case .optional:
                return "it is optional, and a way reaches this point outside `if let \(finding.name.text)`"
            }
        }
        let target: String
        if case .screen(let code?, _) = facts.graph.nodes[finding.node.index].kind {
            target = "`\(facts.screenName(code))` is built"
        } else {
            target = "`\(facts.headText(finding.node.index))` is evaluated"
        }
        return "`\(finding.name.text)` is not in scope on every way \(target): \(reasons.joined(separator: "; also "))"
    }

    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic {
        var related: [RelatedLocation] = []
        // The outermost reference of the first way that lacks an item.
        if let reference = finding.missing.lazy.compactMap({ _, way in
            way.first { if case .reference = facts.graph.nodes[$0].kind { return true } else { return false } }
        }).first {
            related.append(facts.location(reference, "a way without `\(finding.name.text)` in scope passes here"))
        }
        related.append(RelatedLocation(file: finding.declaration.file, range: facts.project.declaration(finding.declaration).name.range,
                                       message: "`\(finding.name.text)` is declared here"))
        let node = facts.graph.nodes[finding.node.index]
        var detail = Detail(declaration: finding.declaration, node: NodeRef(file: node.file, node: node.local), providers: [], optional: false)
        for (item, _) in finding.missing {
            switch item {
            case .provider(let providerCode): detail.providers.append(facts.graph.screens[providerCode])
            case .optional: detail.optional = true
            }
        }
        return Diagnostic(Self.self, file: node.file, range: finding.name.range,
                          message: message(finding, facts), related: related, detail: DiagnosticDetail(detail))
    }
}

extension RuleID {
    public static let missingDependency = MissingDependency.id
}
