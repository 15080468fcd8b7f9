import RoutesModel

/// The nodes whose contexts an edit may have changed (see `Flow.rerun`): the edited nodes
/// and their successors before and after the edit, the branches of an `anyOf` after a branch
/// that may build otherwise (its context masks what the earlier branches build), and the
/// successors to which a change of what those nodes' contexts may be passes on. Nothing else
/// changes what a node passes on: a patched graph keeps every other node, the variables, the
/// element codes and the presentations.
///
/// Per node, it keeps a superset of the pairs by which its context may differ from before
/// (any σ, either reading); a node with one is affected. What a node passes on is a union-
/// distributive function of its context, so what it passes on differs by at most what the
/// difference passes on: a successor to which that is empty gets what it got before, and the
/// difference stops there. (A rename in one branch of a large `anyOf` changes the contexts of
/// every later branch by the renamed screen's pairs only, which the first screen node of each
/// of them does not build: the flows are then computed again down to those screen nodes, not
/// through everything below them.)
struct AffectedNodes {
    let semantics: Semantics
    let graph: BuilderGraph
    let bdd: BDD
    let sigmaCount: Int
    /// The facts before the edit, whose flows the new ones continue.
    let old: ProgramFacts
    private(set) var affected: MarkedNodes
    /// Per node, a superset of the pairs by which its context may differ.
    private var difference: [BDD.Ref]
    /// The nodes whose difference grew, to pass on.
    private var pending: [Int] = []
    /// Whether every edited node kept its kind, branches and targets.
    private(set) var structureKept = true
    /// Whether every edited node has the edges it had (what the used region follows): a
    /// screen node whose screen changed (a rename) still leads where it did.
    private(set) var edgesKept = true

    init(semantics: Semantics, sigmaCount: Int, old: ProgramFacts) {
        self.semantics = semantics
        graph = semantics.graph
        bdd = semantics.bdd
        self.sigmaCount = sigmaCount
        self.old = old
        affected = MarkedNodes(count: graph.nodes.count)
        difference = [BDD.Ref](repeating: BDD.zero, count: graph.nodes.count)
    }

    /// Adds `extra` to what node g's context may differ by.
    private mutating func reach(_ g: Int, _ extra: BDD.Ref) {
        if extra == BDD.zero { return }
        let more = bdd.andNot(extra, difference[g])
        if more == BDD.zero { return }
        difference[g] = bdd.or(difference[g], more)
        affected.insert(g)
        pending.append(g)
    }

    /// A node whose transfer itself changed: anything it passes on may differ.
    private mutating func mark(_ g: Int) { reach(g, BDD.one) }

    /// The edited nodes: an edited node whose kind, branches and targets are as before passes
    /// on what it did (an edit of a `uses` list changes none of those); one that changed is
    /// affected itself (what it builds may have changed), and what it passes on may differ.
    mutating func markEditedNodes(_ edited: EditedNodes) {
        for g in edited where changed(g) {
            structureKept = false
            if edgesKept && !graph.sameEdges(g, as: old.graph) { edgesKept = false }
            affected.insert(g)
            if let passed = changedTransfer(g) {
                for (successor, extra) in passed { reach(successor, extra) }
            } else {
                markSuccessors(of: g)
            }
        }
    }

    /// A builder whose body moved changes what each reference to it passes on.
    mutating func markReferencesToMovedBodies() {
        guard graph.builders.indices.contains(where: { graph.builders[$0].body != old.graph.builders[$0].body }) else { return }
        structureKept = false
        edgesKept = false
        for g in graph.nodes.indices {
            guard case .reference(let target?) = graph.nodes[g].kind, graph.builders[target].body != old.graph.builders[target].body
            else { continue }
            mark(g)
            markSuccessors(of: g)
        }
    }

    /// The branches of an `anyOf` after one that builds otherwise, in either reading (the
    /// builds of a node that is not dirty are the earlier ones; those of a dirty node are
    /// functions on the same manager, so compared by ref): their contexts mask what the
    /// earlier branches build, so they differ by at most the pairs those builds gained or
    /// lost (over every branch of the `anyOf`).
    mutating func markBranchesAfterChangedBuilds(_ dirty: MarkedNodes) {
        let (builds, oldBuilds) = (semantics.builds, old.semantics.builds)
        let (alternative, oldAlternative) = (semantics.alternativeBuilds, old.semantics.alternativeBuilds)
        var changedBuilds: [Int: BDD.Ref] = [:]
        var changedBranches: [Int] = []
        for branch in dirty.members where (builds[branch] != oldBuilds[branch] || alternative[branch] != oldAlternative[branch]) {
            guard let parent = graph.nodes[branch].parent, case .anyOf = graph.nodes[parent].kind else { continue }
            let gainedOrLost = bdd.or(bdd.symmetricDifference(builds[branch], oldBuilds[branch]),
                                      bdd.symmetricDifference(alternative[branch], oldAlternative[branch]))
            changedBuilds[parent] = bdd.or(changedBuilds[parent] ?? BDD.zero, gainedOrLost)
            changedBranches.append(branch)
        }
        for branch in changedBranches {
            guard let parent = graph.nodes[branch].parent, case .anyOf(let branches) = graph.nodes[parent].kind,
                  let gainedOrLost = changedBuilds[parent] else { continue }
            let position = graph.nodes[branch].indexInParent
            for later in (position + 1)..<max(Int(branches.count), position + 1) {
                reach(graph.branch(branches, later), gainedOrLost)
            }
        }
    }

    /// The differences passed on as the flows' transfers pass contexts on (see
    /// `Flow.transfer`), each a superset of what the transfer passes of them. (An `anyOf`
    /// passes its own to its branches: what its branches' changed builds change is already
    /// with the later branches.)
    mutating func passDifferencesOn() {
        while let g = pending.popLast() {
            let extra = difference[g]
            if let passed = passes(graph.nodes[g].kind, in: graph, extra) {
                for (successor, context) in passed { reach(successor, context) }
            } else {
                for child in graph.children(g) { reach(child, extra) }
            }
        }
    }

    /// Marks g's successors, before and after the edit.
    private mutating func markSuccessors(of g: Int) {
        var successors: [Int] = []
        Flow.forEachSuccessor(g, in: old.graph, crossNestings: true) { successors.append($0) }
        Flow.forEachSuccessor(g, in: graph, crossNestings: true) { successors.append($0) }
        for successor in successors { mark(successor) }
    }

    /// Whether edited node g's kind, branches or target changed (a builder whose body moved
    /// changes what a reference to it passes on).
    private func changed(_ g: Int) -> Bool {
        let kind = graph.nodes[g].kind
        guard kind == old.graph.nodes[g].kind else { return true }
        switch kind {
        case .anyOf(let branches): return graph.branches(branches) != old.graph.branches(branches)
        case .reference(let target?): return graph.builders[target].body != old.graph.builders[target].body
        // A placement's own presentation (`as …`) changes the push context it passes on.
        case .screen: return graph.presentation(node: g) != old.graph.presentation(node: g)
        default: return false
        }
    }

    /// What a node of kind `kind` in `graph` passes on to each successor from `context`, as
    /// `Flow.transfer` does (nil for an `anyOf`, whose branches' contexts depend on the builds).
    private func passes(_ kind: BuilderGraph.Kind, in graph: BuilderGraph, _ context: BDD.Ref) -> [(node: Int, context: BDD.Ref)]? {
        // (An unresolved screen or wildcard passes on what the alternative reading passes, a
        // superset of the primary reading's nothing.)
        switch kind {
        case .screen(let code, let nesting):
            guard let nesting else { return [] }
            let envs = code.map { semantics.environments(context, element: $0) } ?? semantics.environments(context)
            return [(nesting, bdd.and(envs, semantics.allElements))]
        case .condition(let condition, let then, let els):
            let variable = semantics.conditionVariable[condition]
            return [(then, bdd.and(context, variable))] + (els.map { [($0, bdd.andNot(context, variable))] } ?? [])
        case .ifScreen(let code, let then, let els):
            guard let code else { return [(then, context)] + (els.map { [($0, context)] } ?? []) }
            let isScreen = semantics.elementIs[code]
            return [(then, bdd.and(context, isScreen))] + (els.map { [($0, bdd.andNot(context, isScreen))] } ?? [])
        case .wildcard(let code, let body):
            return [(body, bdd.and(semantics.environments(context), code.map { semantics.elementIs[$0] } ?? semantics.allElements))]
        case .reference(let target):
            guard let target, let body = graph.builders[target].body else { return [] }
            return [(body, context)]
        case .anyOf:
            return nil
        case .nothing:
            return []
        }
    }

    /// For a node whose transfer changed, what may differ in what it passes on to each
    /// successor, before and now: per state of the earlier flows, what the old transfer and
    /// the new one pass of the node's earlier context differ by (when the node's context
    /// changes too, the difference reaches it like any node's and is passed on by the new
    /// transfer: what it passes now differs from what it passed by at most the union of the
    /// two). Across a screen whose presentation changed, both are taken whole: they go to
    /// other σ. Nil when not known (an `anyOf`).
    private func changedTransfer(_ g: Int) -> [(Int, BDD.Ref)]? {
        let before = old.graph.nodes[g].kind, now = graph.nodes[g].kind
        // What an unresolved screen or wildcard passes on depends on the reading (the primary
        // one passes nothing): a change to or from one may change anything below it.
        if Semantics.hidesWhatItHolds(before) || Semantics.hidesWhatItHolds(now) { return nil }
        let samePresentation = sigmaCount < 2 || (old.graph.presentation(node: g) ?? .push) == (graph.presentation(node: g) ?? .push)
        var contexts = (0..<sigmaCount).map { old.flow.context(g, sigma: $0) }
        if let alternative = old.alternativeFlow { contexts += (0..<sigmaCount).map { alternative.context(g, sigma: $0) } }
        var out: [Int: BDD.Ref] = [:]
        for earlierContext in contexts where earlierContext != BDD.zero {
            guard let passedBefore = passes(before, in: old.graph, earlierContext),
                  let passedNow = passes(now, in: graph, earlierContext) else { return nil }
            var beforeBySuccessor: [Int: BDD.Ref] = [:], nowBySuccessor: [Int: BDD.Ref] = [:]
            for (successor, context) in passedBefore { beforeBySuccessor[successor] = bdd.or(beforeBySuccessor[successor] ?? BDD.zero, context) }
            for (successor, context) in passedNow { nowBySuccessor[successor] = bdd.or(nowBySuccessor[successor] ?? BDD.zero, context) }
            for successor in Set(beforeBySuccessor.keys).union(nowBySuccessor.keys) {
                let (passedThen, passedNow) = (beforeBySuccessor[successor] ?? BDD.zero, nowBySuccessor[successor] ?? BDD.zero)
                out[successor] = bdd.or(out[successor] ?? BDD.zero,
                                        samePresentation ? bdd.symmetricDifference(passedThen, passedNow) : bdd.or(passedThen, passedNow))
            }
        }
        return out.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
