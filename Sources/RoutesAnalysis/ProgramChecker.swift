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
    /// The program's links, with the conditions of their paths.
    private(set) var links = ProgramLinks()
    /// Per diagnostic, the builder node a warning is about, when it is about one (a program
    /// that does not use the node has no say on it, see `AnalysisSession`).
    private(set) var places: [NodeRef?] = []
    /// What the previous analysis of this program found about ways, and the nodes an edit
    /// resolved again, when the graph was patched (see `ScopeItems.plan`).
    private var carryover: Carryover?
    /// What the node rules found (before "outermost cause once"), in registry order, for the
    /// checker after an edit that leaves them as they are (`ProgramFacts.flowsAsBefore`).
    private(set) var nodeFindings: [any NodeRuleFindings]? = nil
    /// Whether the node rules found their findings again from the earlier ones (tests).
    private(set) var nodeFindingsRefound = false

    /// What the checker takes from the previous analysis of its program, when the graph was
    /// patched over an edit: the ways (see `ScopeItems.plan`) and the facts, whose flows it
    /// continues (see `ProgramFacts.resolvePaths()`), with the global ids of the nodes
    /// the edit resolved again, and what the node rules and the declaration rules found.
    typealias Carryover = (ways: ScopeItems.Ways, facts: ProgramFacts, edited: EditedNodes, nodeFindings: [any NodeRuleFindings]?,
                         declarationFindings: [any DeclarationRuleFindings]?)

    /// What the declaration rules found, in registry order, for the checker after an edit.
    private(set) var declarationFindings: [any DeclarationRuleFindings]? = nil
    /// Whether the declaration rules kept the earlier findings where nothing they read
    /// changed (tests).
    private(set) var declarationFindingsKept = false

    /// With `early`, the plan of `missing-dependency` made while the semantics was computed
    /// (see ``earlyPlan(graph:program:)``), and the used region it was made for.
    init(semantics: Semantics, program: Program, carryover: Carryover? = nil, early: EarlyPlan? = nil) {
        self.carryover = carryover
        facts = ProgramFacts(semantics: semantics, program: program, carryover: carryover.map { ($0.facts, $0.edited) },
                             region: early?.region)
        scope = ScopeItems()
        self.early = early
    }

    /// A plan of `missing-dependency` started before the semantics, for a lint: taken once,
    /// so that no holder keeps it alive afterwards.
    final class EarlyPlan {
        let region: ProgramFacts.UsedRegion
        private var plan: SharedWorkList<MissingDependencyPlan>?

        init(region: ProgramFacts.UsedRegion, plan: SharedWorkList<MissingDependencyPlan>) {
            self.region = region
            self.plan = plan
        }

        /// The plan, once it is made; nil once taken (a second analysis of the program, in
        /// the other layout, makes its own).
        func take() -> MissingDependencyPlan? {
            defer { plan = nil }
            return plan?.results()[0]
        }
    }

    private var early: EarlyPlan?

    /// For a lint of a large program (`run(.freeingEarly)`): the plan of
    /// `missing-dependency`, which reads the graph and the used region only, started on
    /// another core, to be made while this one computes the semantics.
    static func earlyPlan(graph: BuilderGraph, program: Program) -> EarlyPlan? {
        guard graph.nodes.count >= MissingDependencyPlan.nodesForConcurrentPlan,
              let rootBody = ProgramFacts.rootBody(of: program, in: graph) else { return nil }
        let region = ProgramFacts.usedRegion(of: graph, from: rootBody)
        let inputs = UncheckedSendable((graph, region.used))
        let plan = SharedWorkList(count: 1) { _ in
            ScopeItems.plan(graph: inputs.value.0, used: inputs.value.1, rootBody: rootBody, earlier: nil)
        }
        plan.start()
        return EarlyPlan(region: region, plan: plan)
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

    /// In what order the checker runs its rules, by what follows the analysis.
    enum Order {
        /// An analysis after an edit will continue this one: the plan of
        /// `missing-dependency` (the way graph, the uses) is made on another core while paths
        /// are resolved, and kept for the next edit.
        case keepingPlan
        /// Nothing continues this analysis (a lint): `missing-dependency` is checked first,
        /// and its plan (made while the semantics was computed, when the checker was given
        /// it) and flows are gone before the main flows grow. (A question about ways makes
        /// the way graph again, see `ScopeItems.fillRegion`.) Then what is mentioned is found
        /// before the flows too (it needs none), and the decision-diagram nodes that the
        /// semantics and `missing-dependency` made on their way are freed
        /// (`Semantics.collectGarbage`), for the flows' nodes to take. No question follows
        /// either: the links' conditions, which only questions read (`routes link`, hover,
        /// code lenses), are not judged.
        case freeingEarly
    }

    /// Runs the rules; the link rules over the program's links among those `pending` reads
    /// (on other cores meanwhile: the paths are followed first, the rest is taken last; for
    /// a lint, the paths too are followed on another core, in a copy of the manager, while
    /// this one grows the flows).
    mutating func run(_ order: Order = .keepingPlan, links pending: PendingLinks) {
        defer { carryover = nil }
        let earlierMentions = carryover.flatMap { carried in carried.declarationFindings.map { (carried.facts, carried.edited, $0) } }
        guard let rootBody = facts.rootBody else { return }
        let keepsPlan = order == .keepingPlan
        let following = keepsPlan ? nil : ProgramLinks.following(facts, pending: pending)
        if keepsPlan { checkLinks(pending) }
        Profile.mark("program: links' paths followed")
        defer { completeLinks(pending, following) }
        let (graph, used, earlier) = (facts.graph, facts.used, self.carryover.map { ($0.ways, $0.edited) })
        if !keepsPlan {
            checkMissingDependencies(early?.take() ?? ScopeItems.plan(graph: graph, used: used, rootBody: rootBody, earlier: earlier))
            early = nil
            // The decision-diagram nodes are collected on another core, on a large program,
            // while this one finds what is mentioned and placed: that needs no flow and reads
            // no decision diagram, and its counts (two numbers per declaration) are let go of
            // before the flows grow.
            let semantics = UncheckedSendable(facts.semantics)
            let collection = SharedWorkList(count: 1) { _ in semantics.value.collectGarbage() }
            if graph.nodes.count >= Flow.nodesForTwoThreads { collection.start() }
            reportUnused(earlierMentions)
            facts.forgetMentionCounts()
            _ = collection.results()
            facts.semantics.forgetEditStructure()
            // The plan's, the counts' and the structure's arrays are freed into the middle of
            // the heap, where the flows' storage would not reuse them: given back, on a large
            // program (see `HeapTrim`).
            HeapTrim.afterFreeing(graphNodes: graph.nodes.count)
        }
        // What `MissingDependency` needs besides flows reads the graph and the used region only:
        // on a large program it is found on another core while this one resolves paths.
        // Whichever thread takes the plan first makes it.
        let inputs = UncheckedSendable((graph, used, earlier))
        let plan = !keepsPlan ? nil : SharedWorkList(count: 1) { _ in
            ScopeItems.plan(graph: inputs.value.0, used: inputs.value.1, rootBody: rootBody, earlier: inputs.value.2)
        }
        if graph.nodes.count >= MissingDependencyPlan.nodesForConcurrentPlan { plan?.start() }
        let carried = facts.flowsAsBefore ? self.carryover?.nodeFindings : nil
        // What the earlier analysis knew of each node, for the rules that can keep what they
        // found where nothing they read changed.
        let before = self.carryover.map {
            RulesCarryover(findings: $0.nodeFindings, used: $0.facts.used, uncertain: $0.facts.semantics.uncertain,
                   uncertainNodes: $0.facts.semantics.uncertainNodes, presentations: $0.facts.graph.presentations,
                   placementPresentations: $0.facts.graph.placementPresentations)
        }
        Profile.mark("program: rules before the flows")
        facts.resolvePaths()
        Profile.mark("program: flows")
        let found = carried ?? nodeRules(before)
        nodeFindings = found
        Profile.mark("program: node rules")
        let warnings = found.flatMap { $0.warnings(facts) }
        for warning in OutermostCause.filter(warnings, facts) {
            let node = facts.graph.nodes[warning.node]
            append(warning.diagnostic, at: NodeRef(file: node.file, node: node.local))
        }

        if let made = plan?.results()[0] {
            scope.adopt(made)
            checkMissingDependencies(made)
        }
        if keepsPlan { reportUnused(earlierMentions) }
    }

    /// The program's links' paths followed (see `ProgramLinks`), `unbuildable-link`, and the
    /// links' conditions: before the flows, while every decision diagram the paths'
    /// conditions read is there.
    private mutating func checkLinks(_ pending: PendingLinks) {
        links = ProgramLinks(facts: facts, pending: pending, judgingConditions: true)
        for diagnostic in links.diagnostics { append(diagnostic) }
    }

    /// The rest of the link rules, once `pending` has read the links (see
    /// `ProgramLinks.complete(with:)`); or the links `following` followed and completed.
    private mutating func completeLinks(_ pending: PendingLinks, _ following: ProgramLinks.Following?) {
        if let following {
            // (Completed where they were followed.)
            links = following.take()
            for diagnostic in links.diagnostics { append(diagnostic) }
        } else {
            let before = links.diagnostics.count
            links.complete(with: pending)
            for diagnostic in links.diagnostics[before...] { append(diagnostic) }
        }
        Profile.mark("program: link rules")
    }

    /// The link rules judged again over `projectLinks`, after an edit that changed nothing
    /// else the checker read: the program's new link diagnostics. The conditions of paths
    /// already followed are kept (see `ProgramLinks.Prefixes`).
    mutating func relink(_ projectLinks: ProjectLinks) -> [Diagnostic] {
        links = ProgramLinks(facts: facts, project: projectLinks, prefixes: links.prefixes)
        return links.diagnostics
    }

    private mutating func checkMissingDependencies(_ made: MissingDependencyPlan) {
        let failures = scope.failures(made, facts)
        for finding in MissingDependency.check(facts, uses: made.uses, failures: failures) { append(MissingDependency.diagnostic(finding, facts)) }
    }

    /// What the node rules read of the earlier analysis of the program.
    private struct RulesCarryover {
        var findings: [any NodeRuleFindings]?
        var used: [Bool]
        var uncertain: [Bool]
        var uncertainNodes: [Int]
        var presentations: [Presentation]
        var placementPresentations: [Int32: Presentation]
    }

    /// The findings of the node rules. After an edit whose flows continued the earlier ones,
    /// over a semantics that carried the earlier builds, each rule finds again only what the
    /// changed nodes can change, and keeps its earlier findings elsewhere.
    private mutating func nodeRules(_ before: RulesCarryover?) -> [any NodeRuleFindings] {
        guard let before, let earlier = before.findings, let changed = changedNodes(before) else {
            let facts = self.facts
            return Rules.nodeRules.map { $0.findings(facts) }
        }
        nodeFindingsRefound = true
        // A node's own findings depend on its states, builds, place in the used region and
        // uncertainty, and a wildcard's on its body's builds: the changed nodes and their
        // parents are found again.
        var withParents = changed
        for node in changed { if let parent = facts.graph.nodes[node].parent { withParents.append(parent) } }
        let again = sortedUnique(withParents)
        let facts = self.facts
        return earlier.map { $0.foundAgain(facts, changed: again) }
    }

    /// After an edit whose flows continued the earlier ones, over a semantics that carried
    /// the earlier builds and the same presentations: the nodes whose states were computed
    /// again, that may build otherwise, or whose place in the used region or uncertainty
    /// changed, increasing. Nil otherwise: every node is checked again.
    private func changedNodes(_ before: RulesCarryover) -> [Int]? {
        guard let recomputed = facts.recomputed, let dirty = facts.semantics.carriedDirty, facts.semantics.cycles.isEmpty,
              before.used.count == facts.used.count, before.uncertain.count == facts.used.count,
              before.presentations == facts.graph.presentations,
              before.placementPresentations == facts.graph.placementPresentations
        else { return nil }
        var changed = recomputed.members + dirty.members
        // Kept arrays are the earlier ones, and compare at once.
        let (used, uncertain) = (facts.used, facts.semantics.uncertain)
        if used != before.used {
            for node in used.indices where used[node] != before.used[node] { changed.append(node) }
        }
        // Uncertainty is what the few uncertain nodes, before and now, say.
        for node in before.uncertainNodes where !uncertain[node] { changed.append(node) }
        for node in facts.semantics.uncertainNodes where !before.uncertain[node] { changed.append(node) }
        return sortedUnique(changed)
    }

    /// What a program whose analysis stopped at its limit still gets: the rules that read no
    /// decision diagram (declarations never used, screens never placed).
    mutating func runWithoutFlows() {
        guard facts.rootBody != nil else { return }
        reportUnused(nil)
    }

    private mutating func reportUnused(_ before: (facts: ProgramFacts, edited: EditedNodes, findings: [any DeclarationRuleFindings])?) {
        facts.findMentions()
        let facts = self.facts
        let found = before.flatMap { declarationRules(since: $0) } ?? Rules.declarationRules.map { $0.findings(facts) }
        declarationFindings = found
        for rule in found { for diagnostic in rule.diagnostics(facts) { append(diagnostic) } }
    }

    /// After an edit inside one declaration whose mentions were patched over the earlier
    /// ones (`ProgramFacts.mentionChanges`), with the same used builders: the findings of the
    /// declarations the edit can change, with the earlier findings of all the others. A
    /// declaration's findings read its mentions, guesses and placements, its name, and
    /// whether it is a duplicate: so the declarations whose counts changed and those of the
    /// files the edit resolved again are looked at again. (Whether a declaration is a
    /// duplicate does not change: a rename is applied alone only when no name is declared
    /// twice, before or after, see `Project.applyingDeclarationEdit`.) Nil when they must be
    /// found over every declaration.
    private mutating func declarationRules(since before: (facts: ProgramFacts, edited: EditedNodes, findings: [any DeclarationRuleFindings]))
        -> [any DeclarationRuleFindings]? {
        let (old, edited, earlier) = before
        guard let changes = facts.mentionChanges, old.usedBuilders == facts.usedBuilders else { return nil }
        let graph = facts.graph, project = facts.project
        // By declaration number: the touched ones, and the runs of the edited files.
        var again = changes
        for f in edited.files where graph.files.contains(f) {
            let first = graph.declarationNumber(Symbol(file: f, declaration: 0))
            again += first..<(first + project.files[f].model.declarations.count)
        }
        declarationFindingsKept = true
        let facts = self.facts
        let numbers = sortedUnique(again)
        return earlier.map { $0.foundAgain(facts, declarations: numbers) }
    }

    private mutating func append(_ diagnostic: Diagnostic, at node: NodeRef? = nil) {
        diagnostics.append(diagnostic)
        places.append(node)
    }

    /// Points the checker at the project after a trivia edit (same structure, moved
    /// positions): its results do not depend on positions. (Its diagnostics are moved by its
    /// `ProgramAnalysis`, which keeps them.)
    mutating func rebase(onto newProject: Project, graph newGraph: BuilderGraph) {
        facts.rebase(onto: newProject, graph: newGraph)
        links.rebase(onto: newProject)
    }
}
