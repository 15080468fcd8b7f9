/// Under which environments each prefix of a path is built, exactly: the build semantics
/// (docs/language.md#how-a-path-is-built) followed over every environment at once, with
/// decision diagrams. For each element, the screen nodes that build it and the environments
/// in which each does; the next element is built by their nestings, in those environments.
struct PathCondition {
    let semantics: Semantics
    // The graph's and the semantics's tables, held once: reading them through `semantics`
    // would copy the graph (retaining each of its arrays) at every step of the walk.
    private let nodes: PagedArray<BuilderGraph.Node>
    private let builders: PagedArray<BuilderGraph.Builder>
    private let graph: BuilderGraph
    private let builds: [BDD.Ref]
    private let conditionVariable: [BDD.Ref]
    private let bdd: BDD

    init(semantics: Semantics) {
        self.semantics = semantics
        graph = semantics.graph
        nodes = graph.nodes
        builders = graph.builders
        builds = semantics.builds
        conditionVariable = semantics.conditionVariable
        bdd = semantics.bdd
    }

    /// Per element of `path` (element codes), the environments in which it and every
    /// element before it are built, from `root`'s body.
    func prefixes(of path: [Int], rootBody: Int) -> [BDD.Ref] {
        var frontier: Frontier = [rootBody: BDD.one]
        var built: [BDD.Ref] = []
        for code in path {
            let (next, builtHere) = step(frontier, code)
            built.append(builtHere)
            frontier = next
        }
        return built
    }

    /// The nodes whose nesting builds the next element, each with the environments in which
    /// the path so far reaches it.
    typealias Frontier = [Int: BDD.Ref]

    /// One element further: the screen nodes that build element `code` from the frontier,
    /// as the next frontier (their nestings), and the environments in which it is built.
    func step(_ frontier: Frontier, _ code: Int) -> (next: Frontier, built: BDD.Ref) {
        var next: Frontier = [:]
        var builtHere = BDD.zero
        var active = Set<Int64>()
        var found: [(Int, BDD.Ref)] = []
        for (start, environments) in frontier.sorted(by: { $0.key < $1.key }) {
            found.removeAll(keepingCapacity: true)
            yields(start, element: code, under: environments, active: &active, into: &found)
            for (node, where_) in found {
                builtHere = bdd.or(builtHere, where_)
                if case .screen(_, let nesting?) = nodes[node].kind { next[nesting] = bdd.or(next[nesting] ?? BDD.zero, where_) }
            }
        }
        return (next, builtHere)
    }

    /// The screen nodes that builder node g yields for element `code` (see `build(B, e, E)`),
    /// each with the environments, among `environments`, in which it does. A reference to a
    /// builder being evaluated for the same element (a cycle) builds nothing.
    func yields(_ g: Int, element code: Int, under environments: BDD.Ref) -> [(Int, BDD.Ref)] {
        var active = Set<Int64>()
        var found: [(Int, BDD.Ref)] = []
        yields(g, element: code, under: environments, active: &active, into: &found)
        return found
    }

    /// `yields(_:element:under:)`, appending to `found`; `active` holds the builders being
    /// evaluated, by builder and element.
    private func yields(_ g: Int, element code: Int, under environments: BDD.Ref, active: inout Set<Int64>,
                        into found: inout [(Int, BDD.Ref)]) {
        if environments == BDD.zero { return }
        switch nodes[g].kind {
        case .screen(let screen, _):
            if screen == code { found.append((g, environments)) }
        case .anyOf(let list):
            var remaining = environments
            for index in 0..<Int(list.count) {
                if remaining == BDD.zero { break }
                let branch = graph.branch(list, index)
                // A branch builds the element only where its semantics say it does: a branch
                // that never does yields nothing and takes nothing from the later ones.
                let taken = semantics.environments(builds[branch], element: code)
                if taken == BDD.zero { continue }
                yields(branch, element: code, under: remaining, active: &active, into: &found)
                remaining = bdd.andNot(remaining, taken)
            }
        case .condition(let condition, let then, let otherwise):
            let variable = conditionVariable[condition]
            yields(then, element: code, under: bdd.and(environments, variable), active: &active, into: &found)
            if let otherwise { yields(otherwise, element: code, under: bdd.andNot(environments, variable), active: &active, into: &found) }
        case .ifScreen(let screen, let then, let otherwise):
            guard let screen else { return }
            if screen == code {
                yields(then, element: code, under: environments, active: &active, into: &found)
            } else if let otherwise {
                yields(otherwise, element: code, under: environments, active: &active, into: &found)
            }
        case .wildcard(let screen, let body):
            guard let screen else { return }
            yields(body, element: screen, under: environments, active: &active, into: &found)
        case .reference(let builder):
            // (Keyed by the builder and the element: a wildcard inside it may evaluate it again
            // for another element.)
            guard let builder else { return }
            let key = Int64(builder) << 32 | Int64(code)
            guard let body = builders[builder].body, active.insert(key).inserted else { return }
            defer { active.remove(key) }
            yields(body, element: code, under: environments, active: &active, into: &found)
        case .nothing:
            return
        }
    }
}
