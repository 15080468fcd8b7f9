/// Evaluation contexts flowing through builders: for each (node, σ) state, the set of
/// (element, environment) pairs with which the node is evaluated while resolving paths.
///
/// Transfer rules follow SPEC §4.1: an `anyOf` branch gets the pairs no earlier branch
/// builds; a condition splits on its variable; `if screen S` on [element == S]; a wildcard
/// replaces the element by its screen; a reference passes its context to the body. With
/// `crossNestings`, a built screen node starts its nesting with any element of `domain` in
/// the environments it was built in (the next path element). σ is an analysis-specific
/// state along the way (push context, ...), changed by `onBuilt`.
///
/// Every transfer distributes over union, so only the new part of a context is propagated
/// (semi-naive iteration); the fixpoint terminates because contexts only grow.
///
/// Unresolved names (SPEC §5.3) are read optimistically here, so that no warning is caused
/// by them: an unresolved `screen` node's nesting, an unresolved `if screen`'s branches and
/// an unresolved `wildcard`'s body get every context that reaches them.
struct Flow {
    let semantics: Semantics
    let crossNestings: Bool
    /// The elements of the program: what a path element can be.
    var domain: BDD.Ref
    var sigmaCount = 1
    /// State = node * sigmaCount + σ.
    private(set) var contexts: [Int: BDD.Ref] = [:]
    /// For each state, the state that first contributed to it (a shortest way back).
    private(set) var predecessor: [Int: Int] = [:]
    /// The environments in which each screen node state was built.
    private(set) var built: [Int: BDD.Ref] = [:]
    private var pending: [Int: BDD.Ref] = [:]
    private var queue: [Int] = []
    private var head = 0

    /// Called when a screen node is built (node, σ, environments); returns σ for its
    /// nesting, or nil to stop the way there. Default: σ unchanged.
    var onBuilt: ((Int, Int, BDD.Ref) -> Int?)? = nil
    /// Called at a reference (node, target builder); false stops the way there.
    var onReference: ((Int, Int) -> Bool)? = nil
    /// Called at a `conditional`/`if let` node: false keeps the way out of its then-branch.
    var entersThen: ((Int) -> Bool)? = nil
    /// When set, only these nodes are visited.
    var region: [Bool]? = nil

    init(semantics: Semantics, crossNestings: Bool, domain: BDD.Ref? = nil) {
        self.semantics = semantics
        self.crossNestings = crossNestings
        self.domain = domain ?? semantics.allElements
    }

    mutating func add(_ g: Int, sigma: Int = 0, _ c: BDD.Ref, from: Int?) {
        if c == BDD.zero { return }
        if let region, !region[g] { return }
        let bdd = semantics.bdd
        let key = g * sigmaCount + sigma
        let old = contexts[key] ?? BDD.zero
        let new = bdd.andNot(c, old)
        if new == BDD.zero { return }
        contexts[key] = bdd.or(old, new)
        if let from, predecessor[key] == nil { predecessor[key] = from }
        if let p = pending[key] {
            pending[key] = bdd.or(p, new)
        } else {
            pending[key] = new
            queue.append(key)
        }
    }

    mutating func run() {
        let bdd = semantics.bdd
        let graph = semantics.graph
        while head < queue.count {
            let key = queue[head]
            head += 1
            guard let delta = pending.removeValue(forKey: key) else { continue }
            let g = key / sigmaCount, sigma = key % sigmaCount
            switch graph.nodes[g].kind {
            case .screen(let code, let nesting):
                let envs = code.map { semantics.environments(delta, element: $0) } ?? semantics.environments(delta)
                if envs == BDD.zero { break }
                built[key] = bdd.or(built[key] ?? BDD.zero, envs)
                guard crossNestings else { break }
                let next = onBuilt.map { $0(g, sigma, envs) } ?? sigma
                if let next, let nesting {
                    add(nesting, sigma: next, bdd.and(envs, domain), from: key)
                }
            case .anyOf(let branches):
                let masks = semantics.branchMasks(g)
                for (i, b) in branches.enumerated() {
                    add(b, sigma: sigma, bdd.and(delta, masks[i]), from: key)
                }
            case .condition(let c, let then, let els):
                let v = semantics.conditionVariable[c]
                if entersThen?(g) ?? true {
                    add(then, sigma: sigma, bdd.and(delta, v), from: key)
                }
                if let els { add(els, sigma: sigma, bdd.andNot(delta, v), from: key) }
            case .ifScreen(let code, let then, let els):
                if let code {
                    let isS = semantics.elementIs[code]
                    add(then, sigma: sigma, bdd.and(delta, isS), from: key)
                    if let els { add(els, sigma: sigma, bdd.andNot(delta, isS), from: key) }
                } else {
                    add(then, sigma: sigma, delta, from: key)
                    if let els { add(els, sigma: sigma, delta, from: key) }
                }
            case .wildcard(let code, let body):
                let envs = semantics.environments(delta)
                add(body, sigma: sigma, bdd.and(envs, code.map { semantics.elementIs[$0] } ?? domain), from: key)
            case .reference(let target):
                guard let target, let body = graph.builders[target].body else { break }
                if let onReference, !onReference(g, target) { break }
                add(body, sigma: sigma, delta, from: key)
            case .nothing:
                break
            }
        }
    }

    /// The context of a node over all σ.
    func context(_ g: Int) -> BDD.Ref {
        var r = BDD.zero
        for s in 0..<sigmaCount { r = semantics.bdd.or(r, contexts[g * sigmaCount + s] ?? BDD.zero) }
        return r
    }

    func context(_ g: Int, sigma: Int) -> BDD.Ref { contexts[g * sigmaCount + sigma] ?? BDD.zero }

    /// The environments a screen node was built in, over all σ or for one.
    func builtEnvironments(_ g: Int) -> BDD.Ref {
        var r = BDD.zero
        for s in 0..<sigmaCount { r = semantics.bdd.or(r, built[g * sigmaCount + s] ?? BDD.zero) }
        return r
    }

    func builtEnvironments(_ g: Int, sigma: Int) -> BDD.Ref { built[g * sigmaCount + sigma] ?? BDD.zero }

    /// The way back from a state to where the flow started: node ids, outermost first.
    func way(to key: Int) -> [Int] {
        var out: [Int] = []
        var k = key
        var seen = Set<Int>()
        while seen.insert(k).inserted {
            out.append(k / sigmaCount)
            guard let p = predecessor[k] else { break }
            k = p
        }
        return out.reversed()
    }
}
