import RoutesModel
import RoutesSyntax

extension Semantics {
    /// Per builder, the builders its body can reach within one evaluation (not through
    /// nestings), with repeats: one walk over the bodies, into flat arrays.
    func referencesInBodies() -> Adjacency {
        var start: [Int32] = [0]
        start.reserveCapacity(graph.builders.count + 1)
        var targets: [Int32] = []
        var stack: [Int] = []
        for builder in graph.builders.indices {
            if let body = graph.builders[builder].body {
                stack.append(body)
                while let g = stack.popLast() {
                    if case .reference(let target?) = graph.nodes[g].kind { targets.append(Int32(target)) }
                    graph.forEachChild(g) { stack.append($0) }
                }
            }
            start.append(Int32(targets.count))
        }
        return Adjacency(start: start, targets: targets)
    }

    /// Per builder, the reference nodes that name it, in node order.
    func referencesByTarget() -> Adjacency {
        let count = graph.builders.count
        var start = [Int32](repeating: 0, count: count + 1)
        for node in graph.nodes { if case .reference(let target?) = node.kind { start[target + 1] += 1 } }
        for i in 0..<count { start[i + 1] += start[i] }
        var next = start
        var targets = [Int32](repeating: 0, count: Int(start[count]))
        for (g, node) in graph.nodes.enumerated() {
            guard case .reference(let target?) = node.kind else { continue }
            targets[Int(next[target])] = Int32(g)
            next[target] += 1
        }
        return Adjacency(start: start, targets: targets)
    }

    /// Whether a component is recursive: more than one builder, or one that reaches itself.
    func isRecursive(_ component: ArraySlice<Int>) -> Bool {
        component.count > 1 || referenceEdges.neighbors(component[component.startIndex]).contains(Int32(component[component.startIndex]))
    }

    /// How uncertain leaves build. `primary` is the semantics: a reference on a builder cycle
    /// never returns (it diverges: the element is not built and no later `anyOf` branch is
    /// tried, so for masking it "builds" everything), and an unresolved builder or a syntax
    /// hole builds nothing (docs/language.md#after-an-error). `alternative` reads each the
    /// other way. Errors follow `primary`; a warning is reported only if it holds under both,
    /// so that no warning depends on how a cycle or an unresolved name is read. `real` reads
    /// every uncertain leaf as building nothing: what really yields a node (a diverging cycle
    /// yields none), used to tell building first from diverging first.
    enum Reading: Int {
        case primary
        case alternative
        case real
    }

    func isUncertainLeaf(_ g: Int) -> Bool {
        switch graph.nodes[g].kind {
        case .reference(nil): return true
        case .reference: return !cyclicReferences.isEmpty && cyclicReferences.contains(g)
        case .nothing: return graph.nodes[g].unresolved
        default: return false
        }
    }

    /// The primary builds of a large `anyOf` (see `unionTrees`): its branches' builds are the
    /// tree's leaves, and only the unions above the leaves that changed since the tree was
    /// last made (in this semantics, or in the earlier one an edit carried it from) are made
    /// again. A union does not depend on how it is bracketed, so the result is the one a
    /// chain of unions makes, and a fresh analysis makes the same tree.
    func unitedBuilds<M: BuildsMemo>(_ g: Int, _ branches: BuilderGraph.Branches, memo: inout M, values: [BDD.Ref],
                                     in bdd: BDD, trees: inout UnionTrees) -> BDD.Ref {
        let branchCount = Int(branches.count)
        var size = 1
        while size < branchCount { size *= 2 }
        var tree = trees.trees.removeValue(forKey: g) ?? []
        let fresh = tree.count != 2 * size
        if fresh { tree = [BDD.Ref](repeating: BDD.zero, count: 2 * size) }
        var changed: [Int] = []
        for i in 0..<branchCount {
            let branchBuilds = evaluate(graph.branch(branches, i), memo: &memo, reading: .primary, values: values, in: bdd, trees: &trees)
            if fresh || tree[size + i] != branchBuilds {
                tree[size + i] = branchBuilds
                changed.append(size + i)
            }
        }
        // Level by level, the parents of what changed, in increasing order.
        while !changed.isEmpty && changed[0] > 1 {
            var parents: [Int] = []
            for index in changed where parents.last != index / 2 { parents.append(index / 2) }
            for index in parents { tree[index] = bdd.or(tree[2 * index], tree[2 * index + 1]) }
            trees.unionsMade += parents.count
            changed = parents
        }
        trees.trees[g] = tree
        return tree[1]
    }

    /// The union trees of large `anyOf`s (see `Semantics.unionTrees`) that an evaluation
    /// reads and makes, and how many unions it made: the semantics's own, or a helper
    /// thread's while it evaluates nodes of its own (see `evaluateOutsideBodiesOnTwoThreads`).
    struct UnionTrees {
        var trees: [Int: [BDD.Ref]]
        var unionsMade = 0
    }

    /// The builds of node g in `reading` (builders' builds from `values`), worked out in
    /// `bdd` (this semantics's manager or one sharing its nodes), with the memo of what is
    /// known: it evaluates g's children first, which are in g's body (a reference reads
    /// `values`, a screen does not evaluate its nesting), so in g's file.
    func evaluate<M: BuildsMemo>(_ g: Int, memo: inout M, reading: Reading, values: [BDD.Ref], in bdd: BDD,
                                 trees: inout UnionTrees) -> BDD.Ref {
        if let known = memo[g] { return known }
        let value: BDD.Ref
        if isUncertainLeaf(g) {
            let cyclic = cyclicReferences.contains(g)
            value = reading != .real && (reading == .primary) == cyclic ? anyElement : BDD.zero
            memo.set(g, value)
            return value
        }
        switch graph.nodes[g].kind {
        case .screen(let code, _):
            value = code.map { elementIs[$0] } ?? BDD.zero
        case .anyOf(let branches):
            if reading == .real {
                // What really yields a node: branch i is tried only where no earlier branch
                // built or diverged (the primary builds), and yields what it really yields.
                var result = BDD.zero
                var running = BDD.one
                for i in 0..<Int(branches.count) {
                    let branch = graph.branch(branches, i)
                    if running == BDD.zero { break }
                    result = bdd.or(result, bdd.and(running, evaluate(branch, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees)))
                    running = bdd.andNot(running, builds[branch])
                }
                value = result
            } else if reading == .primary && Int(branches.count) >= Self.unionTreeBranches {
                value = unitedBuilds(g, branches, memo: &memo, values: values, in: bdd, trees: &trees)
            } else {
                var result = BDD.zero
                for i in 0..<Int(branches.count) {
                    result = bdd.or(result, evaluate(graph.branch(branches, i), memo: &memo, reading: reading, values: values, in: bdd, trees: &trees))
                }
                value = result
            }
        case .condition(let condition, let thenNode, let elseNode):
            let variable = conditionVariable[condition]
            let els = elseNode.map { evaluate($0, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees) } ?? BDD.zero
            value = bdd.or(bdd.and(variable, evaluate(thenNode, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees)), bdd.andNot(els, variable))
        case .ifScreen(let code, let thenNode, let elseNode):
            let els = elseNode.map { evaluate($0, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees) } ?? BDD.zero
            let then = evaluate(thenNode, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees)
            if let code {
                value = bdd.or(bdd.and(elementIs[code], then), bdd.andNot(els, elementIs[code]))
            } else {
                value = BDD.zero  // an unresolved screen is never the element
            }
        case .wildcard(let code, let body):
            let inner = evaluate(body, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees)
            if let code {
                // build(wildcard W B, e) = build(B, W): whatever the element, if B builds a W.
                value = bdd.and(environments(inner, element: code, in: bdd), anyElement)
            } else {
                value = BDD.zero
            }
        case .reference(let builder):
            value = builder.map { values[$0] } ?? BDD.zero
        case .nothing:
            value = BDD.zero
        }
        memo.set(g, value)
        return value
    }

    /// What `evaluate` knows of each node (see `Memo`).
    protocol BuildsMemo {
        subscript(g: Int) -> BDD.Ref? { get }
        mutating func set(_ g: Int, _ value: BDD.Ref)
    }

    /// A memo's values as two threads write them at once, each for nodes of its own (see
    /// `evaluateOutsideBodiesOnTwoThreads`): over the memo's buffer, which outlives it.
    struct SharedMemo: BuildsMemo {
        let values: UnsafeMutablePointer<BDD.Ref>
        init(_ values: UnsafeMutablePointer<BDD.Ref>) { self.values = values }
        subscript(g: Int) -> BDD.Ref? { values[g] < 0 ? nil : values[g] }
        func set(_ g: Int, _ value: BDD.Ref) { values[g] = value }
    }

    /// Results of `evaluate` per node. A scratch memo (`tracksEntries`) remembers what it set,
    /// so that clearing it costs what was evaluated: a project with many recursive builders
    /// must not clear an array as large as the whole graph per builder and round.
    struct Memo: BuildsMemo {
        /// Per node, its value, or -1 while it has none (refs are not negative): 4 bytes a
        /// node, and a copy of earlier builds is a memo as it is.
        var values: [BDD.Ref]
        var touched: [Int] = []
        let tracksEntries: Bool

        init(count: Int, tracksEntries: Bool) {
            values = Array(repeating: -1, count: count)
            self.tracksEntries = tracksEntries
        }

        /// A memo that holds `values` (every node has one).
        init(values: [BDD.Ref]) {
            self.values = values
            tracksEntries = false
        }

        subscript(g: Int) -> BDD.Ref? { values[g] < 0 ? nil : values[g] }

        mutating func set(_ g: Int, _ value: BDD.Ref) {
            values[g] = value
            if tracksEntries { touched.append(g) }
        }

        mutating func forget(_ g: Int) { values[g] = -1 }

        mutating func clear() {
            for g in touched { values[g] = -1 }
            touched.removeAll(keepingCapacity: true)
        }
    }

    /// `builds` per node and per builder for one reading, builders as a least fixpoint:
    /// callees before callers, so that a body is evaluated once with final values; within a
    /// recursive component, iterate first (all builds start empty and only grow), with a
    /// scratch memo since values change between rounds.
    /// With `carried` (primary reading only), only what may have changed is evaluated.
    func computeBuilds(_ reading: Reading, carrying carried: Carryover? = nil) -> (nodes: [BDD.Ref], builders: [BDD.Ref]) {
        var values: [BDD.Ref]
        var memo: Memo
        // With builds carried over, the components of the dirty builders only (in the order
        // of `components`, callees first).
        let componentIndices: [Int]
        if let carried {
            precondition(reading == .primary)
            values = carried.builderBuilds
            for builder in carried.dirtyBuilder.members { values[builder] = BDD.zero }
            memo = Memo(values: carried.builds)
            for g in carried.dirty.members { memo.forget(g) }
            componentIndices = sortedUnique(carried.dirtyBuilder.members.map { Int(componentOf[$0]) })
        } else {
            values = [BDD.Ref](repeating: BDD.zero, count: graph.builders.count)
            memo = Memo(count: graph.nodes.count, tracksEntries: false)
            componentIndices = Array(components.indices)
        }
        var trees = UnionTrees(trees: unionTrees)
        unionTrees = [:]
        defer {
            unionTrees = trees.trees
            unionsMade += trees.unionsMade
        }
        // Made when a recursive component is met.
        var scratch: Memo? = nil
        for index in componentIndices {
            let component = components[index]
            let recursive = isRecursive(component)
            if recursive {
                var changed = true
                if scratch == nil { scratch = Memo(count: graph.nodes.count, tracksEntries: true) }
                while changed && !bdd.exhausted {
                    changed = false
                    scratch!.clear()
                    for builder in component {
                        guard let body = graph.builders[builder].body else { continue }
                        let value = evaluate(body, memo: &scratch!, reading: reading, values: values, in: bdd, trees: &trees)
                        if value != values[builder] {
                            values[builder] = value
                            changed = true
                        }
                    }
                }
            }
            for builder in component {
                guard let body = graph.builders[builder].body else { continue }
                values[builder] = evaluate(body, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees)
            }
        }
        // Carried over, only the dirty nodes lack a value.
        if let carried {
            for g in carried.dirty.members where memo[g] == nil {
                _ = evaluate(g, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees)
            }
        } else if !evaluateOutsideBodiesOnTwoThreads(memo: &memo, reading: reading, values: values, trees: &trees) {
            for g in graph.nodes.indices where memo[g] == nil {
                _ = evaluate(g, memo: &memo, reading: reading, values: values, in: bdd, trees: &trees)
            }
        }
        // (Every node has its value now: `evaluate` sets the memo of the node it evaluates.)
        return (memo.values, values)
    }

    /// The nodes of runs of whole files, about 1/64 of the graph each, for two threads to
    /// take in turn: ascending, covering every node.
    func fileRuns() -> [Range<Int>] {
        let total = graph.nodes.count
        let target = max(1, total / 64)
        var runs: [Range<Int>] = []
        var start = 0
        for file in graph.files.files.dropFirst() {
            let first = graph.firstNode(of: file)
            if first - start >= target {
                runs.append(start..<first)
                start = first
            }
        }
        if start < total { runs.append(start..<total) }
        return runs
    }

    /// The builds of the nodes outside every builder's body (the nestings, `root`'s body:
    /// most of a large program), once every builder's builds are known, on this thread and
    /// a helper thread at once; false (and nothing done) for a small graph, one processor,
    /// or a manager already shared. Each thread takes a run of whole files at a time
    /// (`fileRuns()`): a node's evaluation reads only nodes of its own body, so of its own
    /// file, and the builders' `values`, so the two write different nodes' memo entries. The
    /// helper thread works in a manager sharing this one's nodes (`BDD.beginSharing()`): the
    /// functions are the same, and so are their refs. It takes part only if it begins before
    /// this thread has taken the last run: a helper busy elsewhere (perhaps with another
    /// program's analysis, on which this thread's caller waits) is never waited for.
    func evaluateOutsideBodiesOnTwoThreads(memo: inout Memo, reading: Reading, values: [BDD.Ref], trees: inout UnionTrees) -> Bool {
        guard graph.nodes.count >= twoThreadBuildsFrom, Helpers.processors > 1, bdd.sharing == nil, !bdd.exhausted else {
            return false
        }
        let runs = fileRuns()
        guard runs.count > 1 else { return false }
        let worker = bdd.beginSharing()
        let work = TwoThreadRuns(count: runs.count)
        memo.values.withUnsafeMutableBufferPointer { buffer in
            let shared = UncheckedSendable((SharedMemo(buffer.baseAddress!), self, worker, values, runs))
            Helpers.shared.async {
                guard work.helperBegins() else { return }
                let (start, semantics, worker, values, runs) = shared.value
                var memo = start
                var trees = UnionTrees(trees: [:])
                worker.joinsSharing()
                while !worker.exhausted, let run = work.next() {
                    for g in runs[run] where memo[g] == nil {
                        _ = semantics.evaluate(g, memo: &memo, reading: reading, values: values, in: worker, trees: &trees)
                    }
                }
                worker.stopsSharing()
                work.helperEnds(handing: trees)
            }
            var mine = SharedMemo(buffer.baseAddress!)
            if awaitsTheHelper { work.awaitHelperBegun() }
            while !bdd.exhausted, let run = work.next() {
                for g in runs[run] where mine[g] == nil {
                    _ = evaluate(g, memo: &mine, reading: reading, values: values, in: bdd, trees: &trees)
                }
            }
            // Out of work: a growth the helper asks for from now on does not wait for this
            // thread.
            bdd.stopsSharing()
            if let helperTrees = work.helperTreesOnceDone() {
                outsideBodiesOnTwoThreads.helped += 1
                trees.unionsMade += helperTrees.unionsMade
                trees.trees.merge(helperTrees.trees) { mine, _ in mine }
            }
        }
        outsideBodiesOnTwoThreads.evaluations += 1
        bdd.endSharing(worker)
        return true
    }

    /// For an `anyOf` evaluated with `context`: each branch's context, the pairs of the
    /// context that no earlier branch builds, in the semantics's own storage: valid until the
    /// next call (a flow reads them while it queues the branches). Built incrementally,
    /// ctx(i+1) = ctx(i) ∧ ¬builds(Bi), and stopped once nothing is left; the last result
    /// per node is kept, since the flows of one program mostly bring the same context again.
    func branchContexts(_ g: Int, _ context: BDD.Ref, reading: Reading = .primary) -> UnsafeBufferPointer<BDD.Ref> {
        branchContexts(g, context, reading: reading, in: bdd)
    }

    /// The same, worked out in `manager` (this semantics's manager or one sharing its nodes):
    /// threads that share the manager may ask at once for `anyOf` nodes of their own, once
    /// `addBranchContextPlane(for:)` has made room for the reading.
    func branchContexts(_ g: Int, _ context: BDD.Ref, reading: Reading, in manager: BDD) -> UnsafeBufferPointer<BDD.Ref> {
        guard case .anyOf(let branches) = graph.nodes[g].kind, !branches.isEmpty else { return UnsafeBufferPointer(start: nil, count: 0) }
        // An `anyOf` with branches is known by where its branches start in the graph's list.
        var plane = branchContextPlanes[reading.rawValue]
        if plane < 0 { plane = addBranchContextPlane(for: reading) }
        let key = plane * branchContextStride + Int(branches.start)
        let list = branchContextList.baseAddress!
        if branchContextAsked[key] != context {
            let values: [BDD.Ref]
            switch reading {
            case .primary: values = builds
            case .alternative: values = alternativeBuilds
            case .real: values = realBuilds
            }
            var count = 0
            var running = context
            while count < Int(branches.count) && running != BDD.zero {
                list[key + count] = running
                count += 1
                if count < Int(branches.count) { running = manager.andNot(running, values[graph.branch(branches, count - 1)]) }
            }
            branchContextAsked[key] = context
            branchContextCount[key] = Int32(count)
        }
        return UnsafeBufferPointer(start: list + key, count: Int(branchContextCount[key]))
    }

    /// Makes room for the branch contexts of `reading`, if there is none yet: before threads
    /// ask for them at once.
    func prepareBranchContexts(for reading: Reading) {
        if branchContextPlanes[reading.rawValue] < 0 && !graph.branchList.isEmpty { _ = addBranchContextPlane(for: reading) }
    }

    /// Makes room for the contexts of one more reading; returns its plane.
    func addBranchContextPlane(for reading: Reading) -> Int {
        let stride = graph.branchList.count
        let plane = branchContextAsked.count / stride
        branchContextPlanes[reading.rawValue] = plane
        branchContextStride = stride
        branchContextAsked = Self.extended(branchContextAsked, by: stride, with: -1)
        branchContextCount = Self.extended(branchContextCount, by: stride, with: 0)
        branchContextList = Self.extended(branchContextList, by: stride, with: BDD.zero)
        return plane
    }

    /// `buffer` (deallocated) with `count` more elements of `value`.
    private static func extended<T>(_ buffer: UnsafeMutableBufferPointer<T>, by count: Int, with value: T) -> UnsafeMutableBufferPointer<T> {
        let bigger = UnsafeMutableBufferPointer<T>.allocate(capacity: buffer.count + count)
        if let old = buffer.baseAddress {
            bigger.baseAddress!.moveInitialize(from: old, count: buffer.count)
            buffer.deallocate()
        }
        (bigger.baseAddress! + buffer.count).initialize(repeating: value, count: count)
        return bigger
    }


    /// Frees the decision-diagram nodes that this semantics does not hold (`BDD.collect(_:)`),
    /// and forgets the branch contexts it answered (a cache). For an analysis that no later
    /// one continues, before its flows hold any node: a lint's, before its main flows.
    func collectGarbage() {
        forgetBranchContexts()
        bdd.collect { mark in
            for list in [elementIs, conditionVariable, relevant, builds, alternativeBuilds, realBuilds, builderBuilds] {
                for ref in list { mark(ref) }
            }
            for ref in [allElements, anyElement, rest] { mark(ref) }
            for tree in unionTrees.values { for ref in tree { mark(ref) } }
        }
    }

    /// Lets go of what only a semantics patched over an edit reads of this one (the
    /// references between builders and their strongly connected components): for an
    /// analysis no edit continues, a lint's.
    func forgetEditStructure() {
        referenceEdges = Adjacency(start: [0], targets: [])
        components = Components(members: [], start: [0])
        componentOf = []
        recursiveComponents = []
    }

    func forgetBranchContexts() {
        branchContextAsked.deallocate()
        branchContextAsked = UnsafeMutableBufferPointer(start: nil, count: 0)
        branchContextCount.deallocate()
        branchContextCount = UnsafeMutableBufferPointer(start: nil, count: 0)
        branchContextList.deallocate()
        branchContextList = UnsafeMutableBufferPointer(start: nil, count: 0)
        branchContextPlanes = [-1, -1, -1]
    }

}

/// The runs of `Semantics.evaluateOutsideBodiesOnTwoThreads` handed out to two threads, and
/// whether the helper thread takes part: it does if it begins before the first thread has
/// run out of runs, and is then waited for.
private final class TwoThreadRuns: @unchecked Sendable {
    private enum Helper {
        case notBegun
        case working
        /// Done, with the union trees it made.
        case done(Semantics.UnionTrees)
        /// Too late: the first thread no longer waits for it.
        case late
    }

    private let monitor = Monitor()
    private let count: Int
    private var nextRun = 0
    private var helper = Helper.notBegun

    init(count: Int) { self.count = count }

    /// The next run to evaluate, nil once every run is taken.
    func next() -> Int? {
        monitor.lock()
        defer { monitor.unlock() }
        guard nextRun < count else { return nil }
        nextRun += 1
        return nextRun - 1
    }

    /// Said by the helper thread as it begins: whether it takes part.
    func helperBegins() -> Bool {
        monitor.lock()
        defer { monitor.unlock() }
        guard case .notBegun = helper, nextRun < count else {
            helper = .late
            return false
        }
        helper = .working
        monitor.broadcast()
        return true
    }

    /// Said by the helper thread once out of runs.
    func helperEnds(handing trees: Semantics.UnionTrees) {
        monitor.lock()
        helper = .done(trees)
        monitor.broadcast()
        monitor.unlock()
    }

    /// Said by the first thread once out of runs: the helper's union trees once it is done,
    /// if it took part; nil if it has not begun (it will not).
    func helperTreesOnceDone() -> Semantics.UnionTrees? {
        monitor.lock()
        defer { monitor.unlock() }
        while true {
            switch helper {
            case .notBegun, .late:
                helper = .late
                return nil
            case .working: monitor.wait()
            case .done(let trees): return trees
            }
        }
    }

    /// Waits until the helper thread has begun (tests: see `Semantics.awaitsTheHelper`).
    func awaitHelperBegun() {
        monitor.lock()
        while case .notBegun = helper { monitor.wait() }
        monitor.unlock()
    }
}
