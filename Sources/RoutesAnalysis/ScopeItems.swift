import RoutesModel
import RoutesSyntax

/// The scope-item engine: which names need which items, the way graph reversed (with where
/// each item is gained), the regions from which a way can reach a user without gaining its
/// item, the flows of the ways that lack an item, and what of all this an analysis after an
/// edit may keep. Read by `MissingDependency` and by the editor's scope questions
/// (completion, hover).
///
/// Scope is never lost along a way, so the ways on which an item is NOT in scope are a flow
/// that stops where the item is gained (a built `screen P` starts no nesting, an `if let o`
/// enters no then-branch), restricted to the nodes that can lead to a user. Most items need no
/// flow: no way from `root` reaches a user without passing where the item is gained. Plain
/// arrays indexed by item and node throughout: a program has hundreds of items and thousands
/// of uses, and none of them usually fails.
/// The engine keeps no facts of its own: each question is asked with the program's facts
/// (an analysis moved over an edit of whitespace updates those alone).
final class ScopeItems {
    /// The names the plan found needing scope items.
    private(set) var uses: [MissingDependencyPlan.Use] = []
    /// Per scope item code, whether no way from `root` to a node that needs it avoids every
    /// node where it is gained (so no flow was needed): kept so that the analysis after an
    /// edit elsewhere need not find it again.
    private(set) var regionFree: [Bool] = []
    /// The items the plan found needing flows (see `MissingDependencyPlan.flowItems`).
    private var flowItems: [Int]? = nil
    /// Whether the adopted plan was carried over an edit (tests).
    private(set) var planCarried = false
    /// `wayPredecessors`, once made (the plan makes it; a scope question otherwise).
    private var predecessors: Predecessors? = nil
    /// The nodes at which each item is gained, once asked (a completion asks for hundreds).
    private var gaining: [ScopeItem: [Int]]? = nil

    init() {}

    /// Takes what the plan found (see `MissingDependencyPlan`).
    func adopt(_ plan: MissingDependencyPlan) {
        uses = plan.uses
        regionFree = plan.regionFree
        flowItems = plan.flowItems
        planCarried = plan.carried
        if let found = plan.predecessors { predecessors = found }
    }

    /// What the engine found about the way graph, for the analysis after an edit.
    func ways(_ facts: ProgramFacts) -> Ways {
        Ways(graph: facts.graph, used: facts.used, predecessors: predecessors, regionFree: regionFree, uses: uses,
             flowItems: flowItems)
    }

    /// What a program's analysis found about ways, and the state of the graph it was found on.
    struct Ways {
        var graph: BuilderGraph
        var used: [Bool]
        var predecessors: Predecessors?
        var regionFree: [Bool]
        var uses: [MissingDependencyPlan.Use]
        /// The items that needed flows (nil before a plan was adopted).
        var flowItems: [Int]?
    }

    // MARK: Items

    static func code(_ item: ScopeItem, in graph: BuilderGraph) -> ScopeItemCode {
        switch item {
        case .provider(let providerCode): ScopeItemCode(raw: Int32(providerCode))
        case .optional(let condition): ScopeItemCode(raw: Int32(graph.screens.count + condition))
        }
    }

    static func item(_ code: ScopeItemCode, in graph: BuilderGraph) -> ScopeItem {
        code.index < graph.screens.count ? .provider(code.index) : .optional(code.index - graph.screens.count)
    }

    /// The scope items a dependency or optional needs, or nil when it is always in scope.
    static func items(of s: Symbol, graph: BuilderGraph) -> [ScopeItem]? {
        let project = graph.project
        let kind = project.kind(of: s)
        guard kind == .dependency || kind == .optional else { return nil }
        var items: [ScopeItem] = []
        if kind == .optional, let condition = graph.conditionIndex(s) { items.append(.optional(condition)) }
        if let provider = provider(of: s, graph: graph) { items.append(.provider(provider)) }
        return items.isEmpty ? nil : items
    }

    func items(of s: Symbol, _ facts: ProgramFacts) -> [ScopeItem]? { Self.items(of: s, graph: facts.graph) }

    /// The screen code of the `from P` of dependency or optional s, when P is a screen.
    static func provider(of s: Symbol, graph: BuilderGraph) -> Int? {
        let project = graph.project
        guard let from = project.fromName(of: s),
              let screen = project.resolve(from, in: s.file), project.kind(of: screen) == .screen else { return nil }
        return graph.screenCode(screen)
    }

    /// The scope item a way gains at node g, if any: the provider P at a `screen P` node
    /// (in scope in its nesting), the optional o at an `if let o` node (in scope in its
    /// then-branch). The one definition of where scope is gained. An `if let` of a misspelt
    /// optional (`if let detailStor`) gains the optional its `undefined-name` error suggests,
    /// so that the one mistake is not also a `missing-dependency` at each use inside it.
    static func gainedItem(at g: Int, in graph: BuilderGraph) -> ScopeItem? {
        switch graph.nodes[g].kind {
        case .screen(let code?, _):
            return .provider(code)
        case .condition(let condition, _, _):
            guard graph.nodes[g].testsOptional else { return nil }
            if case .unknown = graph.conditions[condition], let mention = graph.unresolvedMention(g) {
                let meant = graph.declarationSymbol(Int(mention.number))
                if graph.project.kind(of: meant) == .optional, let index = graph.conditionIndex(meant) { return .optional(index) }
            }
            return .optional(condition)
        default:
            return nil
        }
    }

    /// The nodes at which a way gains a scope item (see `gainedItem(at:in:)`).
    private func gainingNodes(_ item: ScopeItem, _ facts: ProgramFacts) -> [Int] {
        if gaining == nil {
            // Every item's nodes in one pass over the graph.
            var all: [ScopeItem: [Int]] = [:]
            for g in facts.graph.nodes.indices where facts.used[g] {
                if let gained = Self.gainedItem(at: g, in: facts.graph) { all[gained, default: []].append(g) }
            }
            gaining = all
        }
        return gaining?[item] ?? []
    }

    // MARK: The plan

    /// The part of `MissingDependency` that needs no flow (see `MissingDependencyPlan`): reads
    /// the graph, the project, the used region and `earlier` only, so that a large program
    /// makes it on another core while its paths are resolved.
    static func plan(graph: BuilderGraph, used: [Bool], rootBody root: Int,
                     earlier: (ways: Ways, edited: EditedNodes)?) -> MissingDependencyPlan {
        if let plan = carriedPlan(graph: graph, used: used, rootBody: root, earlier: earlier) { return plan }
        let itemCount = graph.screens.count + graph.conditions.count
        // Per declaration used (by number): its one or two items, found once.
        var itemsOf = [(ScopeItemCode, ScopeItemCode)?](repeating: nil, count: graph.declarationCount)
        let uses = collectUses(graph.nodes.indices, used: used, graph) { number in
            if let known = itemsOf[number] { return known }
            let codes = itemCodes(of: number, graph)
            itemsOf[number] = codes
            return codes
        }
        var plan = MissingDependencyPlan(uses: uses, regionFree: [Bool](repeating: false, count: itemCount))
        if uses.isEmpty { return plan }

        // The users of each item, in node order, each once: users[userStart[i]..<userStart[i + 1]].
        var userStart = [Int32](repeating: 0, count: itemCount + 1)
        for need in uses {
            if !need.first.isNone { userStart[need.first.index + 1] += 1 }
            if !need.second.isNone { userStart[need.second.index + 1] += 1 }
        }
        for i in 0..<itemCount { userStart[i + 1] += userStart[i] }
        var next = userStart
        var users = [Int32](repeating: -1, count: Int(userStart[itemCount]))
        func addUser(_ node: Int32, of item: ScopeItemCode) {
            guard !item.isNone else { return }
            let i = item.index
            // A node using two names that need the same item is its user once.
            if next[i] > userStart[i] && users[Int(next[i]) - 1] == node { return }
            users[Int(next[i])] = node
            next[i] += 1
        }
        for need in uses {
            addUser(need.node, of: need.first)
            addUser(need.node, of: need.second)
        }
        let userEnd = next

        // After an edit that left every edge of the way graph and the used region as they were,
        // an item whose users and gaining nodes the edit did not touch has the region it had.
        var editedUses: [MissingDependencyPlan.Use] = []
        if let (old, edited) = earlier {
            for list in [old.uses, uses] { for need in list where edited.contains(Int(need.node)) { editedUses.append(need) } }
        }
        let carried = carriedRegions(graph: graph, used: used, earlier: earlier, itemCount: itemCount, editedUses: editedUses)
        let predecessors = carried?.predecessors ?? wayPredecessors(graph: graph, used: used)
        plan.predecessors = predecessors
        let region = Region(count: graph.nodes.count)
        var popped: [Int32] = []
        for i in 0..<itemCount where userEnd[i] > userStart[i] {
            if let carried, !carried.touched[i], carried.free[i] {
                plan.regionFree[i] = true
                continue
            }
            let mine = users[Int(userStart[i])..<Int(userEnd[i])]
            plan.decide(item: i, users: mine, root: root, predecessors, region: region, popped: &popped)
        }
        return plan
    }

    /// The names of the used nodes among `nodes` that need scope items, in order; `items`
    /// gives a used declaration's item codes (by number).
    private static func collectUses(_ nodes: some Sequence<Int>, used: [Bool], _ graph: BuilderGraph,
                                    items: (Int) -> (ScopeItemCode, ScopeItemCode)) -> [MissingDependencyPlan.Use] {
        var uses: [MissingDependencyPlan.Use] = []
        for g in nodes where used[g] {
            switch graph.nodes[g].kind {
            case .screen(_?, _):
                let range = graph.useRange(g)
                for use in range {
                    let target = graph.useTargets[use]
                    guard target.number >= 0, !target.guessed else { continue }
                    // A name listed twice is one entry, at its first place.
                    if range.lowerBound < use, graph.useTargets[range.lowerBound..<use].contains(where: { $0.number == target.number && !$0.guessed }) { continue }
                    let (first, second) = items(Int(target.number))
                    if !first.isNone || !second.isNone {
                        uses.append(MissingDependencyPlan.Use(node: Int32(g), use: Int32(use), number: target.number, first: first, second: second))
                    }
                }
            case .condition(let condition, _, _) where graph.nodes[g].testsOptional:
                guard case .symbol(let s) = graph.conditions[condition], graph.project.kind(of: s) == .optional,
                      let provider = provider(of: s, graph: graph) else { continue }
                uses.append(MissingDependencyPlan.Use(node: Int32(g), use: -1, number: Int32(graph.declarationNumber(s)),
                                                      first: ScopeItemCode(raw: Int32(provider)), second: .none))
            default:
                break
            }
        }
        return uses
    }

    /// The one or two item codes of the declaration numbered `number` (`none` for none).
    private static func itemCodes(of number: Int, _ graph: BuilderGraph) -> (ScopeItemCode, ScopeItemCode) {
        let items = Self.items(of: graph.declarationSymbol(number), graph: graph) ?? []
        return (items.count > 0 ? code(items[0], in: graph) : .none, items.count > 1 ? code(items[1], in: graph) : .none)
    }

    /// The plan after an edit over a patched graph, when the way graph's edges and the used
    /// region are as they were: the earlier names with those of the nodes the edit resolved
    /// again made again, and the regions of the items those nodes need or gain, before or now,
    /// and of the items that needed flows, found again. Every other item keeps its region.
    /// Every other node's names are as they were (they were not resolved again). A rename may
    /// change the items a declaration needs (its `from` names the renamed screen), and so what
    /// the names of nodes that were not resolved again need: then, and when the earlier plan
    /// is unknown, nil (the plan is made whole). Only a declaration of a file that sees the
    /// renamed one can change so.
    private static func carriedPlan(graph: BuilderGraph, used: [Bool], rootBody root: Int,
                                    earlier: (ways: Ways, edited: EditedNodes)?) -> MissingDependencyPlan? {
        guard let (old, edited) = earlier, let flowItems = old.flowItems, old.graph.nodes.count == graph.nodes.count,
              old.graph.declarationCount == graph.declarationCount else { return nil }
        // The runs in order, each node once (a renamed declaration's run lies in its file's).
        var runs: [Range<Int>] = []
        for run in edited.runs.sorted(by: { $0.lowerBound < $1.lowerBound }) where !run.isEmpty {
            if let last = runs.last, run.lowerBound <= last.upperBound {
                runs[runs.count - 1] = last.lowerBound..<max(last.upperBound, run.upperBound)
            } else {
                runs.append(run)
            }
        }
        if !edited.namesKept {
            for f in edited.files where graph.files.contains(f) {
                let first = graph.declarationNumber(Symbol(file: f, declaration: 0))
                for i in graph.project.files[f].model.declarations.indices {
                    guard itemCodes(of: first + i, graph) == itemCodes(of: first + i, old.graph) else { return nil }
                }
            }
        }
        let fresh = runs.map { collectUses($0, used: used, graph) { itemCodes(of: $0, graph) } }
        let itemCount = graph.screens.count + graph.conditions.count
        // The earlier entries are in node order: each run's are one stretch of them.
        func firstEntry(atOrAfter node: Int) -> Int {
            var (lo, hi) = (0, old.uses.count)
            while lo < hi {
                let mid = (lo + hi) / 2
                if Int(old.uses[mid].node) < node { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        let replaced = runs.map { firstEntry(atOrAfter: $0.lowerBound)..<firstEntry(atOrAfter: $0.upperBound) }
        var editedUses: [MissingDependencyPlan.Use] = []
        for (runIndex, earlierRange) in replaced.enumerated() { editedUses += old.uses[earlierRange] + fresh[runIndex] }
        guard let carried = carriedRegions(graph: graph, used: used, earlier: earlier, itemCount: itemCount, editedUses: editedUses)
        else { return nil }
        var uses: [MissingDependencyPlan.Use]
        if runs.count == 1 {
            uses = old.uses
            uses.replaceSubrange(replaced[0], with: fresh[0])
        } else {
            uses = []
            uses.reserveCapacity(old.uses.count + fresh.reduce(0) { $0 + $1.count })
            var at = 0
            for (runIndex, earlierRange) in replaced.enumerated() {
                uses += old.uses[at..<earlierRange.lowerBound]
                uses += fresh[runIndex]
                at = earlierRange.upperBound
            }
            uses += old.uses[at...]
        }

        var plan = MissingDependencyPlan(uses: uses, regionFree: carried.free)
        plan.predecessors = carried.predecessors
        plan.carried = true
        plan.flowItems = []
        // The items to decide again, with their users (in node order, each once).
        var again = Set(flowItems)
        for i in carried.touched.indices where carried.touched[i] { again.insert(i) }
        if again.isEmpty { return plan }
        // Each item to decide again has a slot; one pass over the names finds their users.
        let decided = again.sorted()
        var slot = [Int32](repeating: -1, count: itemCount)
        for (slotIndex, item) in decided.enumerated() {
            plan.regionFree[item] = false
            slot[item] = Int32(slotIndex)
        }
        var users = [[Int32]](repeating: [], count: decided.count)
        for need in uses {
            for item in [need.first, need.second] where !item.isNone {
                let itemSlot = Int(slot[item.index])
                if itemSlot >= 0 && users[itemSlot].last != need.node { users[itemSlot].append(need.node) }
            }
        }
        let region = Region(count: graph.nodes.count)
        var popped: [Int32] = []
        for (slotIndex, item) in decided.enumerated() where !users[slotIndex].isEmpty {
            plan.decide(item: item, users: users[slotIndex][...], root: root, carried.predecessors, region: region, popped: &popped)
        }
        return plan
    }

    /// What the plan may take from the analysis before an edit (`earlier`): nil unless the
    /// edit resolved nodes of a builder or `root` again (an edit of a dependency's `from`
    /// changes what its users need, and has no nodes) and left every edge of the way graph and
    /// the used region as they were. Then the way predecessors are the earlier ones with the
    /// edited nodes' gains made again, and an item keeps the region it had unless the edited
    /// nodes needed or gained it, before or now (`touched`; `editedUses` are the edited nodes' names
    /// that need items, before and after the edit).
    private static func carriedRegions(graph: BuilderGraph, used: [Bool], earlier: (ways: Ways, edited: EditedNodes)?,
                                       itemCount: Int, editedUses: [MissingDependencyPlan.Use])
        -> (predecessors: Predecessors, touched: [Bool], free: [Bool])? {
        guard let (old, edited) = earlier, !edited.isEmpty, edited.upperBound <= graph.nodes.count,
              var predecessors = old.predecessors, old.regionFree.count == itemCount,
              old.graph.nodes.count == graph.nodes.count, old.used == used else { return nil }
        var touched = [Bool](repeating: false, count: itemCount)
        func touch(_ code: ScopeItemCode) { if !code.isNone { touched[code.index] = true } }
        for g in edited {
            guard graph.sameEdges(g, as: old.graph) else { return nil }
            touch(predecessors.gained[g])
            predecessors.gained[g] = .none
            predecessors.gainedAt[g] = -1
            guard used[g], let item = gainedItem(at: g, in: graph) else { continue }
            switch graph.nodes[g].kind {
            case .screen(_, let nesting?): predecessors.gainedAt[g] = Int32(nesting)
            case .condition(_, let then, _): predecessors.gainedAt[g] = Int32(then)
            default: continue
            }
            predecessors.gained[g] = code(item, in: graph)
            touch(predecessors.gained[g])
        }
        for need in editedUses {
            touch(need.first)
            touch(need.second)
        }
        return (predecessors, touched, old.regionFree)
    }

    // MARK: Ways

    /// For each item some way may reach a user of without it (`plan.needFlows`), the flow of
    /// those ways; per failing (item, user), the way (node ids, outermost first).
    func failures(_ plan: MissingDependencyPlan, _ facts: ProgramFacts) -> [Int: [Int]] {
        guard let predecessors = plan.predecessors, let root = facts.rootBody else { return [:] }
        let graph = facts.graph
        let storage = FlowStorage(size: graph.nodes.count)
        let region = Region(count: graph.nodes.count)
        var popped: [Int32] = []
        var failures: [Int: [Int]] = [:]
        for (item, mine) in plan.needFlows {
            Self.fillBackwardRegion(region, from: mine[...], predecessors, gaining: ScopeItemCode(raw: Int32(item)), popped: &popped)
            Self.recordBranches(region, popped, graph)
            let flow = Self.waysWithout(Self.item(ScopeItemCode(raw: Int32(item)), in: graph), root: root, storage: storage, region: region, facts)
            for user in mine where facts.isReached(Int(user), in: flow) {
                failures[item * graph.nodes.count + Int(user)] = flow.way(to: Int(user))
            }
        }
        return failures
    }

    /// A way from `root` on which `item` is not in scope when node g is built (a screen
    /// node) or evaluated (an `if let`), or nil when there is none. `region` must hold the
    /// nodes that lead to g (see `fillRegion(_:leadingTo:)`).
    func wayWithout(_ item: ScopeItem, at g: Int, storage: FlowStorage, region: Region, _ facts: ProgramFacts) -> [Int]? {
        guard let root = facts.rootBody, facts.used[g] else { return nil }
        // No node that would put the item in scope lies on any way to g: every way that
        // builds g lacks it, so the main flow answers (no flow of its own needed).
        if !gainingNodes(item, facts).contains(where: { region.contains($0) }) {
            return facts.isReached(g, in: facts.flow) ? facts.way(to: g) : nil
        }
        let flow = Self.waysWithout(item, root: root, storage: storage, region: region, target: g, facts)
        return facts.isReached(g, in: flow) ? flow.way(to: g) : nil
    }

    /// The ways (within `region`) on which `item` is not in scope. Scope is never lost
    /// along a way, so a way stops where it gains it: after a `screen P` node is built for
    /// a provider, at the then-branch of `if let o` for an optional.
    /// With a `target`, the flow stops once it reaches it (one way is all that is asked).
    private static func waysWithout(_ item: ScopeItem, root: Int, storage: FlowStorage, region: Region, target: Int? = nil,
                                    _ facts: ProgramFacts) -> Flow {
        let semantics = facts.semantics
        var flow = Flow(semantics: semantics, crossNestings: true, storage: storage)
        flow.region = region
        flow.target = target
        let graph = facts.graph
        flow.onBuilt = { g, sigma, _ in gainedItem(at: g, in: graph) == item ? nil : sigma }
        flow.entersThen = { g in gainedItem(at: g, in: graph) != item }
        flow.add(root, semantics.allElements, from: nil)
        flow.run()
        return flow
    }

    /// Fills `region` with the nodes from which a way leads to g.
    func fillRegion(_ region: Region, leadingTo g: Int, _ facts: ProgramFacts) {
        if predecessors == nil { predecessors = Self.wayPredecessors(graph: facts.graph, used: facts.used) }
        var popped: [Int32] = []
        Self.fillBackwardRegion(region, from: [Int32(g)][...], predecessors!, popped: &popped)
        Self.recordBranches(region, popped, facts.graph)
    }

    // MARK: The way graph

    /// Edges of the way graph, reversed: parent → child, reference → body, screen → nesting
    /// (the predecessors of node s are `edges.neighbors(s)`). With, per node, the item a way
    /// gains there (`gainedItem(at:in:)` as a code) and the node where it is then in scope (its
    /// nesting or then-branch, -1 for none).
    struct Predecessors {
        var edges: Adjacency
        var gained: [ScopeItemCode]
        var gainedAt: [Int32]
    }

    private static func wayPredecessors(graph: BuilderGraph, used: [Bool]) -> Predecessors {
        func forEachEdge(_ body: (_ from: Int, _ to: Int) -> Void) {
            for g in graph.nodes.indices where used[g] {
                graph.forEachChild(g) { body(g, $0) }
                switch graph.nodes[g].kind {
                case .screen(_, let nesting?): body(g, nesting)
                case .reference(let builder?): if let target = graph.builders[builder].body { body(g, target) }
                default: break
                }
            }
        }
        let count = graph.nodes.count
        var start = [Int32](repeating: 0, count: count + 1)
        forEachEdge { _, to in start[to + 1] += 1 }
        for i in 0..<count { start[i + 1] += start[i] }
        var next = start
        var sources = [Int32](repeating: 0, count: Int(start[count]))
        forEachEdge { from, to in
            sources[Int(next[to])] = Int32(from)
            next[to] += 1
        }
        var gained = [ScopeItemCode](repeating: .none, count: count)
        var gainedAt = [Int32](repeating: -1, count: count)
        for g in 0..<count where used[g] {
            guard let item = gainedItem(at: g, in: graph) else { continue }
            switch graph.nodes[g].kind {
            case .screen(_, let nesting?): gainedAt[g] = Int32(nesting)
            case .condition(_, let then, _): gainedAt[g] = Int32(then)
            default: continue
            }
            gained[g] = code(item, in: graph)
        }
        return Predecessors(edges: Adjacency(start: start, targets: sources), gained: gained, gainedAt: gainedAt)
    }

    /// The nodes from which some user can be reached on a way (so the flow for an item
    /// visits nothing else). With `gaining`, not through the edges where a way gains that item
    /// (a built `screen P`'s nesting for a provider, the then-branch of `if let o` for an
    /// optional): the ways a flow without the item can take. `popped` gets the region's nodes
    /// in the order they were visited (see `recordBranches`).
    static func fillBackwardRegion(_ region: Region, from nodes: ArraySlice<Int32>, _ preds: Predecessors,
                                           gaining item: ScopeItemCode = .none, popped: inout [Int32]) {
        region.reset()
        popped.removeAll(keepingCapacity: true)
        var stack: [Int32] = []
        for node in nodes where region.insert(Int(node)) { stack.append(node) }
        while let g32 = stack.popLast() {
            popped.append(g32)
            for predecessor32 in preds.edges.neighbors(Int(g32)) {
                let predecessor = Int(predecessor32)
                if !item.isNone && preds.gained[predecessor] == item && preds.gainedAt[predecessor] == g32 { continue }
                if region.insert(predecessor) { stack.append(predecessor32) }
            }
        }
    }

    /// Records in `region` the in-region branches of each `anyOf` (so that a flow through a
    /// small region never walks a huge `anyOf`), from its nodes in visiting order: the
    /// branches of an `anyOf` come in the order the walk reached them.
    private static func recordBranches(_ region: Region, _ popped: [Int32], _ graph: BuilderGraph) {
        for g32 in popped {
            let g = Int(g32)
            guard let parent = graph.nodes[g].parent, case .anyOf = graph.nodes[parent].kind else { continue }
            region.addBranch(graph.nodes[g].indexInParent, of: parent)
        }
    }
}
