/// Under which environments each prefix of a path is built, exactly: the build semantics
/// (docs/language.md#how-a-path-is-built) followed over every environment at once, with
/// decision diagrams. For each element, the screen nodes that build it and the environments
/// in which each does; the next element is built by their nestings, in those environments.
struct PathCondition {
    let semantics: Semantics
    private var graph: BuilderGraph { semantics.graph }
    private var bdd: BDD { semantics.bdd }

    init(semantics: Semantics) { self.semantics = semantics }

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
        for (start, environments) in frontier.sorted(by: { $0.key < $1.key }) {
            var active = Set<Int64>()
            for (node, where_) in yields(start, element: code, under: environments, active: &active) {
                builtHere = bdd.or(builtHere, where_)
                if case .screen(_, let nesting?) = graph.nodes[node].kind { next[nesting] = bdd.or(next[nesting] ?? BDD.zero, where_) }
            }
        }
        return (next, builtHere)
    }

    /// The screen nodes that builder node g yields for element `code` (see `build(B, e, E)`),
    /// each with the environments, among `environments`, in which it does. A reference to a
    /// builder being evaluated for the same element (a cycle) builds nothing.
    func yields(_ g: Int, element code: Int, under environments: BDD.Ref, active: inout Set<Int64>) -> [(Int, BDD.Ref)] {
        if environments == BDD.zero { return [] }
        switch graph.nodes[g].kind {
        case .screen(let screen, _):
            return screen == code ? [(g, environments)] : []
        case .anyOf(let list):
            var remaining = environments
            var out: [(Int, BDD.Ref)] = []
            for branch in graph.branches(list) {
                if remaining == BDD.zero { break }
                out += yields(branch, element: code, under: remaining, active: &active)
                remaining = bdd.andNot(remaining, semantics.environments(semantics.builds[branch], element: code))
            }
            return out
        case .condition(let condition, let then, let otherwise):
            let variable = semantics.conditionVariable[condition]
            var out = yields(then, element: code, under: bdd.and(environments, variable), active: &active)
            if let otherwise { out += yields(otherwise, element: code, under: bdd.andNot(environments, variable), active: &active) }
            return out
        case .ifScreen(let screen, let then, let otherwise):
            guard let screen else { return [] }
            if screen == code { return yields(then, element: code, under: environments, active: &active) }
            return otherwise.map { yields($0, element: code, under: environments, active: &active) } ?? []
        case .wildcard(let screen, let body):
            guard let screen else { return [] }
            return yields(body, element: screen, under: environments, active: &active)
        case .reference(let builder):
            // (Keyed by the builder and the element: a wildcard inside it may evaluate it again
            // for another element.)
            guard let builder else { return [] }
            let key = Int64(builder) << 32 | Int64(code)
            guard let body = graph.builders[builder].body, active.insert(key).inserted else { return [] }
            defer { active.remove(key) }
            return yields(body, element: code, under: environments, active: &active)
        case .nothing:
            return []
        }
    }
}
