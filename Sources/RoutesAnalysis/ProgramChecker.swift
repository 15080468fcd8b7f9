import RoutesModel
import RoutesSyntax

/// The analyses of SPEC §5 for one program (a `root` and its imports): `unreachable-screen`,
/// `shadowed-branch`, `wildcard-mismatch`, `push-in-sheet`, `missing-dependency`,
/// `unused-declaration`. Exact over the (element, environment, way) triples that occur
/// while resolving paths: contexts are sets of (element, environment) pairs (BDDs), and
/// reachability is their fixpoint (`Flow`).
struct ProgramChecker {
    let semantics: Semantics
    private(set) var graph: BuilderGraph
    private(set) var project: Project
    let program: Program
    private(set) var diagnostics: [Diagnostic] = []

    /// Nodes of `root` and of used builders (reachable through references and nestings,
    /// ignoring conditions: SPEC §5.1). The graph is the program's: it holds exactly the
    /// nodes of the program's files, so per-node state is sized by the program.
    private(set) var used: [Bool]
    /// The builders `root` uses, directly or through other used builders.
    private var usedBuilders: BitSet
    private(set) var rootBody: Int?
    private(set) var flow: Flow
    /// The same flow in the alternative reading of uncertain leaves, when there are any.
    private var alternativeFlow: Flow? = nil

    // Warnings before "outermost cause once" filtering, by node.
    private var warnings: [(node: Int, diagnostic: Diagnostic)] = []
    private var shadowedBranches: [Int] = []
    private var mismatchedWildcards: [Int] = []
    private var unreachableNodes: [Int] = []
    /// `gainingNodes(_:)`, kept for queries (a box, so that the non-mutating query can fill it).
    private let gainingCache = Box<[ScopeItem: [Int]]>([:])
    /// `wayPredecessors()`, kept for queries.
    private var predecessorCache: Predecessors? = nil
    /// What `root` and the used builders mention by name, and what they most likely meant by
    /// an undefined name or in text the parser skipped (see `mentionedSymbols`).
    private var mentioned: BitSet
    private var guessed: BitSet
    /// Per scope item (see `itemCode`), whether no way from `root` to a node that needs it
    /// avoids every node where it is gained (so no flow was needed): kept so that the analysis
    /// after an edit elsewhere need not find it again.
    private var regionFree: [Bool] = []
    /// The names `findMissingDependencies` found needing scope items.
    private var uses: [MissingDependencyPlan.Use] = []
    /// What the previous checker of this program found about ways, and the nodes an edit
    /// resolved again, when the graph was patched (see `findMissingDependencies`).
    private var earlier: (ways: Ways, edited: Range<Int>)?

    /// What a checker found about the way graph, for the checker after an edit.
    struct Ways {
        var graph: BuilderGraph
        var used: [Bool]
        var predecessors: Predecessors?
        var regionFree: [Bool]
        var uses: [MissingDependencyPlan.Use]
    }

    var ways: Ways { Ways(graph: graph, used: used, predecessors: predecessorCache, regionFree: regionFree, uses: uses) }

    init(semantics: Semantics, program: Program, earlier: (ways: Ways, edited: Range<Int>)? = nil) {
        self.earlier = earlier
        self.semantics = semantics
        self.graph = semantics.graph
        self.project = semantics.graph.project
        self.program = program
        let graph = semantics.graph
        used = [Bool](repeating: false, count: graph.nodes.count)
        usedBuilders = BitSet(count: graph.builders.count)
        mentioned = BitSet(count: graph.declarationCount)
        guessed = BitSet(count: graph.declarationCount)
        // The graph's screens are the program's elements; when a sheet among them forbids
        // pushes, σ tracks the push context.
        let hasNoPushSheets = graph.presentations.contains(.sheetNoPush)
        let sigmaCount = hasNoPushSheets ? 2 : 1
        flow = Flow(semantics: semantics, crossNestings: true, sigmaCount: sigmaCount,
                    storage: FlowStorage(size: graph.nodes.count * sigmaCount))
        let rootDecl = project.declaration(program.root)
        rootBody = rootDecl.body.map { graph.global(program.root.file, $0) }
    }

    mutating func run() {
        defer { earlier = nil }
        guard let rootBody else { return }
        markUsed(from: rootBody)
        // What missing-dependency needs besides flows (the uses, their items, and which items
        // no way from `root` reaches a user of without gaining) reads the graph, the project
        // and the used nodes only: on a large program it is found on another core while this
        // one resolves paths (a copy of the checker plans; its methods used there touch none
        // of the checker's objects). Whichever thread takes the plan first makes it.
        let planner = UncheckedSendable(self)
        let plan = SharedWorkList(count: 1) { _ in planner.value.planMissingDependencies(from: rootBody) }
        if graph.nodes.count >= Self.nodesForConcurrentPlan { plan.start() }
        resolvePaths(from: rootBody)
        findShadowedBranches()
        findWildcardMismatches()
        findUnreachableScreens()
        findPushInSheet()
        applyOutermostCauseOnce()
        findMissingDependencies(from: rootBody, plan: plan.results()[0])
        (mentioned, guessed) = mentionedSymbols()
        findUnusedDeclarations()
        findUnplacedScreens()
    }

    // MARK: Used region

    private mutating func markUsed(from root: Int) {
        var stack = [root]
        used[root] = true
        while let g = stack.popLast() {
            func visit(_ c: Int) {
                if !used[c] {
                    used[c] = true
                    stack.append(c)
                }
            }
            graph.forEachChild(g, visit)
            switch graph.nodes[g].kind {
            case .screen(_, let nesting?): visit(nesting)
            case .reference(let b?):
                if usedBuilders.insert(b) {
                    if let body = graph.builders[b].body { visit(body) }
                }
            default: break
            }
        }
    }

    // MARK: Paths

    /// One flow from `root` over whole paths. σ tracks the push context: 0 when pushing is
    /// possible after the last non-push element, 1 after a `sheet(allowsPush: false)`.
    private mutating func resolvePaths(from root: Int) {
        let graph = self.graph
        if flow.sigmaCount == 2 {
            flow.onBuilt = { g, sigma, _ in
                guard case .screen(let code?, _) = graph.nodes[g].kind else { return sigma }
                switch graph.presentations[code] {
                case .push: return sigma
                case .sheet: return 0
                case .sheetNoPush: return 1
                }
            }
        }
        flow.add(root, semantics.allElements, from: nil)
        flow.run()
        if semantics.hasUncertainty {
            var other = Flow(semantics: semantics, crossNestings: true, sigmaCount: flow.sigmaCount,
                             storage: FlowStorage(size: graph.nodes.count * flow.sigmaCount))
            other.reading = .alternative
            other.onBuilt = flow.onBuilt
            other.add(root, semantics.allElements, from: nil)
            other.run()
            alternativeFlow = other
        }
    }

    private func location(_ g: Int, _ message: String) -> RelatedLocation {
        RelatedLocation(file: graph.nodes[g].file, range: graph.model(g).head, message: message)
    }

    /// The one message that quotes a line and column: a whitespace edit can change it.
    static let anyOfAtPhrase = "an earlier branch of the `anyOf` at "

    /// Whether a diagnostic's message quotes a line and column of the source.
    static func quotesPosition(_ d: Diagnostic) -> Bool {
        d.rule == .unreachableScreen && d.message.contains(anyOfAtPhrase)
    }

    private func position(_ g: Int) -> String {
        let file = project.files[graph.nodes[g].file]
        let p = file.text.position(of: graph.model(g).head.lowerBound, encoding: .scalars)
        return "\(p.line + 1):\(p.column + 1)"
    }

    private func headText(_ g: Int) -> String {
        project.quoted(file: graph.nodes[g].file, graph.model(g).head)
    }

    private func screenName(_ code: Int) -> String { graph.screenDeclaration(code).name.text }

    private mutating func warn(_ rule: Rule, at g: Int, _ message: String, related: [RelatedLocation] = []) {
        warnings.append((g, Diagnostic(rule, file: graph.nodes[g].file, range: graph.model(g).head,
                                       message: message, related: related)))
    }

    // MARK: shadowed-branch

    /// Branch i is shadowed when, over the pairs with which its `anyOf` is evaluated, it
    /// would build something for some, and for every such pair an earlier branch builds
    /// first (SPEC §5.1). Not reported when an unresolved name or a cycle is involved.
    private mutating func findShadowedBranches() {
        let bdd = semantics.bdd
        for g in graph.nodes.indices where used[g] {
            guard case .anyOf(let list) = graph.nodes[g].kind, list.count > 1 else { continue }
            if !flow.isEvaluated(g) { continue }
            let branches = graph.branches(list)
            for i in 1..<branches.count {
                let b = branches[i]
                // What a branch that itself meets a cycle or an unresolved name would build is
                // not known (SPEC §5.3).
                if semantics.uncertain[b] { continue }
                // Would build something for some pair of the anyOf's context, but for none
                // of the pairs that reach it (its own context is what earlier branches left);
                // in both readings of cycles and unresolved names (SPEC §5.3). The usual
                // answer, a branch that builds where it is reached, is asked first, and
                // these questions make no nodes.
                let builds = semantics.builds[b]
                guard !flow.contextMeets(b, builds), flow.contextMeets(g, builds) else { continue }
                let would = bdd.and(flow.context(g), builds)
                // An earlier branch must build first, not diverge first (a cycle builds
                // nothing; the branch is then unreachable, not shadowed).
                if !semantics.cycles.isEmpty, (0..<i).contains(where: { k in
                    let e = branches[k]
                    let diverges = bdd.andNot(semantics.builds[e], semantics.realBuilds[e])
                    return diverges != BDD.zero && bdd.intersects(bdd.and(would, flow.context(e)), diverges)
                }) { continue }
                if let other = alternativeFlow {
                    let builds = semantics.alternativeBuilds[b]
                    guard other.contextMeets(g, builds), !other.contextMeets(b, builds) else { continue }
                }
                var related: [RelatedLocation] = []
                var taken: [String] = []
                for j in 0..<i where bdd.intersects(bdd.and(would, semantics.builds[branches[j]]), flow.context(branches[j])) {
                    related.append(location(branches[j], "this earlier branch builds them first"))
                    taken.append("`\(headText(branches[j]))`")
                }
                let by = taken.count == 1 ? "by \(taken[0])" : "by earlier branches"
                warn(.shadowedBranch, at: b,
                     "this `anyOf` branch is shadowed: everything it builds here is built first \(by)",
                     related: related)
                shadowedBranches.append(b)
            }
        }
    }

    // MARK: wildcard-mismatch

    /// `wildcard W { B }` where B cannot build a W in any environment: a property of the
    /// builder itself, over all environments (SPEC §5).
    private mutating func findWildcardMismatches() {
        for g in graph.nodes.indices where used[g] {
            guard case .wildcard(let code?, let body) = graph.nodes[g].kind, !semantics.uncertain[body] else { continue }
            if semantics.environments(semantics.builds[body], element: code) == BDD.zero {
                let w = screenName(code)
                warn(.wildcardMismatch, at: g,
                     "`wildcard \(w)` builds nothing: its builder cannot build \(w) in any environment")
                mismatchedWildcards.append(g)
            }
        }
    }

    // MARK: unreachable-screen

    private mutating func findUnreachableScreens() {
        for g in graph.nodes.indices where used[g] {
            guard case .screen(let code?, _) = graph.nodes[g].kind else { continue }
            if flow.isBuilt(g) { continue }
            // It must hold however the uncertain leaves build (SPEC §5.3).
            if let other = alternativeFlow, other.isBuilt(g) { continue }
            let (why, related) = unreachableReason(g, code)
            warn(.unreachableScreen, at: g, "`screen \(screenName(code))` is never built: \(why)", related: related)
            unreachableNodes.append(g)
        }
    }

    /// Why no path builds node g: the innermost decision on the way that rules it out.
    private func unreachableReason(_ g: Int, _ code: Int) -> (String, [RelatedLocation]) {
        let bdd = semantics.bdd
        let name = screenName(code)
        let evaluated = flow.isEvaluated(g)
        // An enclosing `wildcard W` or `if screen T` that fixes the element explains it best.
        var inner = g
        var outer = graph.nodes[g].parent
        while let p = outer {
            switch graph.nodes[p].kind {
            case .wildcard(let w?, _) where w != code:
                let wn = screenName(w)
                return ("it is inside `wildcard \(wn)`, where the element is always \(wn)",
                        [location(p, "the element is replaced by \(wn) here")])
            case .ifScreen(let t?, let then, _) where then == inner && t != code:
                let tn = screenName(t)
                return ("it is inside `if screen \(tn)`, where the element is always \(tn)",
                        [location(p, "the element is \(tn) here")])
            case .ifScreen(let t?, _, let els?) where els == inner && t == code:
                return ("it is in the else branch of `if screen \(name)`, which \(name) never takes",
                        [location(p, "\(name) takes the then-branch here")])
            default:
                break
            }
            inner = p
            outer = graph.nodes[p].parent
        }
        var child = g
        var parent = graph.nodes[g].parent
        while let p = parent {
            let pContext = flow.context(p)
            let childContext = flow.context(child)
            switch graph.nodes[p].kind {
            case .anyOf(let list) where pContext != BDD.zero:
                let branches = graph.branches(list)
                let i = branches.firstIndex(of: child) ?? 0
                if i > 0 {
                    let mine = bdd.and(pContext, semantics.elementIs[code])
                    if mine != BDD.zero && bdd.and(childContext, semantics.elementIs[code]) == BDD.zero {
                        var related: [RelatedLocation] = []
                        for j in 0..<i where bdd.and(bdd.and(mine, semantics.builds[branches[j]]), flow.context(branches[j])) != BDD.zero {
                            related.append(location(branches[j], "builds \(name) first"))
                        }
                        return (Self.anyOfAtPhrase + "\(position(p)) always builds \(name) first", related)
                    }
                }
            case .condition(let c, let then, _) where pContext != BDD.zero && childContext == BDD.zero:
                let head = headText(p)
                let value = then == child ? "false" : "true"
                let what: String
                if case .symbol = graph.conditions[c] {
                    what = head.hasPrefix("if let") ? (value == "false" ? "absent" : "present") : value
                } else {
                    what = value
                }
                return ("`\(head)` is always \(what) where it is evaluated: the conditions on the way contradict each other",
                        [location(p, "decided here")])
            default:
                break
            }
            // Where the element still reaches p but not the child, the cause is here (and not
            // explained above); where it does not reach p either, it was taken higher up.
            if !evaluated && bdd.and(pContext, semantics.elementIs[code]) != BDD.zero { break }
            child = p
            parent = graph.nodes[p].parent
        }
        let top = graph.bodyTop(g)
        if let owner = semantics.bodyOwner[top], !flow.isEvaluated(top) {
            return ("builder `\(graph.builders[owner].name)` is never evaluated where it is used", [])
        }
        return ("no path under any environment builds it here", [])
    }

    // MARK: push-in-sheet

    /// A `push` screen that can be built, but only after a `sheet(allowsPush: false)` as the
    /// last non-push element (SPEC §5.1).
    private mutating func findPushInSheet() {
        guard flow.sigmaCount == 2 else { return }
        for g in graph.nodes.indices where used[g] {
            guard case .screen(let code?, _) = graph.nodes[g].kind,
                  graph.presentations[code] == .push else { continue }
            guard flow.builtEnvironments(g, sigma: 0) == BDD.zero,
                  flow.builtEnvironments(g, sigma: 1) != BDD.zero else { continue }
            // It must hold however the uncertain leaves build (SPEC §5.3).
            if let other = alternativeFlow, other.builtEnvironments(g, sigma: 0) != BDD.zero
                || other.builtEnvironments(g, sigma: 1) == BDD.zero { continue }
            // The sheet: the last non-push screen node on a way to g.
            var related: [RelatedLocation] = []
            var sheetName = "a sheet"
            let way = flow.way(to: g, sigma: 1)
            for w in way.dropLast().reversed() {
                if case .screen(let c?, _) = graph.nodes[w].kind, graph.presentations[c] != .push {
                    sheetName = "`\(screenName(c))`"
                    related.append(location(w, "`\(screenName(c))` is presented here with `allowsPush: false`"))
                    break
                }
            }
            warn(.pushInSheet, at: g,
                 "`\(screenName(code))` is pushed, but on every path that builds it, it follows \(sheetName), a sheet that does not allow pushes",
                 related: related)
        }
    }

    // MARK: Outermost cause once

    /// No warning inside a shadowed branch, a mismatched wildcard or an unreachable node's
    /// nesting, nor in a named builder all of whose references lie inside such places.
    private mutating func applyOutermostCauseOnce() {
        // Only warnings are filtered: with none, there is nothing to find out.
        if warnings.isEmpty { return }
        var inside = [Bool](repeating: false, count: graph.nodes.count)
        func markSubtree(_ root: Int) {
            var stack = [root]
            while let g = stack.popLast() {
                if inside[g] { continue }
                inside[g] = true
                graph.forEachChild(g) { stack.append($0) }
                if case .screen(_, let nesting?) = graph.nodes[g].kind { stack.append(nesting) }
            }
        }
        let shadowed = Set(shadowedBranches)
        for b in shadowedBranches {
            for c in graph.children(b) { markSubtree(c) }
            if case .screen(_, let nesting?) = graph.nodes[b].kind { markSubtree(nesting) }
        }
        for w in mismatchedWildcards { for c in graph.children(w) { markSubtree(c) } }
        for u in unreachableNodes {
            if case .screen(_, let nesting?) = graph.nodes[u].kind { markSubtree(nesting) }
        }
        // Builders referenced only from inside such places, or from each other, are inside
        // too: the greatest set of used builders none of whose references is live.
        var references: [Int: [Int]] = [:]
        for g in graph.nodes.indices where used[g] {
            if case .reference(let b?) = graph.nodes[g].kind { references[b, default: []].append(g) }
        }
        let usedInOrder = usedBuilders.members
        var candidate = usedBuilders
        var changed = true
        while changed {
            changed = false
            for b in usedInOrder where candidate.contains(b) {
                let live = references[b, default: []].contains { r in
                    if inside[r] || shadowed.contains(r) { return false }
                    if let owner = lexicalBuilder(r), candidate.contains(owner) { return false }
                    return true
                }
                if live {
                    candidate.remove(b)
                    changed = true
                }
            }
        }
        for b in usedInOrder where candidate.contains(b) {
            if let body = graph.builders[b].body { markSubtree(body) }
        }
        // A shadowed branch is reported as such, not again as an unreachable node.
        for (g, d) in warnings where !inside[g] {
            if d.rule != .shadowedBranch && shadowed.contains(g) { continue }
            diagnostics.append(d)
        }
        warnings.removeAll()
    }

    /// The named builder whose body lexically contains g (through nestings), if any.
    private func lexicalBuilder(_ g: Int) -> Int? {
        var top = graph.bodyTop(g)
        var steps = 0
        while let owner = semantics.nestingOwner[top], steps < graph.nodes.count {
            top = graph.bodyTop(owner)
            steps += 1
        }
        return semantics.bodyOwner[top]
    }

    // MARK: missing-dependency

    enum ScopeItem: Hashable {
        /// A `from P` provider: in scope after an element built by a `screen P` node.
        case provider(Int)
        /// An optional: in scope inside the then-branch of `if let o`.
        case optional(Int)
    }

    /// A scope item as a number: a provider's screen code, or the screens' count plus an
    /// optional's condition variable.
    private func itemCode(_ item: ScopeItem) -> Int {
        switch item {
        case .provider(let p): return p
        case .optional(let c): return graph.screens.count + c
        }
    }

    private func item(ofCode code: Int) -> ScopeItem {
        code < graph.screens.count ? .provider(code) : .optional(code - graph.screens.count)
    }

    /// A `uses d` needs d in scope on every way its node is built (SPEC §5.2). Per scope item,
    /// one flow of the ways on which the item is NOT in scope (scope is never lost along a
    /// way, so those ways stop where it is gained), restricted to the nodes that can lead to
    /// a user. Most items need no flow: no way from `root` reaches a user without passing
    /// where the item is gained. Plain arrays indexed by item and node throughout: a program
    /// has hundreds of items and thousands of uses, and none of them usually fails.
    /// The part of `findMissingDependencies` that needs no flow (see `MissingDependencyPlan`):
    /// reads the graph, the project, `used` and `earlier`, and changes nothing.
    func planMissingDependencies(from root: Int) -> MissingDependencyPlan {
        let itemCount = graph.screens.count + graph.conditions.count
        var uses: [MissingDependencyPlan.Use] = []
        // Per declaration used (by number): its items, found once (-2: not yet; -1: none).
        var itemsOf = [(Int32, Int32)](repeating: (-2, -2), count: graph.declarationCount)
        for g in graph.nodes.indices where used[g] {
            switch graph.nodes[g].kind {
            case .screen(_?, _):
                for u in graph.useRange(g) {
                    let t = graph.useTargets[u]
                    guard t.number >= 0, !t.guessed else { continue }
                    let number = Int(t.number)
                    if itemsOf[number].0 == -2 {
                        let items = scopeItems(graph.declarationSymbols[number]) ?? []
                        itemsOf[number] = (items.count > 0 ? Int32(itemCode(items[0])) : -1,
                                           items.count > 1 ? Int32(itemCode(items[1])) : -1)
                    }
                    let (x, y) = itemsOf[number]
                    if x >= 0 || y >= 0 {
                        uses.append(MissingDependencyPlan.Use(node: Int32(g), use: Int32(u), number: Int32(number), first: x, second: y))
                    }
                }
            case .condition(let v, _, _) where graph.nodes[g].testsOptional:
                guard case .symbol(let s) = graph.conditions[v], project.kind(of: s) == .optional,
                      let p = provider(of: s) else { continue }
                uses.append(MissingDependencyPlan.Use(node: Int32(g), use: -1, number: Int32(graph.declarationNumber(s)), first: Int32(p), second: -1))
            default:
                break
            }
        }
        var plan = MissingDependencyPlan(uses: uses, regionFree: [Bool](repeating: false, count: itemCount))
        if uses.isEmpty { return plan }

        // The users of each item, in node order, each once: users[userStart[i]..<userStart[i + 1]].
        var userStart = [Int32](repeating: 0, count: itemCount + 1)
        for u in uses {
            if u.first >= 0 { userStart[Int(u.first) + 1] += 1 }
            if u.second >= 0 { userStart[Int(u.second) + 1] += 1 }
        }
        for i in 0..<itemCount { userStart[i + 1] += userStart[i] }
        var next = userStart
        var users = [Int32](repeating: -1, count: Int(userStart[itemCount]))
        func addUser(_ node: Int32, of item: Int32) {
            guard item >= 0 else { return }
            let i = Int(item)
            // A node using two names that need the same item is its user once.
            if next[i] > userStart[i] && users[Int(next[i]) - 1] == node { return }
            users[Int(next[i])] = node
            next[i] += 1
        }
        for u in uses {
            addUser(u.node, of: u.first)
            addUser(u.node, of: u.second)
        }
        let userEnd = next

        // After an edit that left every edge of the way graph and the used region as they were,
        // an item whose users and gaining nodes the edit did not touch has the region it had.
        let carried = carriedRegions(itemCount: itemCount, uses: uses)
        let predecessors = carried?.predecessors ?? wayPredecessors()
        plan.predecessors = predecessors
        let region = Region(count: graph.nodes.count)
        var popped: [Int32] = []
        for i in 0..<itemCount where userEnd[i] > userStart[i] {
            if let carried, !carried.touched[i], carried.free[i] {
                plan.regionFree[i] = true
                continue
            }
            let mine = users[Int(userStart[i])..<Int(userEnd[i])]
            // The region leaves out the edges that gain the item (a flow without it stops
            // there): when no way from `root` to a user avoids them, no flow is needed.
            fillBackwardRegion(region, from: mine, predecessors, gaining: i, popped: &popped)
            if region.contains(root) {
                plan.needFlows.append((i, Array(mine)))
            } else {
                plan.regionFree[i] = true
            }
        }
        return plan
    }

    /// A `uses d` needs d in scope on every way its node is built (SPEC §5.2): the flows of
    /// the items `plan` found some way to a user of that does not gain them, and the
    /// diagnostics.
    private mutating func findMissingDependencies(from root: Int, plan: MissingDependencyPlan) {
        regionFree = plan.regionFree
        uses = plan.uses
        guard let predecessors = plan.predecessors else { return }
        predecessorCache = predecessors
        let storage = FlowStorage(size: graph.nodes.count)
        let region = Region(count: graph.nodes.count)
        var popped: [Int32] = []
        // A way that lacks an item, per (item, user) that has one: few, so a dictionary.
        var failures: [Int: [Int]] = [:]
        for (i, mine) in plan.needFlows {
            fillBackwardRegion(region, from: mine[...], predecessors, gaining: i, popped: &popped)
            recordBranches(region, popped)
            let flow = waysWithout(item(ofCode: i), root: root, storage: storage, region: region)
            for n in mine where isReached(Int(n), in: flow) {
                failures[i * graph.nodes.count + Int(n)] = flow.way(to: Int(n))
            }
        }
        if failures.isEmpty { return }

        for u in uses {
            let g = Int(u.node)
            let ways = [u.first, u.second].map { $0 >= 0 ? failures[Int($0) * graph.nodes.count + g] : nil }
            guard ways.contains(where: { $0 != nil }) else { continue }
            let name: Name
            let model = graph.model(g)
            switch model.kind {
            case .screen(_, let names, _): name = names[Int(u.use - graph.useStart[g])]
            case .ifLet(let n?, _, _): name = n
            default: continue
            }
            var reasons: [String] = []
            var wayNode: Int? = nil
            for (item, way) in zip([u.first, u.second], ways) {
                guard let way else { continue }
                if wayNode == nil {
                    wayNode = way.first { if case .reference = graph.nodes[$0].kind { return true } else { return false } }
                }
                switch self.item(ofCode: Int(item)) {
                case .provider(let p):
                    reasons.append("it is provided by `\(screenName(p))`, and a way reaches this point with no \(screenName(p)) before it")
                case .optional:
                    reasons.append("it is optional, and a way reaches this point outside `if let \(name.text)`")
                }
            }
            let target: String
            if case .screen(let code?, _) = graph.nodes[g].kind {
                target = "`\(screenName(code))` is built"
            } else {
                target = "`\(headText(g))` is evaluated"
            }
            var related: [RelatedLocation] = []
            if let w = wayNode { related.append(location(w, "a way without `\(name.text)` in scope passes here")) }
            let symbol = graph.declarationSymbols[Int(u.number)]
            related.append(RelatedLocation(file: symbol.file, range: project.declaration(symbol).name.range, message: "`\(name.text)` is declared here"))
            diagnostics.append(Diagnostic(
                .missingDependency, file: graph.nodes[g].file, range: name.range,
                message: "`\(name.text)` is not in scope on every way \(target): \(reasons.joined(separator: "; also "))",
                related: related))
        }
    }

    /// What `findMissingDependencies` may take from the checker before an edit (`earlier`):
    /// nil unless the edit resolved nodes of a builder or `root` again (an edit of a
    /// dependency's `from` changes what its users need, and has no nodes) and left every edge
    /// of the way graph and the used region as they were. Then the way predecessors are the
    /// earlier ones with the edited nodes' gains made again, and an item keeps the region it
    /// had unless the edited nodes needed or gained it, before or now (`touched`).
    private func carriedRegions(itemCount: Int, uses: [MissingDependencyPlan.Use]) -> (predecessors: Predecessors, touched: [Bool], free: [Bool])? {
        guard let (old, edited) = earlier, !edited.isEmpty, edited.upperBound <= graph.nodes.count,
              var predecessors = old.predecessors, old.regionFree.count == itemCount,
              old.graph.nodes.count == graph.nodes.count, old.used == used else { return nil }
        var touched = [Bool](repeating: false, count: itemCount)
        func touch(_ code: Int32) { if code >= 0 { touched[Int(code)] = true } }
        for g in edited {
            guard Self.sameEdges(g, old.graph, graph) else { return nil }
            touch(predecessors.gained[g])
            predecessors.gained[g] = -1
            predecessors.gainedAt[g] = -1
            guard used[g], let item = Self.gainedItem(at: g, in: graph) else { continue }
            switch graph.nodes[g].kind {
            case .screen(_, let nesting?): predecessors.gainedAt[g] = Int32(nesting)
            case .condition(_, let then, _): predecessors.gainedAt[g] = Int32(then)
            default: continue
            }
            predecessors.gained[g] = Int32(itemCode(item))
            touch(predecessors.gained[g])
        }
        for list in [old.uses, uses] {
            for n in list where edited.contains(Int(n.node)) {
                touch(n.first)
                touch(n.second)
            }
        }
        return (predecessors, touched, old.regionFree)
    }

    /// Whether node g has the same way-graph edges (children, nesting, referenced body) in
    /// both graphs.
    private static func sameEdges(_ g: Int, _ a: BuilderGraph, _ b: BuilderGraph) -> Bool {
        func successors(_ graph: BuilderGraph) -> (children: [Int], extra: Int) {
            var children: [Int] = []
            graph.forEachChild(g) { children.append($0) }
            switch graph.nodes[g].kind {
            case .screen(_, let nesting): return (children, nesting ?? -1)
            case .reference(let t?): return (children, graph.builders[t].body ?? -1)
            default: return (children, -1)
            }
        }
        let x = successors(a), y = successors(b)
        return x.children == y.children && x.extra == y.extra
    }

    /// A way from `root` on which `item` is not in scope when node g is built (a screen
    /// node) or evaluated (an `if let`), or nil when there is none (SPEC §5.2).
    /// `region` must hold the nodes that lead to g (see `fillRegion(_:leadingTo:)`).
    func wayWithout(_ item: ScopeItem, at g: Int, storage: FlowStorage, region: Region) -> [Int]? {
        guard let root = rootBody, used[g] else { return nil }
        // No node that would put the item in scope lies on any way to g: every way that
        // builds g lacks it, so the main flow answers (no flow of its own needed).
        if !gainingNodes(item).contains(where: { region.contains($0) }) {
            return isReached(g, in: flow) ? flow.way(to: g) : nil
        }
        let flow = waysWithout(item, root: root, storage: storage, region: region, target: g)
        return isReached(g, in: flow) ? flow.way(to: g) : nil
    }

    /// The ways (within `region`) on which `item` is not in scope. Scope is never lost
    /// along a way, so a way stops where it gains it: after a `screen P` node is built for
    /// a provider, at the then-branch of `if let o` for an optional.
    /// With a `target`, the flow stops once it reaches it (one way is all that is asked).
    private func waysWithout(_ item: ScopeItem, root: Int, storage: FlowStorage, region: Region, target: Int? = nil) -> Flow {
        var flow = Flow(semantics: semantics, crossNestings: true, storage: storage)
        flow.region = region
        flow.target = target
        let graph = self.graph
        // Where the item is gained, the way with it stops: a built `screen P` starts no
        // nesting, an `if let o` enters no then-branch.
        flow.onBuilt = { n, sigma, _ in Self.gainedItem(at: n, in: graph) == item ? nil : sigma }
        flow.entersThen = { n in Self.gainedItem(at: n, in: graph) != item }
        flow.add(root, semantics.allElements, from: nil)
        flow.run()
        return flow
    }

    /// Whether a flow reaches node g: a screen node built, any other node evaluated.
    private func isReached(_ g: Int, in flow: Flow) -> Bool {
        if case .screen = graph.nodes[g].kind { return flow.isBuilt(g) }
        return flow.isEvaluated(g)
    }

    /// The scope item a way gains at node n, if any: the provider P at a `screen P` node
    /// (in scope in its nesting), the optional o at an `if let o` node (in scope in its
    /// then-branch). The one definition of where scope is gained.
    static func gainedItem(at n: Int, in graph: BuilderGraph) -> ScopeItem? {
        switch graph.nodes[n].kind {
        case .screen(let c?, _):
            return .provider(c)
        case .condition(let v, _, _):
            return graph.nodes[n].testsOptional ? .optional(v) : nil
        default:
            return nil
        }
    }

    /// The nodes at which a way gains a scope item (see `gainedItem(at:in:)`).
    private func gainingNodes(_ item: ScopeItem) -> [Int] {
        if gainingCache.value.isEmpty {
            // Every item's nodes in one pass over the graph (a completion asks for hundreds).
            var all: [ScopeItem: [Int]] = [:]
            for g in graph.nodes.indices where used[g] {
                if let gained = Self.gainedItem(at: g, in: graph) { all[gained, default: []].append(g) }
            }
            all[.provider(-1)] = []  // never empty again, even for a program without such nodes
            gainingCache.value = all
        }
        return gainingCache.value[item] ?? []
    }

    /// Points the checker at the project after a trivia edit (same structure, moved
    /// positions): its results do not depend on positions.
    /// With `edit`, its diagnostics move with an edit inside one comment, whitespace run or
    /// unanalysed part of `file` (positions are all that changed).
    mutating func rebase(onto newProject: Project, graph newGraph: BuilderGraph, moving edit: (TriviaEdit, FileID)? = nil) {
        project = newProject
        graph = newGraph
        if let (e, file) = edit { diagnostics = diagnostics.map { $0.shifted(e, in: file) } }
    }

    /// Fills `region` with the nodes from which a way leads to g.
    mutating func fillRegion(_ region: Region, leadingTo g: Int) {
        if predecessorCache == nil { predecessorCache = wayPredecessors() }
        var popped: [Int32] = []
        fillBackwardRegion(region, from: [Int32(g)][...], predecessorCache!, popped: &popped)
        recordBranches(region, popped)
    }

    /// The scope items a dependency or optional needs, or nil when it is always in scope.
    func scopeItems(_ s: Symbol) -> [ScopeItem]? {
        let kind = project.kind(of: s)
        guard kind == .dependency || kind == .optional else { return nil }
        var items: [ScopeItem] = []
        if kind == .optional, let c = graph.conditionIndex[s] { items.append(.optional(c)) }
        if let p = provider(of: s) { items.append(.provider(p)) }
        return items.isEmpty ? nil : items
    }

    /// The screen code of the `from P` of dependency or optional s, when P is a screen.
    private func provider(of s: Symbol) -> Int? {
        guard let from = project.fromName(of: s),
              let p = project.resolve(from, in: s.file), project.kind(of: p) == .screen else { return nil }
        return graph.screenCode[p]
    }

    /// Edges of the way graph, reversed: parent → child, reference → body, screen → nesting
    /// (the predecessors of node s are `edges.neighbors(s)`). With, per node, the item a way
    /// gains there (`gainedItem(at:in:)` as a code, -1 for none) and the node where it is then
    /// in scope (its nesting or then-branch).
    struct Predecessors {
        var edges: Adjacency
        var gained: [Int32]
        var gainedAt: [Int32]
    }

    private func wayPredecessors() -> Predecessors {
        func forEachEdge(_ body: (_ from: Int, _ to: Int) -> Void) {
            for g in graph.nodes.indices where used[g] {
                graph.forEachChild(g) { body(g, $0) }
                switch graph.nodes[g].kind {
                case .screen(_, let nesting?): body(g, nesting)
                case .reference(let b?): if let target = graph.builders[b].body { body(g, target) }
                default: break
                }
            }
        }
        let count = graph.nodes.count
        var start = [Int32](repeating: 0, count: count + 1)
        forEachEdge { _, to in start[to + 1] += 1 }
        for s in 0..<count { start[s + 1] += start[s] }
        var next = start
        var sources = [Int32](repeating: 0, count: Int(start[count]))
        forEachEdge { from, to in
            sources[Int(next[to])] = Int32(from)
            next[to] += 1
        }
        var gained = [Int32](repeating: -1, count: count)
        var gainedAt = [Int32](repeating: -1, count: count)
        for g in 0..<count where used[g] {
            guard let item = Self.gainedItem(at: g, in: graph) else { continue }
            switch graph.nodes[g].kind {
            case .screen(_, let nesting?): gainedAt[g] = Int32(nesting)
            case .condition(_, let then, _): gainedAt[g] = Int32(then)
            default: continue
            }
            gained[g] = Int32(itemCode(item))
        }
        return Predecessors(edges: Adjacency(start: start, targets: sources), gained: gained, gainedAt: gainedAt)
    }

    /// The nodes from which some user can be reached on a way (so the flow for an item
    /// visits nothing else). With `gaining` (an item code), not through the edges where a
    /// way gains that item (a built `screen P`'s nesting for a provider, the then-branch of
    /// `if let o` for an optional): the ways a flow without the item can take. `popped` gets
    /// the region's nodes in the order they were visited (see `recordBranches`).
    private func fillBackwardRegion(_ region: Region, from nodes: ArraySlice<Int32>, _ preds: Predecessors,
                                    gaining item: Int = -1, popped: inout [Int32]) {
        region.reset()
        popped.removeAll(keepingCapacity: true)
        var stack: [Int32] = []
        for n in nodes where region.insert(Int(n)) { stack.append(n) }
        let code = Int32(truncatingIfNeeded: item)
        while let g32 = stack.popLast() {
            popped.append(g32)
            for p32 in preds.edges.neighbors(Int(g32)) {
                let p = Int(p32)
                if item >= 0 && preds.gained[p] == code && preds.gainedAt[p] == g32 { continue }
                if region.insert(p) { stack.append(p32) }
            }
        }
    }

    /// Records in `region` the in-region branches of each `anyOf` (so that a flow through a
    /// small region never walks a huge `anyOf`), from its nodes in visiting order: the
    /// branches of an `anyOf` come in the order the walk reached them.
    private func recordBranches(_ region: Region, _ popped: [Int32]) {
        for g32 in popped {
            let g = Int(g32)
            guard let p = graph.nodes[g].parent, case .anyOf = graph.nodes[p].kind else { continue }
            region.addBranch(graph.nodes[g].indexInParent, of: p)
        }
    }

    // MARK: unused-declaration

    /// A dependency, optional, flag or builder that neither `root` nor a used builder
    /// mentions (SPEC §5.1).
    private mutating func findUnusedDeclarations() {
        let mentioned = mentioned
        for f in program.files {
            // By index, reading a declaration whole only to report it.
            for i in project.files[f].model.declarations.indices {
                let s = Symbol(file: f, declaration: i)
                let kind = project.kind(of: s)
                guard kind == .dependency || kind == .optional || kind == .flag || kind == .builder,
                      !mentioned.contains(graph.declarationNumber(s)), !guessed.contains(graph.declarationNumber(s)) else { continue }
                guard !isDuplicate(s) else { continue }
                let d = project.declaration(s)
                switch d.kind {
                case .dependency, .optional, .flag:
                    diagnostics.append(Diagnostic(.unusedDeclaration, file: f, range: d.name.range,
                                                  message: "\(d.kind.rawValue) `\(d.name.text)` is never used"))
                case .builder:
                    if let b = graph.builderIndex[s], !usedBuilders.contains(b) {
                        diagnostics.append(Diagnostic(.unusedDeclaration, file: f, range: d.name.range,
                                                      message: "builder `\(d.name.text)` is never used: nothing reachable from `root` refers to it"))
                    }
                default:
                    break
                }
            }
        }
    }

    /// What `root` and the used builders mention. A name of the wrong kind still mentions
    /// its declaration, and an undefined name mentions the declaration it was most likely
    /// meant to be (the suggestion of its `undefined-name`), so that a typo is one error,
    /// not also an unused or unplaced warning (SPEC §5.3).
    private func mentionedSymbols() -> (resolved: BitSet, guessed: BitSet) {
        var mentioned = BitSet(count: graph.declarationCount)
        var guessed = BitSet(count: graph.declarationCount)
        // The files with a used node, in file order.
        let usedFiles = graph.files.files.filter { f in
            let first = graph.firstNode(of: f)
            return used[first..<(first + graph.fileNodeCount(f))].contains(true)
        }
        for f in usedFiles {
            let model = project.files[f].model
            // The names the used nodes mention (a declaration's `from` is not a use here). An
            // undefined name mentions what its `undefined-name` suggests, found by the project.
            let guesses = project.guesses[f]
            func mention(_ name: Name) {
                if let s = project.resolve(name, in: f) {
                    mentioned.insert(graph.declarationNumber(s))
                } else if let s = guesses[name.range.lowerBound] {
                    guessed.insert(graph.declarationNumber(s))
                }
            }
            // The graph knows what a resolved name of the right kind means, and what each name
            // of a `uses` list resolves to or suggests; the model is read for the names the
            // graph left unresolved.
            func mentionFromModel(_ local: Int) {
                switch model.nodes[local].kind {
                case .screen(let s?, _, _):
                    mention(s)
                case .conditional(let n?, _, _), .ifLet(let n?, _, _), .ifScreen(let n?, _, _), .wildcard(let n?, _),
                     .reference(let n):
                    mention(n)
                default:
                    break
                }
            }
            let first = graph.firstNode(of: f)
            for g in first..<(first + graph.fileNodeCount(f)) where used[g] {
                let symbol: Symbol?
                switch graph.nodes[g].kind {
                case .screen(let code, _):
                    for u in graph.useRange(g) {
                        let t = graph.useTargets[u]
                        if t.number < 0 { continue }
                        if t.guessed { guessed.insert(Int(t.number)) } else { mentioned.insert(Int(t.number)) }
                    }
                    symbol = code.map { graph.screens[$0] }
                case .condition(let c, _, _):
                    if case .symbol(let s) = graph.conditions[c] { symbol = s } else { symbol = nil }
                case .ifScreen(let code?, _, _), .wildcard(let code?, _):
                    symbol = graph.screens[code]
                case .reference(let b?):
                    symbol = graph.builders[b].symbol
                case .anyOf, .nothing:
                    continue
                default:
                    symbol = nil
                }
                if let symbol { mentioned.insert(graph.declarationNumber(symbol)) } else { mentionFromModel(g - first) }
            }
        }
        // A name in text the parser skipped was meant to be somewhere: what it names is not
        // reported as unused or never placed for a syntax error's sake (`uses a b`, a second
        // builder in a block, a block past the nesting limit).
        for f in graph.files.files {
            let skipped = project.files[f].model.skippedNames
            if skipped.isEmpty { continue }
            let scope = project.scopes[f]
            for name in skipped {
                if let s = scope[name] { guessed.insert(graph.declarationNumber(s)) }
            }
        }
        return (mentioned, guessed)
    }

    /// A later declaration of a name already declared in this program (reported as
    /// `duplicate-declaration`; nothing refers to it).
    private func isDuplicate(_ s: Symbol) -> Bool {
        project.scopes[program.root.file][project.files[s.file].model.declarations[s.declaration].name.text] != s
    }

    // MARK: unreachable-screen (declarations)

    /// A declared screen that no `screen S` node of `root` or a used builder places.
    private mutating func findUnplacedScreens() {
        var placed = BitSet(count: graph.screens.count)
        for g in graph.nodes.indices where used[g] {
            if case .screen(let code?, _) = graph.nodes[g].kind { placed.insert(code) }
        }
        // The graph's screens are the program's, in file and declaration order.
        for code in graph.screens.indices where !placed.contains(code) {
            let s = graph.screens[code]
            guard !isDuplicate(s) else { continue }
            // A screen some used node meant to place, under a misspelt name.
            if guessed.contains(graph.declarationNumber(s)) && !mentioned.contains(graph.declarationNumber(s)) { continue }
            let name = project.declaration(s).name
            diagnostics.append(Diagnostic(.unreachableScreen, file: s.file, range: name.range,
                                          message: "screen `\(name.text)` is never placed in the routing tree: no `screen \(name.text)` in `root` or a builder it uses"))
        }
    }

}

/// A mutable cell shared by copies of a value.
final class Box<T> {
    var value: T
    init(_ value: T) { self.value = value }
}

/// What `ProgramChecker.findMissingDependencies` needs before its flows, found without any:
/// the names that need scope items, the way predecessors, which items no way from `root`
/// reaches a user of without passing where the item is gained (`regionFree`), and the
/// items some way may reach a user of without it, with their users (`needFlows`).
struct MissingDependencyPlan: Sendable {
    /// A name that needs scope items: `uses` entry `use` of node g (an index into the
    /// graph's `useTargets`), or the name of the `if let` g (`use` -1); its one or two items
    /// (codes, -1 for none).
    struct Use: Sendable {
        var node: Int32
        var use: Int32
        var number: Int32
        var first: Int32
        var second: Int32
    }

    var uses: [Use]
    var regionFree: [Bool]
    var predecessors: ProgramChecker.Predecessors? = nil
    var needFlows: [(item: Int, users: [Int32])] = []
}

extension ProgramChecker {
    /// The smallest program whose missing-dependency plan is made on another core: below it,
    /// waking a thread costs more than the plan (a 10k-line program has about 4,500 nodes).
    static let nodesForConcurrentPlan = 16_384
}

/// A value handed to another thread whose use there is known to be safe (see its use).
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
