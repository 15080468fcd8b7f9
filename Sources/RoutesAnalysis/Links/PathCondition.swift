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
    private let uncertain: [Bool]
    /// The manager the walk works in: the semantics's, or a copy of it for a walk on another
    /// thread (see `ProgramLinks.following(_:pending:)`).
    let bdd: BDD

    /// Per `anyOf` node with many branches, which branches may build which element (see
    /// `BranchIndex`), made when a path first reaches it.
    private let indexes = BranchIndexes()
    /// What `step` works in, kept from step to step (a path's steps are thousands for a
    /// program's links; each made its own table and list).
    private let room = StepRoom()

    /// The `anyOf`s with more branches than this are indexed (`BranchIndex`).
    private let indexedAbove: Int32

    /// A walk over `semantics`, in its manager or in `manager` (a copy of it); `indexingAbove`
    /// branches, an `anyOf`'s branches are indexed by the elements they may build (tests
    /// compare both walks).
    init(semantics: Semantics, in manager: BDD? = nil, indexingAbove: Int32 = BranchIndex.fewestBranches) {
        indexedAbove = indexingAbove
        self.semantics = semantics
        graph = semantics.graph
        nodes = graph.nodes
        builders = graph.builders
        builds = semantics.builds
        conditionVariable = semantics.conditionVariable
        // (What depends on an unresolved builder name, a syntax hole or a cycle: not on a
        // misspelt screen, which builds nothing, nor on an unknown condition, read both ways.)
        uncertain = semantics.hasUncertainty
            ? semantics.dependents(of: semantics.uncertainLeaves + semantics.cyclicReferences,
                                   builders: semantics.cyclic.indices.filter { semantics.cyclic[$0] }).nodes.flags
            : []
        bdd = manager ?? semantics.bdd
    }

    /// Per element of `path` (element codes), the environments in which it and every
    /// element before it are built, from `root`'s body.
    func prefixes(of path: [Int], rootBody: Int) -> [BDD.Ref] {
        var frontier: Frontier = [(rootBody, BDD.one)]
        var built: [BDD.Ref] = []
        for code in path {
            let (next, builtHere, _, _) = step(frontier, code)
            built.append(builtHere)
            frontier = next
        }
        return built
    }

    /// The nodes whose nesting builds the next element, each with the environments in which
    /// the path so far reaches it.
    /// In increasing order of node, each node once (a frontier holds a few: a list, not a
    /// table).
    typealias Frontier = [(node: Int, environments: BDD.Ref)]

    /// One element further: the screen nodes that build element `code` from the frontier,
    /// as the next frontier (their nestings), and the environments in which it is built.
    /// `uncertain`: whether the step evaluated a node whose build involves an unresolved
    /// builder name, a syntax hole or a builder cycle, so that what it found depends on how
    /// those are read; `misspelt`: whether it passed an undeclared screen whose suggestion
    /// is the element, which may be the node meant to build it.
    func step(_ frontier: Frontier, _ code: Int) -> (next: Frontier, built: BDD.Ref, uncertain: Bool, misspelt: Bool) {
        room.touchedUncertain = false
        room.passedMisspelt = false
        var next: Frontier = []
        var builtHere = BDD.zero
        // (Taken from the room, and given back emptied: `yields` removes what it adds to
        // `active`.)
        var active = room.active
        var found = room.found
        room.active = []
        room.found = []
        defer {
            assert(active.isEmpty, "a builder left marked as being evaluated")
            found.removeAll(keepingCapacity: true)
            room.active = active
            room.found = found
        }
        // Where each node is in `next`, once it holds more than a few.
        var positions: [Int: Int]? = nil
        for (start, environments) in frontier {
            found.removeAll(keepingCapacity: true)
            yields(start, element: code, under: environments, active: &active, into: &found)
            for (node, where_) in found {
                builtHere = bdd.or(builtHere, where_)
                guard case .screen(_, let nesting?) = nodes[node].kind else { continue }
                let known = positions.map { $0[nesting] } ?? next.firstIndex { $0.node == nesting }
                if let at = known {
                    next[at].environments = bdd.or(next[at].environments, where_)
                } else {
                    next.append((nesting, bdd.or(BDD.zero, where_)))
                    if positions != nil {
                        positions?[nesting] = next.count - 1
                    } else if next.count > 16 {
                        positions = Dictionary(uniqueKeysWithValues: next.indices.map { (next[$0].node, $0) })
                    }
                }
            }
        }
        if next.count > 1 { next.sort { $0.node < $1.node } }
        return (next, builtHere, room.touchedUncertain, room.passedMisspelt)
    }

    /// Whether g, a screen node of an undeclared screen, is the element `code` misspelt:
    /// its name's suggestion (the one its `undefined-name` error makes) is that screen.
    private func misspells(_ g: Int, _ code: Int) -> Bool {
        let node = nodes[g]
        let project = graph.project
        guard case .screen(let name?, _, _) = project.files[node.file].model.nodes[Int(node.local)].kind,
              let guess = project.guesses[node.file][name.range.lowerBound] else { return false }
        return graph.screenCode(guess) == code
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
        if !uncertain.isEmpty && uncertain[g] { room.touchedUncertain = true }
        switch nodes[g].kind {
        case .screen(let screen, _):
            if screen == code { found.append((g, environments)) }
            if screen == nil && misspells(g, code) { room.passedMisspelt = true }
        case .anyOf(let list):
            var remaining = environments
            // The indexed branches that may build the element, else every branch (a few:
            // walked by position, without a list of them).
            let candidates = list.count > indexedAbove ? branchIndex(g, list).positions(building: code) : nil
            let count = candidates?.count ?? Int(list.count)
            for step in 0..<count {
                if remaining == BDD.zero { break }
                let position = candidates?[step] ?? step
                let branch = graph.branch(list, position)
                // A branch builds the element only where its semantics say it does: a branch
                // that never does yields nothing and takes nothing from the later ones.
                let taken = semantics.environments(builds[branch], element: code, in: bdd)
                if taken == BDD.zero { continue }
                yields(branch, element: code, under: remaining, active: &active, into: &found)
                remaining = bdd.andNot(remaining, taken)
            }
            // Where no branch builds the element, a branch of an undeclared screen may be the
            // one meant (it builds nothing, so the loop passed it by).
            if remaining != BDD.zero && (0..<Int(list.count)).contains(where: {
                let branch = graph.branch(list, $0)
                if case .screen(nil, _) = nodes[branch].kind { return misspells(branch, code) }
                return false
            }) {
                room.passedMisspelt = true
            }
        case .condition(let condition, let then, let otherwise):
            let variable = conditionVariable[condition]
            yields(then, element: code, under: bdd.and(environments, variable), active: &active, into: &found)
            if let otherwise { yields(otherwise, element: code, under: bdd.andNot(environments, variable), active: &active, into: &found) }
        case .ifScreen(let screen, let then, let otherwise):
            guard let screen else {
                // An undeclared screen's test (reported): what it builds is unknown.
                room.touchedUncertain = true
                return
            }
            if screen == code {
                yields(then, element: code, under: environments, active: &active, into: &found)
            } else if let otherwise {
                yields(otherwise, element: code, under: environments, active: &active, into: &found)
            }
        case .wildcard(let screen, let body):
            guard let screen else {
                room.touchedUncertain = true
                return
            }
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

    // MARK: Branches that may build an element

    /// The branches of one `anyOf` by the elements they may build without building another
    /// first (their first screens): an element's branches are the only ones whose semantics
    /// can build it, so the others are skipped without asking the decision diagrams.
    struct BranchIndex {
        /// Below this many branches, every branch is asked.
        static let fewestBranches: Int32 = 8
        /// A branch that may build more elements than this is asked for every element.
        static let mostScreens = 64
        /// Per element code, the positions of the branches that may build it, in order.
        var byCode: [Int: [Int]] = [:]
        /// The positions of the branches that may build any element (a wildcard, a reference
        /// cycle, many screens), in order.
        var everyCode: [Int] = []

        /// The positions of the branches that may build element `code`, in order.
        func positions(building code: Int) -> [Int] {
            let mine = byCode[code] ?? []
            if everyCode.isEmpty { return mine }
            if mine.isEmpty { return everyCode }
            return (mine + everyCode).sorted()
        }
    }

    /// The table and list `step` works in (see `room`).
    final class StepRoom: @unchecked Sendable {
        // (Used by the one thread that follows the paths, as the analysis that holds it.)
        var active = Set<Int64>()
        var found: [(Int, BDD.Ref)] = []
        /// Whether the step under way evaluated a node whose build involves an unresolved
        /// builder name, a syntax hole or a builder cycle (see `init`).
        var touchedUncertain = false
        /// Whether it passed an undeclared screen whose suggestion is the element: the
        /// element misspelt, where the step may have failed for that alone.
        var passedMisspelt = false
    }

    final class BranchIndexes: @unchecked Sendable {
        // (Used by the one thread that follows the paths, as the analysis that holds it.)
        var byNode: [Int: BranchIndex] = [:]
    }

    private func branchIndex(_ g: Int, _ list: BuilderGraph.Branches) -> BranchIndex {
        if let known = indexes.byNode[g] { return known }
        var index = BranchIndex()
        for position in 0..<Int(list.count) {
            var codes = Set<Int>()
            var active = Set<Int>()
            if firstScreens(graph.branch(list, position), into: &codes, active: &active) && codes.count <= BranchIndex.mostScreens {
                for code in codes { index.byCode[code, default: []].append(position) }
            } else {
                index.everyCode.append(position)
            }
        }
        indexes.byNode[g] = index
        return index
    }

    /// Adds to `codes` the elements node g may build without building another first; false
    /// when that may be any element: a wildcard, a reference to a builder being read, too
    /// many, or an uncertain leaf (a reference on a builder cycle, which the semantics reads
    /// as building everything; an unresolved name).
    private func firstScreens(_ g: Int, into codes: inout Set<Int>, active: inout Set<Int>) -> Bool {
        if codes.count > BranchIndex.mostScreens { return false }
        if semantics.hasUncertainty && semantics.isUncertainLeaf(g) { return false }
        switch nodes[g].kind {
        case .screen(let screen, _):
            if let screen { codes.insert(screen) }
            return true
        case .anyOf(let list):
            for position in 0..<Int(list.count) where !firstScreens(graph.branch(list, position), into: &codes, active: &active) {
                return false
            }
            return true
        case .condition(_, let then, let otherwise):
            return firstScreens(then, into: &codes, active: &active)
                && (otherwise.map { firstScreens($0, into: &codes, active: &active) } ?? true)
        case .ifScreen(let screen, let then, let otherwise):
            guard screen != nil else { return true }
            return firstScreens(then, into: &codes, active: &active)
                && (otherwise.map { firstScreens($0, into: &codes, active: &active) } ?? true)
        case .wildcard:
            return false
        case .reference(let builder):
            guard let builder, let body = builders[builder].body else { return true }
            guard active.insert(builder).inserted else { return false }
            defer { active.remove(builder) }
            return firstScreens(body, into: &codes, active: &active)
        case .nothing:
            return true
        }
    }
}
