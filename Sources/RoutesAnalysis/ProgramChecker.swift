import RoutesModel
import RoutesSyntax

/// The rules of one program (a `root` and its imports) that need its analysis, in order:
/// the facts first (used region, flows, mentions), then each rule over them, then "outermost
/// cause once" over the warnings. Each rule lives in its own file under `Rules/`; this keeps
/// their order and the threading (the plan of `MissingDependency` on another core while paths
/// are resolved).
struct ProgramChecker {
    private(set) var facts: ProgramFacts
    /// The scope-item engine, for `MissingDependency` and the editor's scope questions.
    let scope: ScopeItems
    private(set) var diagnostics: [Diagnostic] = []
    /// Per diagnostic, the builder node a warning is about, when it is about one (a program
    /// that does not use the node has no say on it, see `AnalysisSession`).
    private(set) var places: [NodeRef?] = []
    /// What the previous analysis of this program found about ways, and the nodes an edit
    /// resolved again, when the graph was patched (see `ScopeItems.plan`).
    private var earlier: Earlier?
    /// What the rules over the flows found (before "outermost cause once"), for the checker
    /// after an edit that leaves them as they are (`ProgramFacts.flowsAsBefore`).
    private(set) var flowFindings: FlowFindings? = nil
    /// Whether the shadowed branches were found from the earlier ones (tests).
    private(set) var shadowedKept = false

    struct FlowFindings {
        var shadowed: [ShadowedBranch.Finding]
        var mismatched: [WildcardMismatch.Finding]
        var unreachable: [UnreachableScreen.Finding]
        var pushed: [PushInSheet.Finding]
    }

    /// What the checker takes from the previous analysis of its program, when the graph was
    /// patched over an edit: the ways (see `ScopeItems.plan`) and the facts, whose flows it
    /// continues (see `ProgramFacts.resolvePaths(earlier:)`), with the global ids of the nodes
    /// the edit resolved again, and what the rules over the flows found.
    typealias Earlier = (ways: ScopeItems.Ways, facts: ProgramFacts, edited: EditedNodes, findings: FlowFindings?)

    init(semantics: Semantics, program: Program, earlier: Earlier? = nil) {
        self.earlier = earlier
        facts = ProgramFacts(semantics: semantics, program: program, earlier: earlier.map { ($0.facts, $0.edited) })
        scope = ScopeItems()
    }

    var program: Program { facts.program }
    var rootBody: Int? { facts.rootBody }
    var used: [Bool] { facts.used }
    var flow: Flow { facts.flow }

    /// What the checker found about ways, for the checker after an edit.
    var ways: ScopeItems.Ways { scope.ways(facts) }

    /// The scope items a dependency or optional needs, or nil when it is always in scope.
    func scopeItems(_ s: Symbol) -> [ScopeItem]? { scope.items(of: s, facts) }

    /// A way from `root` on which `item` is not in scope at node g (see `ScopeItems`).
    func wayWithout(_ item: ScopeItem, at g: Int, storage: FlowStorage, region: Region) -> [Int]? {
        scope.wayWithout(item, at: g, storage: storage, region: region, facts)
    }

    /// Fills `region` with the nodes from which a way leads to g.
    func fillRegion(_ region: Region, leadingTo g: Int) { scope.fillRegion(region, leadingTo: g, facts) }

    mutating func run() {
        defer { earlier = nil }
        guard let rootBody = facts.rootBody else { return }
        // What `MissingDependency` needs besides flows reads the graph and the used region only:
        // on a large program it is found on another core while this one resolves paths.
        // Whichever thread takes the plan first makes it.
        let (graph, used, earlier) = (facts.graph, facts.used, self.earlier.map { ($0.ways, $0.edited) })
        let inputs = UncheckedSendable((graph, used, earlier))
        let plan = SharedWorkList(count: 1) { _ in
            ScopeItems.plan(graph: inputs.value.0, used: inputs.value.1, rootBody: rootBody, earlier: inputs.value.2)
        }
        if graph.nodes.count >= MissingDependencyPlan.nodesForConcurrentPlan { plan.start() }
        let carried = facts.flowsAsBefore ? self.earlier?.findings : nil
        // What the earlier analysis knew of each node, for the rules that can keep what they
        // found where nothing they read changed.
        let before = self.earlier.map { ($0.findings, $0.facts.used, $0.facts.semantics.uncertain) }
        facts.resolvePaths()
        let found = carried ?? FlowFindings(shadowed: shadowedBranches(before), mismatched: WildcardMismatch.check(facts),
                                            unreachable: UnreachableScreen.check(facts), pushed: PushInSheet.check(facts))
        flowFindings = found

        var warnings: [OutermostCause.Warning] = []
        var causes = OutermostCause.Causes()
        for f in found.shadowed {
            warnings.append(.init(node: f.branch, diagnostic: ShadowedBranch.diagnostic(f, facts)))
            causes.shadowedBranches.append(f.branch)
        }
        for f in found.mismatched {
            warnings.append(.init(node: f.wildcard, diagnostic: WildcardMismatch.diagnostic(f, facts)))
            causes.mismatchedWildcards.append(f.wildcard)
        }
        for f in found.unreachable {
            guard case .node(let g, _, _) = f else { continue }
            warnings.append(.init(node: g, diagnostic: UnreachableScreen.diagnostic(f, facts)))
            causes.unreachableNodes.append(g)
        }
        for f in found.pushed {
            warnings.append(.init(node: f.node, diagnostic: PushInSheet.diagnostic(f, facts)))
        }
        for w in OutermostCause.filter(warnings, causes: causes, facts) {
            let n = facts.graph.nodes[w.node.index]
            append(w.diagnostic, at: NodeRef(file: n.file, node: n.local))
        }

        let made = plan.results()[0]
        scope.adopt(made)
        let failures = scope.failures(made, facts)
        for f in MissingDependency.check(facts, uses: made.uses, failures: failures) { append(MissingDependency.diagnostic(f, facts)) }
        reportUnused()
    }

    /// The shadowed branches: after an edit whose flows continued the earlier ones, over a
    /// semantics that carried the earlier builds, the earlier findings of every `anyOf` that
    /// nothing the rule reads changed for (see `ShadowedBranch.check(_:earlier:changed:)`).
    private mutating func shadowedBranches(_ before: (findings: FlowFindings?, used: [Bool], uncertain: [Bool])?) -> [ShadowedBranch.Finding] {
        guard let before, let earlier = before.findings, let recomputed = facts.recomputed,
              let dirty = facts.semantics.carriedDirty, facts.semantics.cycles.isEmpty,
              before.used.count == facts.used.count, before.uncertain.count == facts.used.count
        else { return ShadowedBranch.check(facts) }
        shadowedKept = true
        let (used, uncertain) = (facts.used, facts.semantics.uncertain)
        var changed: [Int] = []
        for x in used.indices where recomputed[x] || dirty[x] || before.used[x] != used[x] || before.uncertain[x] != uncertain[x] {
            changed.append(x)
        }
        return ShadowedBranch.check(facts, earlier: earlier.shadowed, changed: changed)
    }

    /// What a program whose analysis stopped at its limit still gets: the rules that read no
    /// decision diagram (declarations never used, screens never placed).
    mutating func runWithoutFlows() {
        guard facts.rootBody != nil else { return }
        reportUnused()
    }

    private mutating func reportUnused() {
        facts.findMentions()
        for f in UnusedDeclaration.check(facts) { append(UnusedDeclaration.diagnostic(f)) }
        for f in UnreachableScreen.checkPlacement(facts) { append(UnreachableScreen.diagnostic(f, facts)) }
    }

    private mutating func append(_ d: Diagnostic, at node: NodeRef? = nil) {
        diagnostics.append(d)
        places.append(node)
    }

    /// Points the checker at the project after a trivia edit (same structure, moved
    /// positions): its results do not depend on positions. (Its diagnostics are moved by its
    /// `ProgramAnalysis`, which keeps them.)
    mutating func rebase(onto newProject: Project, graph newGraph: BuilderGraph) {
        facts.rebase(onto: newProject, graph: newGraph)
    }
}

/// A value handed to another thread whose use there is known to be safe (see its use).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
