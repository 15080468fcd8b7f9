import CMalloc
import RoutesModel
import RoutesSyntax

/// The analysis of one program, over a graph of the program's files alone: what it finds
/// depends on those files and nothing else, so programs are analysed in parallel, and an
/// edit re-analyses only the programs whose files it changed. One more unit, with no
/// program, holds the files that are in no program (a library linted on its own) with their
/// imports, for their builder cycles.
final class ProgramAnalysis: @unchecked Sendable {
    // Used by one thread at a time: built by a worker, then read by the session's thread.
    let program: Program?
    let semantics: Semantics
    /// The program's checker (nil for the unit without a program). When the analysis
    /// stopped at its limit, one that ran only the rules that read no decision diagram
    /// (see `ProgramChecker.runWithoutFlows()`): its `used` region answers, its flows do not.
    private(set) var checker: ProgramChecker?
    /// For the unit without a program: the files in no program (only their builders'
    /// cycles are reported here).
    let orphans: FileIndex?
    /// When the analysis outgrew its budget (see `AnalysisLimits`): the budget it had.
    /// Then nothing computed with its decision diagrams is used: scope questions answer
    /// `unknown`, examples `notAnalysed`, and the diagnostics are the `AnalysisLimit` error and the
    /// rules that need no analysis.
    let stoppedAt: (nodes: Int, steps: Int)?
    /// Whether the semantics (builds and builder cycles) finished within the budget.
    let semanticsComplete: Bool
    /// The unit's own diagnostics (the builder cycles are merged by the session).
    private(set) var diagnostics: [Diagnostic]
    /// Per diagnostic, the builder node a warning is about, if any (see `ProgramChecker`).
    private(set) var places: [NodeRef?] = []

    var graph: BuilderGraph { semantics.graph }

    /// With `manager`, the analysis runs on that manager (the one of this program's previous
    /// analysis, see `Semantics.init(graph:reusing:prepared:carryover:layout:ordering:nodeBudget:twoThreadBuildsFrom:awaitingTheHelper:)`),
    /// starting with the layout and order of the conditions it ended in;
    /// should it run out of budget there, it runs again on a fresh one, so that a program is
    /// stopped exactly when a fresh analysis stops.
    /// With `graph`, that graph of the unit's files (one patched over an edit, see
    /// `BuilderGraph.patched(onto:splice:)`, with `earlier`; or made already, by a lint)
    /// instead of a new one. `order` says whether an analysis after an edit continues this
    /// one (see `ProgramChecker.Order`). `links` are the project's links (read from `project`
    /// when not given). `prepared`: a fresh manager being made on another core for the
    /// graph's first analysis without a kept one (see `PreparedManager`).
    init(project: Project, program: Program?, files: [FileID], orphans: FileIndex?, hasForeignElement: Bool,
         manager: ManagerCarryover? = nil, graph given: BuilderGraph? = nil, carryover: AnalysisCarryover? = nil,
         limits: AnalysisLimits = .standard, order: ProgramChecker.Order = .keepingPlan, links known: PendingLinks? = nil,
         prepared: PreparedManager? = nil) {
        self.program = program
        self.orphans = orphans
        let graph = given ?? BuilderGraph(project: project, files: files, hasForeignElement: hasForeignElement)
        let links = known ?? PendingLinks(project: project)
        // Each layout in turn (see `AnalysisLimits.attempts`), the first on the kept manager
        // when there is one, and again on a fresh one should the kept one run out.
        let attempts = limits.attempts(graphNodes: graph.nodes.count, hint: manager.map { ($0.layout, $0.ordering) })
        // A lint's `missing-dependency` plan reads the graph and the used region only: made
        // on another core while this one computes the semantics (of either layout).
        let early = order == .keepingPlan || carryover != nil ? nil : program.flatMap { ProgramChecker.earlyPlan(graph: graph, program: $0) }
        var outcome: (semantics: Semantics, semanticsComplete: Bool, checker: ProgramChecker?)! = nil
        for (i, attempt) in attempts.enumerated() {
            let kept = i == 0 ? manager?.bdd : nil
            outcome = Self.analyse(graph, program, kept, carryover: carryover, attempt, order: order,
                                   early: early, links: links, prepared: prepared)
            if let kept, outcome.semantics.bdd === kept, kept.exhausted {
                outcome = Self.analyse(graph, program, nil, attempt, order: order, early: early, links: links)
            }
            // A lint's checker works in another order (`missing-dependency` first, nodes freed
            // before the flows and made again), whose operation steps are not the same in
            // number: one that ran out past its semantics is made again as the language server
            // makes it, so that a lint stops exactly where the server stops.
            if order == .freeingEarly && outcome.semantics.bdd.exhausted && outcome.checker != nil {
                outcome = Self.analyse(graph, program, nil, attempt, order: .keepingPlan, early: nil, links: links)
            }
            if !outcome.semantics.bdd.exhausted { break }
        }
        semantics = outcome.semantics
        semanticsComplete = outcome.semanticsComplete
        let bdd = semantics.bdd
        guard bdd.exhausted else {
            stoppedAt = nil
            checker = outcome.checker
            diagnostics = outcome.checker?.diagnostics ?? []
            places = outcome.checker?.places ?? []
            return
        }
        let budget = (nodes: bdd.nodeLimit - bdd.nodesAtStart, steps: bdd.stepLimit)
        stoppedAt = budget
        if let program {
            // The rules that read no decision diagram still run.
            var limited = ProgramChecker(semantics: semantics, program: program)
            limited.runWithoutFlows()
            checker = limited
            let finding = AnalysisLimit.Finding(root: program.root, budget: budget, cyclesChecked: semanticsComplete)
            diagnostics = limited.diagnostics
                + [AnalysisLimit.diagnostic(finding, file: program.root.file, range: project.declaration(program.root).name.range)]
            places = limited.places + [nil]
        } else {
            checker = nil
            // For the files in no program, whose only analysis is the check for builder cycles: at
            // the first builder of those files.
            let finding = AnalysisLimit.Finding(root: nil, budget: budget, cyclesChecked: false)
            diagnostics = graph.builders.first(where: { orphans?.contains($0.symbol.file) ?? false }).map {
                [AnalysisLimit.diagnostic(finding, file: $0.symbol.file, range: project.declaration($0.symbol).name.range)]
            } ?? []
            places = diagnostics.map { _ in nil }
        }
    }

    private static func analyse(_ graph: BuilderGraph, _ program: Program?, _ manager: BDD?, carryover: AnalysisCarryover? = nil,
                                _ attempt: AnalysisLimits.Attempt, order: ProgramChecker.Order,
                                early: ProgramChecker.EarlyPlan?, links: PendingLinks, prepared: PreparedManager? = nil)
        -> (semantics: Semantics, semanticsComplete: Bool, checker: ProgramChecker?) {
        // On the earlier analysis's manager, the earlier semantics serves as it is when the edit
        // changed nothing it reads.
        let kept = carryover.flatMap { e in
            manager === e.semantics.bdd ? Semantics.keeping(e.semantics, for: graph, edited: e.edited, layout: attempt.layout, ordering: attempt.ordering,
                                                                   nodeBudget: attempt.nodes) : nil
        }
        let semantics = kept ?? Semantics(graph: graph, reusing: manager, prepared: prepared, carryover: carryover,
                                          layout: attempt.layout, ordering: attempt.ordering, nodeBudget: attempt.nodes)
        Profile.mark("program: semantics")
        guard let program, !semantics.bdd.exhausted else { return (semantics, !semantics.bdd.exhausted, nil) }
        var checker = ProgramChecker(semantics: semantics, program: program,
                                     carryover: carryover.flatMap { e in e.checker.map { ($0.ways, $0.facts, e.edited, $0.nodeFindings, $0.declarationFindings) } },
                                     early: early)
        checker.run(order, links: links)
        return (semantics, true, checker)
    }

    /// The builder cycles this unit reports: per strongly connected component (by its
    /// builders), its references.
    func cycles() -> [(builders: [Symbol], references: [BuilderCycle.Reference])] {
        guard semanticsComplete else { return [] }
        let graph = semantics.graph
        return semantics.cycles.compactMap { cycle in
            let builders = cycle.builders.map { graph.builders[$0].symbol }.sorted()
            if let orphans, !builders.allSatisfy({ orphans.contains($0.file) }) { return nil }
            return (builders, cycle.references.map { g in
                let node = graph.nodes[g]
                var builder: String? = nil
                if case .reference(let referenced?) = node.kind { builder = graph.builderName(referenced) }
                return BuilderCycle.Reference(node: NodeRef(file: node.file, node: node.local), head: graph.head(g), builder: builder)
            })
        }
    }

    /// Per file marked in `shared`, the local nodes this program uses.
    func usedNodes(inFiles shared: [Bool]) -> [FileID: BitSet] {
        guard let checker, program != nil else { return [:] }
        var out: [FileID: BitSet] = [:]
        for f in graph.files.files where f < shared.count && shared[f] {
            let first = graph.firstNode(of: f), count = graph.fileNodeCount(f)
            var set = BitSet(count: count)
            for g in first..<(first + count) where checker.used[g] { set.insert(g - first) }
            out[f] = set
        }
        return out
    }

    /// What the program says of the nodes of a file it shares with other programs, where it
    /// reports nothing (see `AnalysisSession.assemble`): the screen nodes it uses and never
    /// builds, the `anyOf` branches it uses that build nothing where they are reached, and each
    /// node's enclosing node in the file (its parent, or the screen whose nesting it tops; -1).
    struct SharedNodeFacts {
        var unbuilt: BitSet
        var buildingNothing: BitSet
        var enclosing: [Int32]
    }

    /// `SharedNodeFacts` per file of `shared`; none for a program its budget stopped.
    func sharedNodeFacts(inFiles shared: [Bool]) -> [FileID: SharedNodeFacts] {
        guard let checker, program != nil, stoppedAt == nil else { return [:] }
        let facts = checker.facts, flow = facts.flow, other = facts.alternativeFlow
        let semantics = facts.semantics
        var out: [FileID: SharedNodeFacts] = [:]
        for f in graph.files.files where f < shared.count && shared[f] {
            let first = graph.firstNode(of: f), count = graph.fileNodeCount(f)
            var unbuilt = BitSet(count: count), buildingNothing = BitSet(count: count)
            var enclosing = [Int32](repeating: -1, count: count)
            for g in first..<(first + count) {
                let outer = graph.nodes[g].parent ?? semantics.nestingOwner(g)
                if let outer, outer >= first && outer < first + count { enclosing[g - first] = Int32(outer - first) }
                guard checker.used[g] else { continue }
                if case .screen = graph.nodes[g].kind, !flow.isBuilt(g), !(other?.isBuilt(g) ?? false) { unbuilt.insert(g - first) }
                if let parent = graph.nodes[g].parent, case .anyOf = graph.nodes[parent].kind, !semantics.uncertain[g],
                   !flow.contextMeets(g, semantics.builds[g]),
                   !(other.map { $0.contextMeets(g, semantics.alternativeBuilds[g]) } ?? false) {
                    buildingNothing.insert(g - first)
                }
            }
            out[f] = SharedNodeFacts(unbuilt: unbuilt, buildingNothing: buildingNothing, enclosing: enclosing)
        }
        return out
    }

    /// Fills `region` with the nodes from which a way of the program leads to g.
    func fillRegion(_ region: Region, leadingTo g: Int) {
        checker?.fillRegion(region, leadingTo: g)
    }

    /// The link rules judged again over `links`, the project's links after an edit that
    /// changed nothing else this analysis read (see `AnalysisSession.rebased(onto:file:edit:relinking:)`).
    func relink(_ links: ProjectLinks) {
        guard stoppedAt == nil, var checker else { return }
        let fresh = checker.relink(links)
        self.checker = checker
        let kept = zip(diagnostics, places).filter { !ProgramLinks.rules.contains($0.0.rule) }
        diagnostics = kept.map(\.0) + fresh
        places = kept.map(\.1) + fresh.map { _ in nil }
    }

    /// Points the unit at a later project in which its files are the same (see
    /// `AnalysisSession.sameFile`), or differ by `edit` only: an edit in `file` that moved
    /// positions and changed nothing the analysis reads (its diagnostics move with it).
    func rebase(onto project: Project, moving edit: (TriviaEdit, FileID)? = nil) {
        semantics.graph.project = project
        checker?.rebase(onto: project, graph: semantics.graph)
        if let (shift, file) = edit { diagnostics = diagnostics.map { $0.shifted(shift, in: file) } }
    }
}
