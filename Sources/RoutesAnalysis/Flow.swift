#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Evaluation contexts flowing through builders: for each (node, σ) state, the set of
/// (element, environment) pairs with which the node is evaluated while resolving paths.
///
/// Transfer rules follow the build semantics (docs/language.md#how-a-path-is-built): an `anyOf`
/// branch gets the pairs no earlier branch builds (computed incrementally, ctx(i+1) = ctx(i) ∧
/// ¬builds(Bi), so that an `anyOf` of n branches costs O(n), not O(n²)); a condition splits on
/// its variable; `if screen S` on [element == S]; a wildcard replaces the element by its
/// screen; a reference passes its context to the body. With `crossNestings`, a built screen
/// node starts its nesting with any element of the graph (`Semantics.allElements`: a program's
/// graph holds its screens) in the environments it was built in (the next path element). σ is
/// an analysis-specific state along the way (push context, ...), changed by `onBuilt`.
///
/// Every transfer distributes over union, so only the new part of a context is propagated
/// (semi-naive iteration; a part that also holds some of what was there is as good, and a
/// screen node passes on its whole new arrival: see `add`); the fixpoint terminates because
/// contexts only grow.
///
/// Unresolved names (docs/language.md#after-an-error) are read optimistically here, so that no
/// warning is caused by them: an unresolved `screen` node's nesting, an unresolved
/// `if screen`'s branches and an unresolved `wildcard`'s body get every context that reaches
/// them.
struct Flow {
    let semantics: Semantics
    /// The semantics's graph, copied once (a copy per transfer would retain and release each
    /// of its arrays every time).
    let graph: BuilderGraph
    /// The graph's node count: the stride of σ in the storage.
    private let nodeCount: Int
    let crossNestings: Bool
    let sigmaCount: Int
    /// When set, only these nodes are visited.
    var region: Region? = nil
    /// How uncertain leaves build (see `Semantics.Reading`).
    var reading: Semantics.Reading = .primary
    private let storage: FlowStorage
    /// The manager this flow works in: the semantics's, or one sharing its nodes while the
    /// flow runs on two threads (`runOnTwoThreads()`).
    var bdd: BDD
    /// While the flow runs on two threads: which thread's states this flow holds, and what
    /// it has for the other's (keys and contexts, sent in batches).
    var side: FlowSide? = nil
    var outbox: [(key: Int32, context: BDD.Ref)] = []
    /// The keys of the states queued (node × σ count + σ), in 32 bits (σ count ≤ 2, and a
    /// graph's nodes fit in 30 bits many times over).
    var queue: [Int32] = []
    var head = 0

    /// Whether states record the state they were first reached from, for `way(to:sigma:)`.
    /// The main flows of a program do not (see `ProgramFacts.way(to:sigma:)`): what they
    /// would record depends on the order in which states were visited, which a flow continued
    /// over an edit (`rerun`) does not reproduce, and their storage has no room for them.
    var tracksPredecessors: Bool { storage.predecessor != nil }
    /// Called when a screen node is built (node, σ, environments); returns σ for its
    /// nesting, or nil to stop the way there. Default: σ unchanged.
    var onBuilt: ((Int, Int, BDD.Ref) -> Int?)? = nil
    /// Called at a reference (node, target builder); false stops the way there.
    var onReference: ((Int, Int) -> Bool)? = nil
    /// Whether the flow enters what an unresolved screen or wildcard holds in every reading
    /// (the search for builder cycles does: a cycle is a property of the builders' text).
    var entersHiddenNodes = false
    /// Whether this flow goes into what an unresolved screen or wildcard holds: in the
    /// alternative reading, or when asked to.
    private var readsHiddenNodes: Bool { reading == .alternative || entersHiddenNodes }
    /// Called at a `conditional`/`if let` node: false keeps the way out of its then-branch.
    var entersThen: ((Int) -> Bool)? = nil
    /// When set, the flow stops as soon as this node is reached (a screen node built, any
    /// other node evaluated): for questions that need one way to it, not every environment.
    var target: Int? = nil
    /// Whether `target` was reached (and the flow stopped there).
    private(set) var targetReached = false

    /// A new flow over `storage` (which it resets); `storage.size` must be at least the
    /// graph's nodes × sigmaCount.
    init(semantics: Semantics, crossNestings: Bool, sigmaCount: Int = 1,
         storage: FlowStorage) {
        self.init(semantics: semantics, crossNestings: crossNestings, sigmaCount: sigmaCount, continuing: storage)
        storage.reset()
    }

    /// A flow over `storage` as another flow of the same program left it (its fixpoint, over
    /// the graph before an edit), to be continued by `rerun(affected:seed:at:)`. The storage
    /// is taken over: the flow that filled it must not be read again.
    init(semantics: Semantics, crossNestings: Bool, sigmaCount: Int, continuing storage: FlowStorage) {
        self.semantics = semantics
        self.crossNestings = crossNestings
        self.sigmaCount = sigmaCount
        precondition(storage.size >= semantics.graph.nodes.count * sigmaCount)
        graph = semantics.graph
        nodeCount = graph.nodes.count
        self.storage = storage
        bdd = semantics.bdd
    }

    /// The states this flow reached, for a flow continued from them over an edit.
    var states: FlowStorage { storage }

    /// The storage slot of state (g, σ) (see `FlowStorage`).
    @inline(__always) private func slot(_ g: Int, _ sigma: Int) -> Int { sigma &* nodeCount &+ g }

    @inline(__always) private func inRegion(_ g: Int) -> Bool { region?.contains(g) ?? true }

    @inline(__always) private func graphNodeIsScreen(_ g: Int) -> Bool {
        if case .screen = graph.nodes[g].kind { return true }
        return false
    }

    @inline(__always) private func contextOf(_ g: Int, _ sigma: Int) -> BDD.Ref {
        let slot = slot(g, sigma)
        return storage.isLive(slot) ? storage.contexts[slot] : BDD.zero
    }

    @inline(__always) private func builtOf(_ g: Int, _ sigma: Int) -> BDD.Ref {
        let slot = slot(g, sigma)
        return storage.isLive(slot) ? storage.built[slot] : BDD.zero
    }

    /// Adds `context` to state (g, σ), reached from state `from` (a global key, g × σ count + σ).
    mutating func add(_ g: Int, sigma: Int = 0, _ context: BDD.Ref, from: Int?) {
        if context == BDD.zero || !inRegion(g) { return }
        if let side, side.holdsOther(g) {
            outbox.append((Int32(truncatingIfNeeded: g * sigmaCount + sigma), context))
            return
        }
        let slot = slot(g, sigma)
        storage.touch(slot)
        let old = storage.contexts[slot]
        if old != BDD.zero && addsNothing(context, to: old) { return }
        let new: BDD.Ref
        if old != BDD.zero && graphNodeIsScreen(g) {
            // A screen node passes on only the environments it is built in (and to its
            // nesting every element in them, which `addsNothing(_:to:)` there tells from
            // what the nesting holds without a walk of the elements): the whole arrival
            // serves as the new part, and one union tells whether anything is new. The
            // part itself would cost a walk of both diagrams more: a builder's screen
            // reached from two places gets two contexts that each lack a few elements.
            let union = bdd.or(old, context)
            if union == old { return }
            storage.contexts[slot] = union
            new = context
        } else {
            new = bdd.andNot(context, old)
            if new == BDD.zero { return }
            storage.contexts[slot] = bdd.or(old, new)
        }
        if let from, let predecessors = storage.predecessor, predecessors[slot] < 0 { predecessors[slot] = Int32(from) }
        if g == target, !graphNodeIsScreen(g) { targetReached = true }
        let pending = storage.pending[slot]
        storage.pending[slot] = bdd.or(pending, new)
        if pending == BDD.zero { queue.append(Int32(truncatingIfNeeded: g * sigmaCount + sigma)) }
    }

    /// Whether `context` adds nothing to a state whose context is `old`, known from their
    /// environments alone: when `old` holds every element in each of its environments (a
    /// builder's body that many references reach soon does) and `context` has no environment
    /// outside them. With the conditions above the element, the environments are the few
    /// nodes above the element's, so this spares the walk of `andNot(context, old)` down
    /// every element `context` lacks (each reference to a builder used all over a program
    /// brings a context of its own). False when it cannot tell.
    @inline(__always) private func addsNothing(_ context: BDD.Ref, to old: BDD.Ref) -> Bool {
        guard semantics.layout == .conditionsAbove else { return false }
        let oldEnvironments = semantics.environments(old, in: bdd)
        // Every context lies within its environments × every element code.
        guard bdd.and(oldEnvironments, semantics.anyElement) == old else { return false }
        return bdd.andNot(semantics.environments(context, in: bdd), oldEnvironments) == BDD.zero
    }

    mutating func run() {
        // With a target, depth first: every node of a region leads to the target, so diving
        // reaches it after about one way's length instead of after the whole region's breadth.
        // (The fixpoint does not depend on the order; only when it stops does.)
        let depthFirst = target != nil
        while head < queue.count && !targetReached && !bdd.exhausted {
            if let side, outbox.count >= FlowSide.batch {
                if side.exchange.stopped { return }
                side.exchange.send(&outbox, to: 1 - side.me)
            }
            let key: Int
            if depthFirst {
                key = Int(queue.removeLast())
            } else {
                key = Int(queue[head])
                head += 1
                // What was taken goes once it is half the queue: the queue holds what is
                // pending rather than every state ever queued.
                if head >= 4096 && head * 2 >= queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
            }
            let g = key / sigmaCount, sigma = key % sigmaCount
            let slot = slot(g, sigma)
            let delta = storage.pending[slot]
            storage.pending[slot] = BDD.zero
            if delta == BDD.zero { continue }
            if transfer(key, delta) { return }
        }
    }

    /// Passes state `key`'s context part `delta` on to its successors (see the transfer rules
    /// above). True when the flow stops there (its target is built).
    private mutating func transfer(_ key: Int, _ delta: BDD.Ref) -> Bool {
        let g = key / sigmaCount, sigma = key % sigmaCount
        let slot = slot(g, sigma)
        switch graph.nodes[g].kind {
        case .screen(let code, let nesting):
            // An unresolved screen builds nothing, and its nesting is never reached; the
            // alternative reading takes it for any screen (see `Semantics.hidesWhatItHolds`).
            if code == nil && !readsHiddenNodes { break }
            let envs = code.map { semantics.environments(delta, element: $0, in: bdd) } ?? semantics.environments(delta, in: bdd)
            if envs == BDD.zero { break }
            storage.built[slot] = bdd.or(storage.built[slot], envs)
            if g == target { targetReached = true; return true }
            guard crossNestings else { break }
            let next = onBuilt.map { $0(g, sigma, envs) } ?? sigma
            if let next, let nesting {
                add(nesting, sigma: next, bdd.and(envs, semantics.allElements), from: key)
            }
        case .anyOf(let branches):
            // (Valid until the next question: `add` asks none.)
            let contexts = semantics.branchContexts(g, delta, reading: reading, in: bdd)
            if let region {
                for i in region.branches[g] ?? [] where i < contexts.count {
                    add(graph.branch(branches, i), sigma: sigma, contexts[i], from: key)
                }
            } else {
                for i in 0..<min(Int(branches.count), contexts.count) {
                    add(graph.branch(branches, i), sigma: sigma, contexts[i], from: key)
                }
            }
        case .condition(let condition, let then, let els):
            let variable = semantics.conditionVariable[condition]
            if inRegion(then) && entersThen?(g) ?? true {
                add(then, sigma: sigma, bdd.and(semantics.project(delta, to: then, in: bdd), variable), from: key)
            }
            if let els, inRegion(els) { add(els, sigma: sigma, bdd.andNot(semantics.project(delta, to: els, in: bdd), variable), from: key) }
        case .ifScreen(let code, let then, let els):
            if let code {
                let isS = semantics.elementIs[code]
                if inRegion(then) { add(then, sigma: sigma, bdd.and(delta, isS), from: key) }
                if let els, inRegion(els) { add(els, sigma: sigma, bdd.andNot(delta, isS), from: key) }
            } else {
                add(then, sigma: sigma, delta, from: key)
                if let els { add(els, sigma: sigma, delta, from: key) }
            }
        case .wildcard(let code, let body):
            guard inRegion(body), code != nil || readsHiddenNodes else { break }
            let envs = semantics.environments(delta, in: bdd)
            add(body, sigma: sigma, bdd.and(envs, code.map { semantics.elementIs[$0] } ?? semantics.allElements), from: key)
        case .reference(let target):
            guard let target, let body = graph.builders[target].body, inRegion(body) else { break }
            if let onReference, !onReference(g, target) { break }
            add(body, sigma: sigma, delta, from: key)
        case .nothing:
            break
        }
        return false
    }

    /// The nodes a flow goes to from node g (whatever the contexts): its branches, body or
    /// referenced builder's body, and a screen node's nesting when the flow crosses nestings.
    @inline(__always)
    static func forEachSuccessor(_ g: Int, in graph: BuilderGraph, crossNestings: Bool, _ body: (Int) -> Void) {
        switch graph.nodes[g].kind {
        case .screen(_, let nesting):
            if crossNestings, let nesting { body(nesting) }
        case .reference(let target):
            if let target, let targetBody = graph.builders[target].body { body(targetBody) }
        case .anyOf, .condition, .ifScreen, .wildcard:
            graph.forEachChild(g, body)
        case .nothing:
            break
        }
    }

    /// The nodes a flow goes to node g from (those whose `forEachSuccessor` lists g): its
    /// parent, the screen node whose nesting it is (when the flow crosses nestings), and the
    /// references to the builder whose body it is.
    static func forEachPredecessor(_ g: Int, in semantics: Semantics, crossNestings: Bool, _ body: (Int) -> Void) {
        if let parent = semantics.graph.nodes[g].parent { body(parent) }
        if crossNestings, let owner = semantics.nestingOwner(g) { body(owner) }
        if let builder = semantics.bodyOwner(g) {
            for referrer in semantics.referrers.neighbors(builder) { body(Int(referrer)) }
        }
    }

    /// Continues the fixpoint this flow's storage holds (that of the same program before an
    /// edit: see `init(semantics:crossNestings:sigmaCount:continuing:)`) to the fixpoint of
    /// the edited program. `affected` holds every node whose context the edit may have
    /// changed (`ProgramFacts.affectedNodes`): every other node gets from its predecessors
    /// what it got before (an affected node passes on to it what it passed before), and (a
    /// least fixpoint of the same equations) keeps its context. The affected nodes' states
    /// are emptied, given again what the other nodes pass to them, and the flow runs from
    /// there: the states it reaches are those of a fresh flow, in the time the affected part
    /// takes. `seed` is what the flow starts with at node `start` (`root`).
    mutating func rerun(affected: MarkedNodes, seed: BDD.Ref, at start: Int) {
        precondition(region == nil && target == nil && !tracksPredecessors)
        let changed = affected.members
        guard !changed.isEmpty else { return }
        for g in changed {
            for sigma in 0..<sigmaCount {
                let slot = slot(g, sigma)
                if storage.isLive(slot) {
                    storage.contexts[slot] = BDD.zero
                    storage.pending[slot] = BDD.zero
                    storage.built[slot] = BDD.zero
                }
            }
        }
        // The unaffected nodes that lead to an affected one, in node order (found from the
        // affected nodes, not by a pass over every node).
        var feeders: [Int] = []
        for g in changed {
            Self.forEachPredecessor(g, in: semantics, crossNestings: crossNestings) { if !affected[$0] { feeders.append($0) } }
        }
        for feeder in sortedUnique(feeders) {
            // What the feeder passes on: its whole context again (to its unaffected successors
            // it adds nothing new, their contexts already hold it).
            for sigma in 0..<sigmaCount {
                let context = contextOf(feeder, sigma)
                if context != BDD.zero { _ = transfer(feeder * sigmaCount + sigma, context) }
            }
        }
        if affected[start] { add(start, seed, from: nil) }
        run()
    }

    /// The context of a node over all σ.
    func context(_ g: Int) -> BDD.Ref {
        var union = BDD.zero
        for sigma in 0..<sigmaCount { union = semantics.bdd.or(union, contextOf(g, sigma)) }
        return union
    }

    func context(_ g: Int, sigma: Int) -> BDD.Ref { contextOf(g, sigma) }

    /// Whether node g is evaluated at all (its context over all σ is not empty), without
    /// making the union.
    func isEvaluated(_ g: Int) -> Bool {
        (0..<sigmaCount).contains { contextOf(g, $0) != BDD.zero }
    }

    /// Whether node g's context, over all σ, meets `other`, without making the union or the meet.
    func contextMeets(_ g: Int, _ other: BDD.Ref) -> Bool {
        (0..<sigmaCount).contains { semantics.bdd.intersects(contextOf(g, $0), other) }
    }

    /// `contextMeets(_:_:)` for threads that ask at once (see `BDD.intersects(_:_:local:)`).
    func contextMeets(_ g: Int, _ other: BDD.Ref, local: inout BDD.LocalCache) -> Bool {
        for sigma in 0..<sigmaCount where semantics.bdd.intersects(contextOf(g, sigma), other, local: &local) { return true }
        return false
    }

    /// Whether screen node g is built in some environment, over all σ.
    func isBuilt(_ g: Int) -> Bool {
        (0..<sigmaCount).contains { builtOf(g, $0) != BDD.zero }
    }

    /// The environments a screen node was built in, over all σ.
    func builtEnvironments(_ g: Int) -> BDD.Ref {
        var union = BDD.zero
        for sigma in 0..<sigmaCount { union = semantics.bdd.or(union, builtOf(g, sigma)) }
        return union
    }

    func builtEnvironments(_ g: Int, sigma: Int) -> BDD.Ref { builtOf(g, sigma) }

    /// The way back from a node's state to where the flow started: node ids, outermost first.
    func way(to g: Int, sigma: Int = 0) -> [Int] {
        var out: [Int] = []
        var key = g * sigmaCount + sigma
        var seen = Set<Int>()
        while seen.insert(key).inserted {
            out.append(key / sigmaCount)
            let slot = slot(key / sigmaCount, key % sigmaCount)
            guard storage.isLive(slot), let predecessors = storage.predecessor, predecessors[slot] >= 0 else { break }
            key = Int(predecessors[slot])
        }
        return out.reversed()
    }
}
