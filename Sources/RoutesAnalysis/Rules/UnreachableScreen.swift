import RoutesModel
import RoutesSyntax

/// `unreachable-screen`: a `screen S` node of a used builder (or `root`) that no path under
/// any environment resolves through, with the reason; or a declared screen that no `screen S`
/// node of `root` or a used builder places.
enum UnreachableScreen: PerNodeRule, DeclarationRule {
    static let id = RuleID("unreachable-screen")
    static let severity = Severity.warning
    static let category = RuleCategory.routing
    static let summary = "A screen node, or a declared screen, that no path under any environment reaches."
    static let documentation = RuleDocumentation(
        what: """
            A `screen S` node in `root` or a builder it uses that no path builds, under any \
            environment: it sits after a branch that always takes its elements, under \
            `if screen T` with T ≠ S, under a condition that contradicts an enclosing one, \
            under a `wildcard` of another screen, or after a node that is itself never \
            reached. The message says which. A declared screen that no `screen S` node of \
            `root` or a used builder places is reported at its declaration ("never placed").
            """,
        why: """
            The screen never appears where it is written: a deep link or a tap that should \
            show it shows the screen before it, or nothing.
            """,
        example: """
            screen Home
            screen Settings
            flag isLoggedIn
            root {
              conditional isLoggedIn {
                conditional isLoggedIn { screen Home } else { screen Settings }
              } else { empty }
            }
            """,
        fix: """
            Remove the decision that rules it out (here the inner test repeats the outer one), \
            move the node where its element can reach it, or delete it; place a declared \
            screen in the tree or delete its declaration.
            """)

    /// Why no path builds a node: the innermost decision on the way that rules it out.
    enum Reason {
        /// Inside `wildcard W` (at the node), where the element is always a W.
        case insideWildcard(GraphNode, ScreenCode)
        /// Inside the then-branch of `if screen T` (at the node).
        case insideIfScreen(GraphNode, ScreenCode)
        /// In the else branch of `if screen S` for the same screen.
        case inElseOfIfScreen(GraphNode)
        /// An earlier branch of the `anyOf` always builds the screen first.
        case takenByEarlierBranches(anyOf: GraphNode, branches: [GraphNode])
        /// A condition on the way is always decided the other way where it is evaluated.
        case contradiction(GraphNode, value: String)
        /// The builder the node is in is never evaluated where it is used.
        case builderNeverEvaluated(String)
        /// A condition on the way is evaluated with the screen only where it decides the other
        /// way (an earlier branch took the screen where it would go this way).
        case decidedOtherwise(GraphNode, value: String)
        /// The builder the node is in is used only where the screen cannot reach it: why, at
        /// the first of its uses (a reference node) whose walk up finds a reason.
        indirect case usedWhereItCannotReach(builder: String, reference: GraphNode, Reason)
        case noPath
    }

    enum Finding {
        case node(GraphNode, screen: ScreenCode, Reason)
        /// A declared screen never placed in the tree.
        case neverPlaced(Symbol)
    }

    // MARK: Nodes

    static func node(of finding: Finding) -> Int? {
        if case .node(let g, _, _) = finding { return g.index }
        return nil
    }

    /// The nesting of a node never built is never evaluated: nothing there is reported again.
    static var cause: OutermostCause.Covered { .nesting }

    /// Node g's finding, if it is an unreachable screen node. Whether it is one depends on
    /// its own states only; the reason, on the nodes above it and their earlier branches.
    static func finding(at g: Int, _ facts: ProgramFacts) -> Finding? {
        guard facts.used[g], case .screen(let code?, _) = facts.graph.nodes[g].kind else { return nil }
        if facts.flow.isBuilt(g) { return nil }
        if let other = facts.alternativeFlow, other.isBuilt(g) { return nil }
        return .node(GraphNode(g), screen: ScreenCode(code), reason(g, code, facts))
    }

    /// Why no path builds node g's screen (element `code`) there.
    private static func reason(_ g: Int, _ code: Int, _ facts: ProgramFacts) -> Reason {
        var followed = Set<Int>()
        return reason(g, code, facts, followed: &followed)
    }

    /// The same, following the uses of the builders not in `followed` (those whose uses were
    /// looked at already: what a use says does not depend on how the search got there, so each
    /// builder's uses are looked at once, and a builder that uses itself is not gone round).
    private static func reason(_ g: Int, _ code: Int, _ facts: ProgramFacts, followed: inout Set<Int>) -> Reason {
        let semantics = facts.semantics, graph = facts.graph, flow = facts.flow
        let bdd = semantics.bdd
        let evaluated = flow.isEvaluated(g)
        // An enclosing `wildcard W` or `if screen T` that fixes the element explains it best.
        var inner = g
        var outer = graph.nodes[g].parent
        while let enclosing = outer {
            switch graph.nodes[enclosing].kind {
            case .wildcard(let wildcardCode?, _) where wildcardCode != code:
                return .insideWildcard(GraphNode(enclosing), ScreenCode(wildcardCode))
            case .ifScreen(let testedCode?, let then, _) where then == inner && testedCode != code:
                return .insideIfScreen(GraphNode(enclosing), ScreenCode(testedCode))
            case .ifScreen(let testedCode?, _, let otherwise?) where otherwise == inner && testedCode == code:
                return .inElseOfIfScreen(GraphNode(enclosing))
            default:
                break
            }
            inner = enclosing
            outer = graph.nodes[enclosing].parent
        }
        var child = g
        var parent = graph.nodes[g].parent
        // Above a `wildcard` of this screen the element is any: its body is evaluated with the
        // screen whatever the element there. From there up, the walk asks about environments
        // only (∃ element), which is also what both variable layouts hold alike: with the
        // element above, a node's context may hold an element it does not tell apart folded
        // into the rest code (see `Semantics.project(_:to:)`).
        var anyElement = false
        func meets(_ context: BDD.Ref) -> BDD.Ref { anyElement ? semantics.environments(context) : bdd.and(context, semantics.elementIs[code]) }
        while let ancestor = parent {
            if case .wildcard = graph.nodes[ancestor].kind { anyElement = true }
            let ancestorContext = flow.context(ancestor)
            let childContext = flow.context(child)
            switch graph.nodes[ancestor].kind {
            case .anyOf(let list) where ancestorContext != BDD.zero:
                let branches = graph.branches(list)
                let position = branches.firstIndex(of: child) ?? 0
                if position > 0 {
                    let mine = meets(ancestorContext)
                    if mine != BDD.zero && meets(childContext) == BDD.zero {
                        var first = (0..<position).filter { earlier in
                            let branch = branches[earlier]
                            return anyElement
                                ? bdd.and(mine, semantics.environments(bdd.and(semantics.builds[branch], flow.context(branch)))) != BDD.zero
                                : bdd.and(bdd.and(mine, semantics.builds[branch]), flow.context(branch)) != BDD.zero
                        }
                        // A branch that never returns (a builder cycle, an error of its own)
                        // does not build the screen first: the branches that do are named, when
                        // there are any (the node is reported only if it is never built
                        // whatever the cycle gave).
                        if !semantics.cycles.isEmpty && !anyElement {
                            // (The flow read each cycle as never returning: what reaches each
                            // branch where the cycles return nothing is worked out here.)
                            var running = mine
                            var building: [Int] = []
                            for earlier in 0..<position where running != BDD.zero {
                                let real = semantics.realBuilds[branches[earlier]]
                                if bdd.intersects(running, real) { building.append(earlier) }
                                running = bdd.andNot(running, real)
                            }
                            if !building.isEmpty { first = building }
                        }
                        return .takenByEarlierBranches(anyOf: GraphNode(ancestor), branches: first.map { GraphNode(branches[$0]) })
                    }
                }
            case .condition(_, let then, _) where ancestorContext != BDD.zero && childContext == BDD.zero:
                return .contradiction(GraphNode(ancestor), value: then == child ? "false" : "true")
            case .condition(_, let then, _) where meets(ancestorContext) != BDD.zero && meets(childContext) == BDD.zero:
                return .decidedOtherwise(GraphNode(ancestor), value: conditionValue(ancestor, then == child ? "false" : "true", facts))
            default:
                break
            }
            // Where the element still reaches the ancestor but not the child, the cause is here
            // (and not explained above); where it does not reach the ancestor either, it was
            // taken higher up.
            if !evaluated && meets(ancestorContext) != BDD.zero { break }
            child = ancestor
            parent = graph.nodes[ancestor].parent
        }
        let top = graph.bodyTop(g)
        if let owner = semantics.bodyOwner(top) {
            if !flow.isEvaluated(top) { return .builderNeverEvaluated(graph.builderName(owner)) }
            // Nothing in the builder keeps the screen out, and nothing of it reaches the body:
            // at each use of the builder, something above the use does.
            if evaluated && !anyElement && followed.insert(owner).inserted {
                for reference in semantics.referrers.neighbors(owner) {
                    let r = Int(reference)
                    guard facts.used[r], flow.isEvaluated(r) else { continue }
                    switch reason(r, code, facts, followed: &followed) {
                    case .noPath, .builderNeverEvaluated: continue
                    case let why: return .usedWhereItCannotReach(builder: graph.builderName(owner), reference: GraphNode(r), why)
                    }
                }
            }
        }
        return .noPath
    }

    // MARK: Declarations

    /// The declared screens that no `screen S` node of `root` or a used builder places (not a
    /// duplicate, nor one a used node meant to place under a misspelt name).
    static func checkPlacement(_ facts: ProgramFacts) -> [Finding] {
        facts.graph.screens.indices.compactMap { placementFinding(code: $0, facts) }
    }

    static func checkDeclarations(_ facts: ProgramFacts) -> [Finding] { checkPlacement(facts) }

    static func finding(declaration number: Int, _ facts: ProgramFacts) -> Finding? {
        facts.graph.screenCode(facts.graph.declarationSymbol(number)).flatMap { placementFinding(code: $0, facts) }
    }

    static func declarationNumber(of finding: Finding, _ facts: ProgramFacts) -> Int {
        if case .neverPlaced(let s) = finding { return facts.graph.declarationNumber(s) }
        return -1
    }

    /// The finding of the screen with element code `code`, if no used node places it.
    static func placementFinding(code: Int, _ facts: ProgramFacts) -> Finding? {
        guard !facts.placements.contains(code), !facts.hasSecondRoot else { return nil }
        let s = facts.graph.screens[code]
        guard !facts.isDuplicate(s) else { return nil }
        let number = facts.graph.declarationNumber(s)
        // A name the program meant to place it by (a misspelt `screen` node, one in skipped
        // text): the mistake is that name's error, whatever else mentions the screen (an
        // `if screen` test of it places nothing).
        if facts.guessed.contains(number) { return nil }
        return .neverPlaced(s)
    }

    // MARK: Words

    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic {
        switch finding {
        case .neverPlaced(let s):
            let name = facts.project.declaration(s).name
            return Diagnostic(Self.self, file: s.file, range: name.range,
                              message: "screen `\(name.text)` is never placed in the routing tree: no `screen \(name.text)` in `root` or a builder it uses")
        case .node(let node, let screen, let reason):
            let name = facts.screenName(screen.index)
            let (why, related, quotes) = words(reason, screen: name, in: facts.graph.nodes[node.index].file, facts)
            return facts.diagnostic(Self.self, at: node.index, "`screen \(name)` is never built: \(why)", related: related,
                                    quotesPosition: quotes)
        }
    }

    /// A condition's value as its test reads: `true`/`false`, or `present`/`absent` for an
    /// `if let`.
    private static func conditionValue(_ g: Int, _ value: String, _ facts: ProgramFacts) -> String {
        if case .condition(let condition, _, _) = facts.graph.nodes[g].kind, case .symbol = facts.graph.conditions[condition],
           facts.graph.nodes[g].testsOptional {
            return value == "false" ? "absent" : "present"
        }
        return value
    }

    /// The reason in words, its related locations, and whether the words quote a position
    /// (of a node, with its file's name when that is not `file`, the diagnostic's).
    private static func words(_ reason: Reason, screen name: String, in file: FileID, _ facts: ProgramFacts) -> (String, [RelatedLocation], Bool) {
        switch reason {
        case .insideWildcard(let decision, let screen):
            let screenName = facts.screenName(screen.index)
            return ("it is inside `wildcard \(screenName)`, where the element is always \(screenName)",
                    [facts.location(decision.index, "the element is replaced by \(screenName) here")], false)
        case .insideIfScreen(let decision, let tested):
            let testedName = facts.screenName(tested.index)
            return ("it is inside `if screen \(testedName)`, where the element is always \(testedName)",
                    [facts.location(decision.index, "the element is \(testedName) here")], false)
        case .inElseOfIfScreen(let decision):
            return ("it is in the else branch of `if screen \(name)`, which \(name) never takes",
                    [facts.location(decision.index, "\(name) takes the then-branch here")], false)
        case .takenByEarlierBranches(let anyOf, let branches):
            return ("an earlier branch of the `anyOf` at \(facts.position(anyOf.index, from: file)) always builds \(name) first",
                    branches.map { facts.location($0.index, "builds \(name) first") }, true)
        case .contradiction(let decision, let value):
            let head = facts.headText(decision.index)
            let what = conditionValue(decision.index, value, facts)
            return ("`\(head)` is always \(what) where it is evaluated: the conditions on the way contradict each other",
                    [facts.location(decision.index, "decided here")], false)
        case .builderNeverEvaluated(let builder):
            return ("builder `\(builder)` is never evaluated where it is used", [], false)
        case .usedWhereItCannotReach(let builder, var reference, var why):
            // Through builders that are used only in builders: the outermost use, and the
            // builders on the way named once.
            var through: [String] = []
            while case .usedWhereItCannotReach(let outer, let use, let inner) = why {
                through.append(outer)
                reference = use
                why = inner
            }
            let (words, related, _) = words(why, screen: name, in: file, facts)
            let via = through.isEmpty ? "" : " (through " + through.map { "`\($0)`" }.joined(separator: ", ") + ")"
            let used = through.last ?? builder
            return ("builder `\(builder)` is used where \(name) never reaches it\(via): at \(facts.position(reference.index, from: file)), \(words)",
                    [facts.location(reference.index, "`\(used)` is used here")] + related, true)
        case .decidedOtherwise(let decision, let value):
            let head = facts.headText(decision.index)
            return ("where \(name) reaches `\(head)` at \(facts.position(decision.index, from: file)), it is always \(value)",
                    [facts.location(decision.index, "\(name) reaches this only where it is \(value)")], true)
        case .noPath:
            return ("no path under any environment builds it here", [], false)
        }
    }
}

extension RuleID {
    public static let unreachableScreen = UnreachableScreen.id
}
