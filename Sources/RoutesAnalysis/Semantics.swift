import RoutesModel
import RoutesSyntax

/// The build semantics (docs/language.md#how-a-path-is-built) as boolean functions.
///
/// A BDD over these variables is a set of (element, environment) pairs. `builds[g]` is the set
/// of pairs for which `build(g, element)` yields a screen node: computed bottom-up, with named
/// builders as a least fixpoint, so that a reference that recursion would reach again builds
/// nothing.
///
/// Variables: the element's screen type in binary (`elementBits` variables), and one variable
/// per flag and optional (and per test of an unresolved condition name), ordered by where the
/// routing tree first tests them, the condition tested last on top (`conditionOrder`).
/// Conditions tested together (nested `conditional x { conditional y { … } }`) are then
/// neighbours whatever order they were declared in, and an `anyOf` whose branches test
/// conditions in turn masks each later branch with "none of the earlier conditions", which
/// grows by one node at the top per branch instead of a copy of the whole chain.
///
/// Where the element goes is the `Layout`: below the conditions, or above them. Both are
/// exact; which is small depends on the program (see `Layout` and docs/dev/analysis.md).
final class Semantics {
    /// Where the element's variables are in the order (see `AnalysisLayout`).
    typealias Layout = AnalysisLayout

    var graph: BuilderGraph
    let bdd: BDD
    let layout: Layout
    /// How the conditions are ordered among the variables (`conditionOrder`).
    let ordering: ConditionOrdering
    let elementBits: Int
    /// The variable of the element code's bit 0 (bit i is variable `firstElementVariable + i`).
    let firstElementVariable: Int
    /// [element == code], per element code.
    var elementIs: [BDD.Ref] = []
    /// Per condition index, its variable's function.
    var conditionVariable: [BDD.Ref] = []
    /// Per condition index, its variable (see `conditionOrder`).
    var variableOfCondition: [Int32] = []
    /// Every element code: the graph's screens (and the foreign element, when there is one).
    /// The elements a path can hold: flows start with these.
    var allElements: BDD.Ref = BDD.zero
    /// `allElements` and, with the element above, the code that stands for the elements a
    /// node does not tell apart (`restCode`, see `project(_:to:)`): what a builder that builds
    /// whatever the element builds for.
    var anyElement: BDD.Ref = BDD.zero
    /// With the element above: [element == the rest], the code after the others.
    var rest: BDD.Ref = BDD.zero
    /// With the element above, per node: the elements its evaluation tells apart (the codes
    /// its screen and `if screen` nodes test, through references, not through nestings or
    /// into a wildcard's body), see `project(_:to:)`.
    var relevant: [BDD.Ref] = []
    /// Per node: the (element, environment) pairs for which it builds something (or, for
    /// a cycle, never returns), in the primary reading.
    var builds: [BDD.Ref] = []
    /// The same in the alternative reading.
    var alternativeBuilds: [BDD.Ref] = []
    /// The pairs for which a node really yields a screen node (cycles yield none).
    var realBuilds: [BDD.Ref] = []
    /// Whether any node is an uncertain leaf (then the two readings may differ).
    var hasUncertainty = false
    /// Whether an unresolved screen or wildcard holds nodes (`hidesWhatItHolds`): the flows
    /// of the two readings then differ there, though what nodes build does not.
    var hidesNodes = false
    /// Whether the two readings may differ: in what nodes build, or in what the flows reach.
    var readingsDiffer: Bool { hasUncertainty || hidesNodes }
    /// The references that take part in a builder cycle.
    var cyclicReferences = Set<Int>()
    /// Per builder: `builds` of its body.
    var builderBuilds: [BDD.Ref] = []
    /// Per node: its build involves an unresolved name, a syntax hole or a builder cycle
    /// (docs/language.md#after-an-error: warnings caused by those are not reported).
    var uncertain: [Bool] = []
    /// The nodes `uncertain` holds, in no order.
    var uncertainNodes: [Int] = []
    /// The nodes the graph marks unresolved (a name that resolves to nothing, a syntax
    /// hole), increasing.
    var unresolvedNodes: [Int] = []
    /// The uncertain leaves (`isUncertainLeaf`) other than the references on a cycle,
    /// increasing.
    var uncertainLeaves: [Int] = []
    /// When this semantics took the builds of an earlier one over an edit (see `Carryover`),
    /// with no builder cycle in either: the nodes that may build otherwise than there. Every
    /// other node builds as before in every reading, on the same manager (see
    /// `Flow.rerun(affected:seed:at:)`).
    var carriedDirty: MarkedNodes? = nil
    /// Per builder: on a builder cycle.
    var cyclic: [Bool] = []
    /// The builder cycles: the references (global ids) of each, in source order, and the
    /// builders of its strongly connected component.
    var cycles: [(references: [Int], builders: [Int])] = []
    /// Per nesting top and builder body top, what it is the top of (one table: no node is
    /// both), read as `nestingOwner(_:)` and `bodyOwner(_:)`.
    var owners = NodeOwners(count: 0)
    /// The screen node whose nesting node g tops, if any.
    func nestingOwner(_ g: Int) -> Int? { owners[g, .nesting] }
    /// The builder whose body node g tops, if any.
    func bodyOwner(_ g: Int) -> Int? { owners[g, .body] }

    /// Per `anyOf` of `unionTreeBranches` branches or more (by node): its branches' primary
    /// builds and their unions in pairs, a complete binary tree in an array (the leaves from
    /// index `size`, the power of two at or above the branch count, node k the union of
    /// nodes 2k and 2k + 1), whose root, node 1, is the `anyOf`'s primary builds. An edit that
    /// changes what a few branches build makes again only the unions above them: the root
    /// `anyOf` of a generated 1M-line app has 21,739 branches, and a rename in one of them
    /// makes 15 unions instead of 21,739. Taken from the earlier semantics with its builds
    /// (see `Carryover`), on the same manager.
    var unionTrees: [Int: [BDD.Ref]] = [:]
    static let unionTreeBranches = 64
    /// The unions made in `unionTrees` (tests).
    var unionsMade = 0

    /// The graph size from which the nodes outside the builders' bodies are evaluated on two
    /// threads (see `evaluateOutsideBodiesOnTwoThreads(memo:reading:values:trees:)`).
    let twoThreadBuildsFrom: Int
    /// Whether the thread that evaluates on two threads waits for the helper to begin (tests).
    let awaitsTheHelper: Bool
    /// How many evaluations of the nodes outside the builders' bodies ran on two threads,
    /// and in how many of them the helper thread took part (tests).
    var outsideBodiesOnTwoThreads = (evaluations: 0, helped: 0)

    /// The largest operation cache, in bits of its entry count (see `init`).
    static let maxCacheBits = 16

    /// Whether an earlier analysis's manager may serve a program of `nodes` graph nodes: not
    /// once it has run out of budget, nor once it holds many times the nodes a fresh analysis
    /// of such a program makes (nodes are never freed: each analysis on a kept manager adds
    /// the ones it lacks, and this bounds what edits pile up).
    static func canReuse(_ manager: BDD, nodes: Int) -> Bool {
        !manager.exhausted && manager.nodeCount <= max(1 << 16, nodes * 16)
    }

    /// The semantics of `graph`; with `manager`, on that manager (an earlier analysis's,
    /// see `BDD.beginAnalysis(nodes:steps:variables:)`) when it can serve. With `carryover`, the
    /// semantics of the graph `graph` was patched from (`BuilderGraph.patched(onto:splice:)`)
    /// and the global ids of the nodes the patch resolved again: when it ran on the same
    /// manager, the builds of every node that depends on none of those nodes are taken from it
    /// (see `Carryover`). The analysis stops once it has made `nodeBudget` new nodes (see
    /// `BDD.nodeLimit`); the default is the standard budget for the graph. With `prepared`, the
    /// manager made beforehand on another core for a graph of this size (see `PreparedManager`)
    /// serves when no earlier one does. `twoThreadBuildsFrom` (tests) is the graph size from
    /// which the nodes outside the builders' bodies are evaluated on two threads;
    /// `awaitingTheHelper` (tests) has this thread wait for the helper thread to begin
    /// before it takes any of them, so that both surely take part.
    init(graph: BuilderGraph, reusing manager: BDD? = nil, prepared: PreparedManager? = nil, carryover: AnalysisCarryover? = nil,
         layout: Layout = .conditionsAbove, ordering: ConditionOrdering = .firstTest, nodeBudget: Int? = nil,
         twoThreadBuildsFrom: Int = Flow.nodesForTwoThreads, awaitingTheHelper: Bool = false) {
        self.graph = graph
        self.layout = layout
        self.ordering = ordering
        self.twoThreadBuildsFrom = twoThreadBuildsFrom
        self.awaitsTheHelper = awaitingTheHelper
        // The element codes: the graph's screens, and one more for the screens declared
        // elsewhere when there are any (`BuilderGraph.hasForeignElement`); with the element
        // above, one more for the rest (see `project(_:to:)`).
        let elementCount = graph.screens.count + (graph.hasForeignElement ? 1 : 0)
        let codeCount = elementCount + (layout == .elementAbove ? 1 : 0)
        var bits = 1
        while (1 << bits) < codeCount { bits += 1 }
        elementBits = bits
        bdd = Self.manager(for: graph, reusing: manager, prepared: prepared)
        let nodeBudget = nodeBudget ?? AnalysisLimits.standard.nodeBudget(graphNodes: graph.nodes.count)
        bdd.beginAnalysis(nodes: nodeBudget, steps: AnalysisLimits.stepBudget(nodes: nodeBudget),
                          variables: graph.conditions.count + bits)
        firstElementVariable = layout == .elementAbove ? 0 : graph.conditions.count
        if let carryover, let old = Self.sameStructure(carryover, graph: graph, bdd: bdd, layout: layout, ordering: ordering, elementBits: bits) {
            takeStructure(of: old)
        } else {
            makeStructure(elementCount: elementCount, codeCount: codeCount)
        }
        if layout == .elementAbove { relevant = computeRelevance() }
        let carried = carryover.flatMap { Carryover(self, from: $0.semantics, edited: $0.edited) }
        if carried != nil, let old = carryover?.semantics { unionTrees = old.unionTrees }
        computeBuildsAndCycles(carrying: carried)
        if let carried, cycles.isEmpty, let old = carryover?.semantics { takeBranchContexts(of: old, carried: carried) }
    }

    /// The decision-diagram manager for `graph`: `manager` when it can serve (its cache grown
    /// for the graph), else a new one. The operation cache grows with the program (about
    /// eight entries per graph node) up to `maxCacheBits`: a fresh analysis's operations are
    /// mostly new ones, so a larger cache would make every step a trip to memory, while the
    /// edits of a document find earlier results in it; a small document's cache stays small,
    /// and a workspace of hundreds of small programs keeps one manager per program. The node
    /// table starts at the size the analysis will need (about six nodes per graph node), so
    /// that a large program does not rehash it on its way there.
    private static func manager(for graph: BuilderGraph, reusing manager: BDD?, prepared: PreparedManager?) -> BDD {
        if let manager, Self.canReuse(manager, nodes: graph.nodes.count) {
            manager.growCache(bits: cacheBits(graphNodes: graph.nodes.count))
            return manager
        }
        return prepared?.take(graphNodes: graph.nodes.count) ?? freshManager(graphNodes: graph.nodes.count)
    }

    /// A new manager for a graph of `graphNodes` nodes (see `manager(for:reusing:prepared:)`).
    static func freshManager(graphNodes: Int) -> BDD {
        var capacityBits = 6
        while capacityBits < 24 && (1 << capacityBits) < graphNodes * 8 { capacityBits += 1 }
        return BDD(cacheBits: cacheBits(graphNodes: graphNodes), capacityBits: capacityBits)
    }

    private static func cacheBits(graphNodes: Int) -> Int {
        var bits = 8
        while bits < Self.maxCacheBits && (1 << bits) < graphNodes * 8 { bits += 1 }
        return bits
    }

    /// Takes what depends only on the edges, the builders, the screens and the order in
    /// which conditions are first tested from the earlier semantics, on the same manager.
    private func takeStructure(of old: Semantics) {
        variableOfCondition = old.variableOfCondition
        conditionVariable = old.conditionVariable
        elementIs = old.elementIs
        allElements = old.allElements
        anyElement = old.anyElement
        rest = old.rest
        owners = old.owners
        referenceEdges = old.referenceEdges
        components = old.components
        recursiveComponents = old.recursiveComponents
        componentOf = old.componentOf
        referrers = old.referrers
        structureCarried = true
    }

    /// Makes the variables, the element codes, the owners of nestings and bodies, and the
    /// reference graph with its strongly connected components.
    private func makeStructure(elementCount: Int, codeCount: Int) {
        variableOfCondition = Self.conditionOrder(graph, first: layout == .elementAbove ? elementBits : 0, ordering: ordering)
        conditionVariable = bdd.variables(variableOfCondition)
        elementIs = bdd.codes(each: graph.screens.count, first: firstElementVariable, count: elementBits)
        allElements = bdd.codes(below: elementCount, first: firstElementVariable, count: elementBits)
        anyElement = bdd.codes(below: codeCount, first: firstElementVariable, count: elementBits)
        if layout == .elementAbove { rest = bdd.andNot(anyElement, allElements) }
        owners = NodeOwners(count: graph.nodes.count)
        for (g, node) in graph.nodes.enumerated() {
            if case .screen(_, let nesting?) = node.kind { owners[nesting, .nesting] = g }
        }
        for (index, builder) in graph.builders.enumerated() {
            if let body = builder.body { owners[body, .body] = index }
        }
        referenceEdges = referencesInBodies()
        components = stronglyConnectedComponents(referenceEdges)
        componentOf = [Int32](repeating: 0, count: graph.builders.count)
        for component in components.indices {
            for builder in components[component] { componentOf[builder] = Int32(component) }
        }
        recursiveComponents = components.indices.filter { isRecursive(components[$0]) }
        referrers = referencesByTarget()
    }

    /// The builds in every reading, the builder cycles and the uncertainty. Cycles are found
    /// with the least-fixpoint builds (a cycle's own references do not yet build nothing);
    /// then both readings are computed with them known.
    private func computeBuildsAndCycles(carrying carried: Carryover?) {
        (builds, builderBuilds) = computeBuilds(.primary, carrying: carried)
        findCycles()
        for cycle in cycles { cyclicReferences.formUnion(cycle.references) }
        computeUncertainty(carrying: cycles.isEmpty ? carried : nil)
        if !cycles.isEmpty {
            (builds, builderBuilds) = computeBuilds(.primary)
            forgetBranchContexts()
        }
        hasUncertainty = !uncertainLeaves.isEmpty || !cyclicReferences.isEmpty
        hidesNodes = unresolvedNodes.contains { Self.hidesWhatItHolds(graph.nodes[$0].kind) }
        alternativeBuilds = hasUncertainty ? computeBuilds(.alternative).nodes : builds
        realBuilds = cycles.isEmpty ? builds : computeBuilds(.real).nodes
        if let carried, cycles.isEmpty { carriedDirty = carried.dirty }
    }

    /// The contexts of an `anyOf` whose branches build as before are as before: the earlier
    /// semantics's cache is taken over (it is not used again, see
    /// `AnalysisSession.forEditor(project:reusing:splice:limits:reported:settings:)`), less the
    /// entries of the nodes that may build otherwise, and of the readings of uncertain leaves.
    /// (A patched graph keeps each `anyOf`'s room in the list of branches, so an entry's key
    /// names the same node in both.)
    private func takeBranchContexts(of old: Semantics, carried: Carryover) {
        guard !old.branchContextAsked.isEmpty, old.branchContextStride == graph.branchList.count else { return }
        swap(&branchContextAsked, &old.branchContextAsked)
        swap(&branchContextCount, &old.branchContextCount)
        swap(&branchContextList, &old.branchContextList)
        swap(&branchContextPlanes, &old.branchContextPlanes)
        branchContextStride = old.branchContextStride
        let uncertainReadings = old.hasUncertainty || hasUncertainty
        // Without uncertain readings, only the dirty nodes' entries go (a pass over the
        // dirty nodes rather than over every node's kind): every reading builds as the primary
        // one (the alternative reading of a program whose unresolved screens hide nodes only
        // reaches otherwise).
        func forget(_ g: Int) {
            guard case .anyOf(let branches) = graph.nodes[g].kind, !branches.isEmpty else { return }
            let first = Int(branches.start)
            for reading in 0..<3 where branchContextPlanes[reading] >= 0 && (reading == 0 || !uncertainReadings ? carried.dirty[g] : true) {
                branchContextAsked[branchContextPlanes[reading] * branchContextStride + first] = -1
            }
        }
        if uncertainReadings {
            for g in graph.nodes.indices { forget(g) }
        } else {
            for g in carried.dirty.members { forget(g) }
        }
    }

    /// Whether this semantics took the structural tables of the earlier one (tests).
    var structureCarried = false

    /// The earlier semantics, when what the structural tables read is as it was: the same
    /// manager, layout and element bits, the same screens, conditions and builders (bodies
    /// included), and every node the edit resolved again with the edges it had (children,
    /// nesting, referenced builder) and, for a test, the same condition (so conditions are
    /// first tested in the same order). Then the order of the variables, the element codes,
    /// the owners of nestings and bodies, and the references between builders and their
    /// components are the earlier ones.
    static func sameStructure(_ carryover: AnalysisCarryover, graph: BuilderGraph, bdd: BDD, layout: Layout,
                              ordering: ConditionOrdering, elementBits: Int) -> Semantics? {
        let old = carryover.semantics, before = old.graph
        guard old.bdd === bdd, old.layout == layout, layout == .conditionsAbove, old.ordering == ordering, old.elementBits == elementBits,
              before.nodes.count == graph.nodes.count, carryover.edited.upperBound <= graph.nodes.count,
              before.hasForeignElement == graph.hasForeignElement, before.screens == graph.screens,
              before.conditions == graph.conditions, before.builders.count == graph.builders.count,
              graph.builders.indices.allSatisfy({ before.builders[$0].body == graph.builders[$0].body })
        else { return nil }
        for g in carryover.edited {
            guard graph.sameEdges(g, as: before) else { return nil }
            switch (graph.nodes[g].kind, before.nodes[g].kind) {
            case (.condition(let condition, _, _), .condition(let earlier, _, _)): if condition != earlier { return nil }
            case (.condition, _), (_, .condition): return nil
            default: break
            }
        }
        return old
    }

    /// The semantics `old` made of the graph that `graph` was patched from, taken over as it
    /// is when the patch changed nothing a semantics reads: every edited node is as it was
    /// (kind, branches, targets, place in its body), and so are the builders, the screens and
    /// the conditions; as after an edit of a `uses` list. What every node builds, the cycles,
    /// the uncertainty and the order of the variables are then those of `graph`, and nothing
    /// builds otherwise (`carriedDirty`). The manager starts a new analysis within the
    /// budget, as `init` starts one. Nil otherwise; `old` is not used again either way (the
    /// one it is given to belongs to the analysis that replaces its own).
    static func keeping(_ old: Semantics, for graph: BuilderGraph, edited: EditedNodes, layout: Layout,
                        ordering: ConditionOrdering = .firstTest, nodeBudget: Int? = nil) -> Semantics? {
        let before = old.graph
        guard old.layout == layout, old.ordering == ordering, old.cycles.isEmpty, !old.bdd.exhausted, canReuse(old.bdd, nodes: graph.nodes.count),
              before.nodes.count == graph.nodes.count, edited.upperBound <= graph.nodes.count,
              old.builds.count == graph.nodes.count, before.hasForeignElement == graph.hasForeignElement,
              before.screens == graph.screens, before.conditions == graph.conditions, before.builders == graph.builders
        else { return nil }
        for g in edited {
            guard before.nodes[g] == graph.nodes[g] else { return nil }
            if case .anyOf(let branches) = graph.nodes[g].kind, graph.branches(branches) != before.branches(branches) { return nil }
        }
        old.graph = graph
        old.carriedDirty = MarkedNodes(count: graph.nodes.count)
        let budget = nodeBudget ?? AnalysisLimits.standard.nodeBudget(graphNodes: graph.nodes.count)
        old.bdd.beginAnalysis(nodes: budget, steps: AnalysisLimits.stepBudget(nodes: budget),
                              variables: graph.conditions.count + old.elementBits)
        return old
    }

    /// What a semantics takes from the one of the graph it was patched from: which nodes
    /// and builders may build otherwise now (the edited nodes, every reference to a builder
    /// that may, and everything above those up to their body's top; a builder whose body's
    /// top is such a node, or whose body the edit holds), and the earlier builds of all the
    /// rest, which are the same functions on the same manager. Only when the earlier
    /// semantics had no builder cycle (with cycles, two readings and their fixpoints
    /// interlock: everything is computed again).
    struct Carryover {
        var dirty: MarkedNodes
        var dirtyBuilder: MarkedNodes
        var builds: [BDD.Ref]
        var builderBuilds: [BDD.Ref]
        /// The unresolved nodes and the uncertain leaves other than cyclic references (see
        /// `uncertainLeaves`): the earlier ones, less the edited nodes that no longer are,
        /// and the edited nodes that are now. (Every other node is as it was.)
        var unresolvedNodes: [Int]
        var uncertainLeaves: [Int]

        init?(_ semantics: Semantics, from old: Semantics, edited: EditedNodes) {
            let graph = semantics.graph
            // The same functions only over the same variables: an edit that changes where a
            // condition is first tested, or the element bits, orders the variables anew.
            guard old.bdd === semantics.bdd, old.cycles.isEmpty, old.graph.nodes.count == graph.nodes.count,
                  old.layout == semantics.layout, old.elementBits == semantics.elementBits,
                  old.firstElementVariable == semantics.firstElementVariable,
                  old.variableOfCondition == semantics.variableOfCondition,
                  old.graph.builders.count == graph.builders.count, old.builds.count == graph.nodes.count,
                  edited.upperBound <= graph.nodes.count
            else { return nil }
            // The edited nodes, and the builders whose bodies the edit holds, before or now.
            var builders: [Int] = []
            for g in edited {
                if let builder = semantics.bodyOwner(g) { builders.append(builder) }
                if let builder = old.bodyOwner(g) { builders.append(builder) }
            }
            let (dirty, dirtyBuilder) = semantics.dependents(of: edited, builders: builders)
            self.dirty = dirty
            self.dirtyBuilder = dirtyBuilder
            builds = old.builds
            builderBuilds = old.builderBuilds
            func patched(_ earlier: [Int], _ holds: (Int) -> Bool) -> [Int] {
                var out = earlier.filter { !edited.contains($0) }
                for g in edited where holds(g) { out.append(g) }
                return sortedUnique(out)
            }
            unresolvedNodes = patched(old.unresolvedNodes) { graph.nodes[$0].unresolved }
            uncertainLeaves = patched(old.uncertainLeaves) { semantics.isUncertainLeaf($0) }
        }
    }

    /// ∃ element. f — the environments of a set of pairs.
    func environments(_ f: BDD.Ref) -> BDD.Ref { environments(f, in: bdd) }

    /// The same, worked out in `manager`: this semantics's manager or one sharing its nodes.
    func environments(_ f: BDD.Ref, in manager: BDD) -> BDD.Ref {
        switch layout {
        case .conditionsAbove: manager.existsBelow(f, first: Int32(firstElementVariable))
        case .elementAbove: manager.existsAbove(f, end: Int32(elementBits))
        }
    }

    /// The environments in which f holds for element `code` (with the element above, a walk
    /// down its bits).
    @inline(__always)
    func environments(_ f: BDD.Ref, element code: Int) -> BDD.Ref {
        environments(f, element: code, in: bdd)
    }

    /// The same, worked out in `manager`: this semantics's manager or a copy of it.
    @inline(__always)
    func environments(_ f: BDD.Ref, element code: Int, in manager: BDD) -> BDD.Ref {
        switch layout {
        case .conditionsAbove: manager.cofactorBelow(f, first: Int32(firstElementVariable), code: code)
        case .elementAbove: manager.cofactorAbove(f, end: Int32(elementBits), code: code)
        }
    }

    /// Each condition's variable, from `first` on: by where the graph first (or, with
    /// `.lastTest`, last) tests it, the last so ranked on top; conditions the graph never tests
    /// at the bottom. The graph's nodes are in source order, file by file, so nested tests are
    /// neighbours.
    static func conditionOrder(_ graph: BuilderGraph, first: Int, ordering: ConditionOrdering = .firstTest) -> [Int32] {
        let count = graph.conditions.count
        var rank = [Int32](repeating: -1, count: count)
        var next: Int32 = 0
        switch ordering {
        case .firstTest:
            for node in graph.nodes {
                if case .condition(let condition, _, _) = node.kind, rank[condition] < 0 {
                    rank[condition] = next
                    next += 1
                }
            }
        case .lastTest:
            // The same walk backwards ranks by last test, the last lowest: turned around.
            for node in graph.nodes.reversed() {
                if case .condition(let condition, _, _) = node.kind, rank[condition] < 0 {
                    rank[condition] = next
                    next += 1
                }
            }
            for condition in 0..<count where rank[condition] >= 0 { rank[condition] = next - 1 - rank[condition] }
        }
        let tested = next
        for condition in 0..<count where rank[condition] < 0 {
            rank[condition] = next
            next += 1
        }
        // Tested conditions: the first ranked lowest among them (`tested - 1 - rank` from the
        // top); the untested ones below all of those.
        return rank.map { r in Int32(first) + (r < tested ? tested - 1 - r : r) }
    }

    /// The condition index of a variable, if it is a condition's (examples read assignments).
    func condition(ofVariable v: Int) -> Int? {
        variableOfCondition.firstIndex(of: Int32(v))
    }

    /// With the element above, a context c for node g, with the elements g does not tell
    /// apart (outside `relevant[g]`) folded into the rest code: (c ∧ R) ∨ (rest ∧ ∃e. c ∧ ¬R).
    /// Below g those elements all build the same (nothing but through a wildcard, which reads
    /// only the environments) and are evaluated in the same places, so every answer the
    /// analyses read is the same; but a condition that splits the context then copies the
    /// decision on the elements g can build, not on every element of the program (an `anyOf`
    /// of n flag-guarded screens would cost n² nodes). The identity with the element below.
    func project(_ c: BDD.Ref, to g: Int) -> BDD.Ref { project(c, to: g, in: bdd) }

    /// The same, worked out in `manager`: this semantics's manager or one sharing its nodes.
    func project(_ c: BDD.Ref, to g: Int, in manager: BDD) -> BDD.Ref {
        guard layout == .elementAbove, c != BDD.zero else { return c }
        let r = relevant[g]
        let outside = manager.andNot(c, r)
        if outside == BDD.zero { return c }
        return manager.or(manager.and(c, r), manager.and(rest, environments(outside, in: manager)))
    }

    /// `relevant` per node: bottom-up, builders as a least fixpoint (callees first, a
    /// recursive component iterated until nothing grows), as `computeBuilds` does.
    func computeRelevance() -> [BDD.Ref] {
        var values = [BDD.Ref](repeating: BDD.zero, count: graph.builders.count)
        var memo = Memo(count: graph.nodes.count, tracksEntries: false)
        var scratch = Memo(count: graph.nodes.count, tracksEntries: true)
        func relevance(_ g: Int, _ memo: inout Memo) -> BDD.Ref {
            if let known = memo[g] { return known }
            var result = BDD.zero
            switch graph.nodes[g].kind {
            case .screen(let code, _):
                result = code.map { elementIs[$0] } ?? BDD.zero
            case .anyOf(let branches):
                for i in 0..<Int(branches.count) { result = bdd.or(result, relevance(graph.branch(branches, i), &memo)) }
            case .condition(_, let then, let otherwise):
                result = bdd.or(relevance(then, &memo), otherwise.map { relevance($0, &memo) } ?? BDD.zero)
            case .ifScreen(let code, let then, let otherwise):
                result = bdd.or(relevance(then, &memo), otherwise.map { relevance($0, &memo) } ?? BDD.zero)
                if let code { result = bdd.or(result, elementIs[code]) }
            case .reference(let builder):
                result = builder.map { values[$0] } ?? BDD.zero
            case .wildcard, .nothing:
                break
            }
            memo.set(g, result)
            return result
        }
        for component in components {
            if isRecursive(component) {
                var changed = true
                while changed && !bdd.exhausted {
                    changed = false
                    scratch.clear()
                    for builder in component {
                        guard let body = graph.builders[builder].body else { continue }
                        let value = relevance(body, &scratch)
                        if value != values[builder] {
                            values[builder] = value
                            changed = true
                        }
                    }
                }
            }
            for builder in component {
                guard let body = graph.builders[builder].body else { continue }
                values[builder] = relevance(body, &memo)
            }
        }
        for g in graph.nodes.indices where memo[g] == nil { _ = relevance(g, &memo) }
        return memo.values
    }

    deinit {
        branchContextAsked.deallocate()
        branchContextCount.deallocate()
        branchContextList.deallocate()
    }

    // MARK: What the builds, the cycles and the uncertainty keep (computed in
    // Semantics+Builds.swift, Semantics+Cycles.swift, Semantics+Uncertainty.swift)

    /// The results of `branchContexts`, in a plane per reading asked for (a program without
    /// uncertainty asks for one), each plane `branchContextStride` (the length of
    /// `graph.branchList`) long. The `anyOf` whose branches start at b has, in plane p at
    /// p × stride + b: the context it was last asked with (-1: none), how many branch contexts
    /// that gave, and from there on those contexts (room for as many as it has branches).
    /// Flat, not an array per result: the flows ask at every `anyOf` they reach, and an array
    /// per result held a megabyte at 100k lines.
    /// (Buffers rather than arrays: the threads of `Flow.runOnTwoThreads()` write entries of
    /// their own at once, and an array written from two threads may be copied under one.)
    var branchContextAsked = UnsafeMutableBufferPointer<BDD.Ref>(start: nil, count: 0)

    var branchContextCount = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)

    var branchContextList = UnsafeMutableBufferPointer<BDD.Ref>(start: nil, count: 0)

    /// Per reading (by raw value), its plane (-1: not asked for yet).
    var branchContextPlanes = [-1, -1, -1]

    var branchContextStride = 0

    /// Per builder, the builders its body reaches within one evaluation; and their strongly
    /// connected components, callees first.
    var referenceEdges = Adjacency(start: [0], targets: [])

    /// Per builder, the reference nodes that name it (for `Carryover`).
    var referrers = Adjacency(start: [0], targets: [])

    var components = Components(members: [], start: [0])

    /// The indices of the components that can recur (more than one builder, or one that
    /// refers to itself): only their builders can be on a cycle.
    var recursiveComponents: [Int] = []

    /// Per builder, the index of its component.
    var componentOf: [Int32] = []

    lazy var cycleStorage = FlowStorage(size: graph.nodes.count)

}

/// Tarjan's algorithm, iterative. Components come out callees first (reverse topological
/// order of the condensation), which is the order a bottom-up computation needs.
func stronglyConnectedComponents(_ edges: Adjacency) -> Components {
    let n = edges.count
    var index = [Int](repeating: -1, count: n)
    var low = [Int](repeating: 0, count: n)
    var onStack = [Bool](repeating: false, count: n)
    var stack: [Int] = []
    var result = Components(members: [], start: [0])
    result.members.reserveCapacity(n)
    result.start.reserveCapacity(n + 1)
    var counter = 0
    var work: [(v: Int, next: Int)] = []
    for root in 0..<n where index[root] == -1 {
        work.append((root, Int(edges.start[root])))
        index[root] = counter; low[root] = counter; counter += 1
        stack.append(root); onStack[root] = true
        while !work.isEmpty {
            let (v, i) = work[work.count - 1]
            if i < Int(edges.start[v + 1]) {
                work[work.count - 1].next += 1
                let w = Int(edges.targets[i])
                if index[w] == -1 {
                    index[w] = counter; low[w] = counter; counter += 1
                    stack.append(w); onStack[w] = true
                    work.append((w, Int(edges.start[w])))
                } else if onStack[w] {
                    low[v] = min(low[v], index[w])
                }
            } else {
                work.removeLast()
                if let parent = work.last { low[parent.v] = min(low[parent.v], low[v]) }
                if low[v] == index[v] {
                    while let w = stack.popLast() {
                        onStack[w] = false
                        result.members.append(w)
                        if w == v { break }
                    }
                    result.start.append(result.members.count)
                }
            }
        }
    }
    return result
}
