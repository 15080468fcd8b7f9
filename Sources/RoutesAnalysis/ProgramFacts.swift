import RoutesModel
import RoutesSyntax

/// What every rule of one program reads, computed once: the used region (what `root` and the
/// builders it uses reach, ignoring conditions), the main flows (the evaluation contexts of
/// every node while resolving paths, in both readings of uncertain leaves), what the used
/// builders mention, and the words the messages use for nodes (head text, screen names,
/// positions). Rules only read it.
struct ProgramFacts {
    let semantics: Semantics
    private(set) var graph: BuilderGraph
    private(set) var project: Project
    let program: Program
    /// The body of the program's `root`, if it has one.
    let rootBody: Int?

    /// Nodes of `root` and of used builders (reachable through references and nestings,
    /// ignoring conditions). The graph is the program's: it holds exactly the nodes of the
    /// program's files, so per-node state is sized by the program.
    private(set) var used: [Bool]
    /// The builders `root` uses, directly or through other used builders.
    private(set) var usedBuilders: BitSet

    /// One flow from `root` over whole paths. σ tracks the push context when a screen is
    /// presented `sheet(allowsPush: false)`: 0 when pushing is possible after the last
    /// non-push element, 1 after such a sheet.
    private(set) var flow: Flow
    /// The same flow in the alternative reading of uncertain leaves, when there are any: a
    /// warning must hold in both (an unresolved name or a cycle could be read either way).
    private(set) var alternativeFlow: Flow? = nil

    /// Whether the program's files declare `root` more than once (a `DuplicateDeclaration`):
    /// which of them is meant is that error's to settle, so nothing is reported as never
    /// placed or unused for the one that counts.
    let hasSecondRoot: Bool

    /// Whether `resolvePaths` ran to its fixpoint.
    private(set) var resolvedPaths = false
    /// Whether everything the flow rules read is as the earlier facts had it: the earlier
    /// semantics kept as it is (`Semantics.keeping`), the used region, the presentations, and
    /// flows that the edit left without a node to compute again (an edit of a `uses` list).
    /// Their findings are then the earlier ones (see `ProgramChecker.run`).
    private(set) var flowsAsBefore = false
    /// After `resolvePaths` continued the earlier flows: per node, whether its states may
    /// differ from the earlier ones (every other node's are the earlier states, on the same
    /// manager). Nil when the flows were computed afresh.
    private(set) var recomputed: MarkedNodes? = nil
    /// What `way(to:sigma:)` keeps between questions.
    private let ways = WayIndex()

    /// What `root` and the used builders mention by name, and what they most likely meant by
    /// an undefined name or in text the parser skipped (see `findMentions`), by declaration
    /// number.
    private(set) var mentioned: MentionCounts
    private(set) var guessed: MentionCounts
    /// Per screen (by element code), the `screen` nodes of `root` and the used builders that
    /// place it.
    private(set) var placements = MentionCounts(count: 0)
    /// Whether `root` or a used builder refers to a builder by a name that does not resolve,
    /// or text the parser skipped names a builder: what the builder it was meant to be
    /// mentions is then counted as guessed (see `findMentions`), which an edit elsewhere can
    /// change, so the counts are made afresh.
    private(set) var refersToUnresolvedBuilder = false
    /// When `findMentions` patched the earlier facts' counts: the declaration numbers whose
    /// mentions it changed (with repeats; a number whose count went down and up again too).
    /// A screen node mentions its screen, so the screens whose placements changed are among
    /// them. Nil when they were counted afresh.
    private(set) var mentionChanges: [Int]? = nil
    /// Whether the used region was taken from the earlier facts although edited nodes changed
    /// (what they build, not where they lead) (tests).
    private(set) var usedKeptOverChangedNodes = false
    /// Whether `findMentions` patched the earlier facts' mentions (tests).
    private(set) var mentionsPatched = false
    /// The earlier facts' mentions and the edited nodes, when `findMentions` may patch them.
    private var mentionsBefore: (facts: EarlierMentions, edited: EditedNodes)? = nil
    /// What `findMentions` reads of the earlier facts.
    private struct EarlierMentions {
        var mentioned: MentionCounts
        var guessed: MentionCounts
        var placements: MentionCounts
        var refersToUnresolvedBuilder: Bool
        var graph: BuilderGraph
        var project: Project
        var used: [Bool]
    }

    /// The facts of `program`. With `carryover`, its facts before an edit inside one
    /// declaration (over the graph this one was patched from, on the same manager) and the
    /// global ids of the nodes the edit resolved again: when the semantics took the earlier
    /// builds over (`Semantics.carriedDirty`), the flows will continue the earlier ones
    /// (`resolvePaths`, `Flow.rerun`), and the used region is the earlier one when no edited
    /// node changed what it leads to. The earlier facts' flows are taken over and must not be
    /// read again. `region` is the used region when the caller found it already
    /// (``usedRegion(of:from:)``).
    init(semantics: Semantics, program: Program, carryover: (facts: ProgramFacts, edited: EditedNodes)? = nil,
         region: UsedRegion? = nil) {
        self.semantics = semantics
        graph = semantics.graph
        project = semantics.graph.project
        self.program = program
        var roots = 0
        for f in program.files { for declaration in project.files[f].model.declarations where declaration.kind == .root { roots += 1 } }
        hasSecondRoot = roots > 1
        let graph = semantics.graph
        mentioned = MentionCounts(count: 0)
        guessed = MentionCounts(count: 0)
        let hasNoPushSheets = graph.hasNoPushPresentation
        let sigmaCount = hasNoPushSheets ? 2 : 1
        rootBody = Self.rootBody(of: program, in: graph)
        if let carryover, carryover.facts.mentioned.count == graph.declarationCount, carryover.facts.graph.nodes.count == graph.nodes.count,
           carryover.edited.upperBound <= graph.nodes.count {
            let old = carryover.facts
            mentionsBefore = (EarlierMentions(mentioned: old.mentioned, guessed: old.guessed, placements: old.placements,
                                              refersToUnresolvedBuilder: old.refersToUnresolvedBuilder, graph: old.graph, project: old.project, used: old.used), carryover.edited)
        }
        if let carryover, let found = Self.affectedNodes(semantics, sigmaCount: sigmaCount, rootBody: rootBody,
                                                        since: carryover.facts, edited: carryover.edited) {
            continuation = (carryover.facts.alternativeFlow?.states, found.affected)
            flow = Flow(semantics: semantics, crossNestings: true, sigmaCount: sigmaCount, continuing: carryover.facts.flow.states)
            if found.structureKept {
                used = carryover.facts.used
                usedBuilders = carryover.facts.usedBuilders
                flowsAsBefore = semantics === carryover.facts.semantics && carryover.facts.resolvedPaths
                    && graph.samePresentations(as: carryover.facts.graph) && found.affected.isEmpty
                return
            }
            if found.edgesKept {
                used = carryover.facts.used
                usedBuilders = carryover.facts.usedBuilders
                usedKeptOverChangedNodes = true
                return
            }
        } else {
            flow = Flow(semantics: semantics, crossNestings: true, sigmaCount: sigmaCount,
                        storage: FlowStorage(size: graph.nodes.count * sigmaCount, tracksPredecessors: false, forOneFlow: true))
        }
        (used, usedBuilders) = region ?? Self.usedRegion(of: graph, from: rootBody)
    }

    /// The node of `program`'s `root` body in `graph`, if it has one.
    static func rootBody(of program: Program, in graph: BuilderGraph) -> Int? {
        graph.project.declaration(program.root).body.map { graph.global(program.root.file, $0) }
    }

    /// The nodes and builders `root` uses (see `used`).
    typealias UsedRegion = (used: [Bool], usedBuilders: BitSet)

    /// The used region of the program whose `root` body is node `rootBody`: it depends on
    /// the graph alone.
    static func usedRegion(of graph: BuilderGraph, from rootBody: Int?) -> UsedRegion {
        var used = [Bool](repeating: false, count: graph.nodes.count)
        var usedBuilders = BitSet(count: graph.builders.count)
        if let rootBody { markUsed(from: rootBody, graph, &used, &usedBuilders) }
        return (used, usedBuilders)
    }

    /// When `resolvePaths` continues the earlier flows (the primary one's states are `flow`'s
    /// already): the earlier alternative flow's states, if there was one, and the nodes it
    /// computes again.
    private var continuation: (alternative: FlowStorage?, affected: MarkedNodes)? = nil

    /// Points the facts at the project after an edit that moved positions only.
    mutating func rebase(onto newProject: Project, graph newGraph: BuilderGraph) {
        project = newProject
        graph = newGraph
    }

    // MARK: Used region

    private static func markUsed(from root: Int, _ graph: BuilderGraph, _ used: inout [Bool], _ usedBuilders: inout BitSet) {
        var stack = [root]
        used[root] = true
        while let g = stack.popLast() {
            func visit(_ child: Int) {
                if !used[child] {
                    used[child] = true
                    stack.append(child)
                }
            }
            graph.forEachChild(g, visit)
            switch graph.nodes[g].kind {
            case .screen(_, let nesting?): visit(nesting)
            case .reference(let builder?):
                if usedBuilders.insert(builder) {
                    if let body = graph.builders[builder].body { visit(body) }
                }
            default: break
            }
        }
    }

    // MARK: Paths

    /// The flows from `root` (see `flow`). With `earlier`, the facts of this program before
    /// an edit inside one declaration (over the graph this one was patched from, on the same
    /// manager) and the global ids of the nodes the edit resolved again: when the semantics
    /// took the earlier builds over (`Semantics.carriedDirty`), the flows continue the
    /// earlier ones (`Flow.rerun`) and only what the edit can change is computed again.
    /// The earlier facts' flows are taken over and must not be read again.
    mutating func resolvePaths() {
        guard let root = rootBody else { return }
        let onBuilt = Self.onBuilt(graph, sigmaCount: flow.sigmaCount)
        if let (oldAlternative, affected) = continuation {
            continuation = nil
            recomputed = affected
            func continued(_ flow: Flow, _ reading: Semantics.Reading) -> Flow {
                var resumed = flow
                resumed.reading = reading
                resumed.onBuilt = onBuilt
                resumed.rerun(affected: affected, seed: semantics.allElements, at: root)
                return resumed
            }
            // Without uncertain leaves or hidden nodes both readings reach alike: the earlier
            // primary flow is also the earlier alternative one.
            let alternativeStates = semantics.readingsDiffer ? (oldAlternative ?? flow.states.copy()) : nil
            flow = continued(flow, .primary)
            alternativeFlow = alternativeStates.map {
                continued(Flow(semantics: semantics, crossNestings: true, sigmaCount: flow.sigmaCount, continuing: $0), .alternative)
            }
            resolvedPaths = !semantics.bdd.exhausted
            return
        }
        defer { resolvedPaths = !semantics.bdd.exhausted }
        flow.onBuilt = onBuilt
        flow.add(root, semantics.allElements, from: nil)
        flow.runOnTwoThreads()
        if semantics.readingsDiffer {
            var other = Flow(semantics: semantics, crossNestings: true, sigmaCount: flow.sigmaCount,
                             storage: FlowStorage(size: graph.nodes.count * flow.sigmaCount, tracksPredecessors: false, forOneFlow: true))
            other.reading = .alternative
            other.onBuilt = onBuilt
            other.add(root, semantics.allElements, from: nil)
            other.runOnTwoThreads()
            alternativeFlow = other
        }
    }

    /// The main flows' `Flow.onBuilt`: with two states (a program with a presentation that
    /// allows no push), a screen presented that way moves the way into state 1, one that
    /// allows a push back into state 0.
    static func onBuilt(_ graph: BuilderGraph, sigmaCount: Int) -> ((Int, Int, BDD.Ref) -> Int?)? {
        sigmaCount == 2 ? { g, sigma, _ in
            guard case .screen(let code?, _) = graph.nodes[g].kind else { return sigma }
            let presentation = graph.presentation(node: g, code: code)
            if presentation == .push { return sigma }
            return presentation.allowsPush ? 0 : 1
        } : nil
    }

    /// The nodes whose contexts an edit may have changed (see `AffectedNodes`), or nil when
    /// the earlier flows cannot be continued.
    private static func affectedNodes(_ semantics: Semantics, sigmaCount: Int, rootBody: Int?, since old: ProgramFacts,
                                      edited: EditedNodes) -> (affected: MarkedNodes, structureKept: Bool, edgesKept: Bool)? {
        let graph = semantics.graph
        guard let dirty = semantics.carriedDirty, old.semantics.bdd === semantics.bdd, semantics.layout == .conditionsAbove,
              old.semantics.layout == .conditionsAbove, old.graph.nodes.count == graph.nodes.count,
              old.flow.sigmaCount == sigmaCount, old.rootBody == rootBody, !old.flow.tracksPredecessors,
              old.semantics.cycles.isEmpty, old.resolvedPaths, edited.upperBound <= graph.nodes.count
        else { return nil }
        var finder = AffectedNodes(semantics: semantics, sigmaCount: sigmaCount, old: old)
        finder.markEditedNodes(edited)
        finder.markReferencesToMovedBodies()
        finder.markBranchesAfterChangedBuilds(dirty)
        finder.passDifferencesOn()
        return (finder.affected, finder.structureKept, finder.edgesKept)
    }

    /// A way from `root` to node g (node ids, outermost first) on which g is built (a screen
    /// node) or evaluated, in state σ when given (else in the first in which it is reached),
    /// or `[g]` when none reaches it. It is found by a flow of its own through the nodes
    /// that lead to g, which stops when it gets there: so it depends on the program only,
    /// not on the order in which `flow` visited states, and is the same after an edit
    /// (whose flows continue the earlier ones) as in a fresh analysis.
    func way(to g: Int, sigma: Int? = nil) -> [Int] {
        guard let root = rootBody else { return [g] }
        let region = ways.region(leadingTo: g, graph)
        var search = Flow(semantics: semantics, crossNestings: true, sigmaCount: flow.sigmaCount, storage: ways.storage(graph, flow.sigmaCount))
        search.region = region
        search.target = g
        search.onBuilt = flow.onBuilt
        search.add(root, semantics.allElements, from: nil)
        search.run()
        let isScreen: Bool
        if case .screen = graph.nodes[g].kind { isScreen = true } else { isScreen = false }
        let reached = sigma ?? (0..<flow.sigmaCount).first {
            isScreen ? search.builtEnvironments(g, sigma: $0) != BDD.zero : search.context(g, sigma: $0) != BDD.zero
        } ?? 0
        return search.way(to: g, sigma: reached)
    }

    /// Per state of the main flows (both readings), the structural hashes of its context and
    /// of its built environments: for tests that compare a flow continued over an edit with a
    /// fresh one, whose managers differ.
    func flowFingerprint() -> [UInt64] {
        var memo: [BDD.Ref: UInt64] = [:]
        var out: [UInt64] = []
        for mainFlow in [flow] + (alternativeFlow.map { [$0] } ?? []) {
            for g in graph.nodes.indices {
                for sigma in 0..<mainFlow.sigmaCount {
                    out.append(semantics.bdd.structuralHash(mainFlow.context(g, sigma: sigma), memo: &memo))
                    out.append(semantics.bdd.structuralHash(mainFlow.builtEnvironments(g, sigma: sigma), memo: &memo))
                }
            }
        }
        return out
    }

    /// Whether a flow reaches node g: a screen node built, any other node evaluated.
    func isReached(_ g: Int, in flow: Flow) -> Bool {
        if case .screen = graph.nodes[g].kind { return flow.isBuilt(g) }
        return flow.isEvaluated(g)
    }

    // MARK: Mentions

    /// Lets go of the mention counts once the rules have read them (a lint, whose analysis
    /// no edit continues: `mentionsBefore` never reads them).
    mutating func forgetMentionCounts() {
        mentioned = MentionCounts(count: 0)
        guessed = MentionCounts(count: 0)
        placements = MentionCounts(count: 0)
    }

    /// What `root` and the used builders mention. A name of the wrong kind still mentions
    /// its declaration, and an undefined name mentions the declaration it was most likely
    /// meant to be (the suggestion of its `UndefinedName` error), so that a typo is one error,
    /// not also an unused or unplaced warning. Counted per declaration, so that the facts
    /// after an edit inside one declaration that kept every name (`mentionsBefore`) take the
    /// earlier counts and change only what the edited nodes mentioned before and mention now.
    mutating func findMentions() {
        // Read once: a stored property of `self` passed on per node would be copied per node.
        let (graph, project, used) = (self.graph, self.project, self.used)
        if let (old, edited) = mentionsBefore {
            mentionsBefore = nil
            if old.used == used, old.graph.screens == graph.screens, !old.refersToUnresolvedBuilder,
               !edited.runs.contains(where: { run in run.contains { used[$0] && Self.isUnresolvedReference($0, graph) } }),
               !edited.files.contains(where: { graph.files.contains($0) && Self.skipsAnUnusedBuilderName(in: $0, usedBuilders, graph, project) }) {
                var (counts, guesses, placements) = (old.mentioned, old.guessed, old.placements)
                var touched: [Int] = []
                // The runs of an edit may overlap (a renamed declaration's nodes lie in its
                // file, which is resolved again whole): each node once.
                var next = 0
                for run in edited.runs.sorted(by: { $0.lowerBound < $1.lowerBound }) {
                    for g in max(run.lowerBound, next)..<max(run.upperBound, next) where used[g] {
                        Self.forEachMention(of: g, old.graph) { number, guess in
                            if guess { guesses.remove(number) } else { counts.remove(number) }
                            touched.append(number)
                        }
                        Self.forEachMention(of: g, graph) { number, guess in
                            if guess { guesses.add(number) } else { counts.add(number) }
                            touched.append(number)
                        }
                        if case .screen(let code?, _) = old.graph.nodes[g].kind {
                            placements.remove(code)
                        }
                        if case .screen(let code?, _) = graph.nodes[g].kind {
                            placements.add(code)
                        }
                    }
                    next = max(next, run.upperBound)
                }
                // The names skipped in the files the edit resolved again, and those of their
                // links' paths of another kind (after a rename, such a name may stand for
                // another declaration).
                for f in edited.files where graph.files.contains(f) {
                    Self.forEachFileGuess(in: f, old.graph, old.project) {
                        guesses.remove($0)
                        touched.append($0)
                    }
                    Self.forEachFileGuess(in: f, graph, project) {
                        guesses.add($0)
                        touched.append($0)
                    }
                }
                (self.mentioned, self.guessed, self.placements) = (counts, guesses, placements)
                mentionChanges = touched
                mentionsPatched = true
                return
            }
        }
        var mentioned = MentionCounts(count: graph.declarationCount)
        var guessed = MentionCounts(count: graph.declarationCount)
        var placements = MentionCounts(count: graph.screens.count)
        var meantBuilders: [Int] = []
        for g in graph.nodes.indices where used[g] {
            Self.forEachMention(of: g, graph) { number, guess in
                if guess { guessed.add(number) } else { mentioned.add(number) }
            }
            if case .screen(let code?, _) = graph.nodes[g].kind { placements.add(code) }
            if Self.isUnresolvedReference(g, graph) {
                refersToUnresolvedBuilder = true
                if let mention = graph.unresolvedMention(g), let builder = graph.builderIndex(graph.declarationSymbol(Int(mention.number))) {
                    meantBuilders.append(builder)
                }
            }
        }
        // A misspelt reference (`serach` for `search`) stands for the builder its error
        // suggests: what that builder, and what it uses in turn, mentions is mentioned by
        // guess, so that the one misspelt name is not also a "never placed" warning for each
        // of its screens and an "unused" one for each of its dependencies.
        Self.forEachMentionByGuess(meantBuilders, used: used, usedBuilders: usedBuilders, graph) { guessed.add($0) }
        // A name in text the parser skipped was meant to be somewhere: what it names is not
        // reported as unused or never placed for a syntax error's sake (`uses a b`, a second
        // builder in a block, a block past the nesting limit).
        // A builder named there and not used (`root { s  anyOf { … detail } }`, the `anyOf`
        // skipped) was meant to be: what it mentions is mentioned by guess, as for a misspelt
        // reference.
        var skippedBuilders: [Int] = []
        for f in graph.files.files {
            Self.forEachSkippedMention(in: f, graph, project) { number in
                guessed.add(number)
                if let builder = Self.unusedBuilder(number, usedBuilders, graph) { skippedBuilders.append(builder) }
            }
            // A flag (or another kind) named in a link's path where a screen goes: the one
            // `wrong-kind` error, not also an unused warning.
            Self.forEachLinkMention(in: f, graph, project) { guessed.add($0) }
        }
        if !skippedBuilders.isEmpty {
            // (An edit then finds the mentions again whole, as after a misspelt reference.)
            refersToUnresolvedBuilder = true
            Self.forEachMentionByGuess(skippedBuilders, used: used, usedBuilders: usedBuilders, graph) { guessed.add($0) }
        }
        self.mentioned = mentioned
        self.guessed = guessed
        self.placements = placements
    }

    /// Whether node g refers to a builder by a name that does not resolve to one.
    private static func isUnresolvedReference(_ g: Int, _ graph: BuilderGraph) -> Bool {
        guard graph.nodes[g].unresolved, case .reference(nil) = graph.nodes[g].kind else { return false }
        return true
    }

    /// What the nodes of `builders` (by index), and of the builders they use, mention, by
    /// declaration number (a screen node mentions its screen): the region a misspelt
    /// reference was meant to use, outside the used one.
    private static func forEachMentionByGuess(_ builders: [Int], used: [Bool], usedBuilders: BitSet, _ graph: BuilderGraph,
                                              _ body: (Int) -> Void) {
        guard !builders.isEmpty else { return }
        var reached = used
        var reachedBuilders = usedBuilders
        for builder in builders where reachedBuilders.insert(builder) {
            guard let top = graph.builders[builder].body, !reached[top] else { continue }
            reached[top] = true
            var stack = [top]
            while let g = stack.popLast() {
                forEachMention(of: g, graph) { number, _ in body(number) }
                func visit(_ child: Int) {
                    if !reached[child] {
                        reached[child] = true
                        stack.append(child)
                    }
                }
                graph.forEachChild(g, visit)
                switch graph.nodes[g].kind {
                case .screen(_, let nesting?): visit(nesting)
                case .reference(let target?):
                    if reachedBuilders.insert(target), let body = graph.builders[target].body { visit(body) }
                default: break
                }
            }
        }
    }

    /// Whether text the parser skipped in file f names a builder that is not used.
    private static func skipsAnUnusedBuilderName(in f: FileID, _ usedBuilders: BitSet, _ graph: BuilderGraph, _ project: Project) -> Bool {
        var found = false
        forEachSkippedMention(in: f, graph, project) { number in
            if unusedBuilder(number, usedBuilders, graph) != nil { found = true }
        }
        return found
    }

    /// The builder that declaration `number` is, if it is one that is not used.
    private static func unusedBuilder(_ number: Int, _ usedBuilders: BitSet, _ graph: BuilderGraph) -> Int? {
        guard let builder = graph.builderIndex(graph.declarationSymbol(number)), !usedBuilders.contains(builder) else { return nil }
        return builder
    }

    /// What the names skipped in file f's syntax errors stand for, by declaration number.
    private static func forEachSkippedMention(in f: FileID, _ graph: BuilderGraph, _ project: Project, _ body: (Int) -> Void) {
        let skipped = project.files[f].model.skippedNames
        if skipped.isEmpty { return }
        let scope = project.scopes[f]
        for name in skipped {
            if let s = scope[name] { body(graph.declarationNumber(s)) }
        }
    }

    /// What file f mentions by guess outside its nodes: the names in text the parser skipped
    /// and what its links' paths name that is no screen, by declaration number.
    private static func forEachFileGuess(in f: FileID, _ graph: BuilderGraph, _ project: Project, _ body: (Int) -> Void) {
        forEachSkippedMention(in: f, graph, project, body)
        forEachLinkMention(in: f, graph, project, body)
    }

    /// What the paths of file f's links name that is no screen (a wrong kind), by declaration
    /// number: mentioned by guess.
    private static func forEachLinkMention(in f: FileID, _ graph: BuilderGraph, _ project: Project, _ body: (Int) -> Void) {
        project.forEachLinkNameOfAnotherKind(in: f) { s in
            if graph.files.position(s.file) != nil { body(graph.declarationNumber(s)) }
        }
    }

    /// What node g mentions (see `findMentions`): each declaration number, and whether it is
    /// only a guess at what an undefined name meant.
    @inline(__always)
    private static func forEachMention(of g: Int, _ graph: BuilderGraph, _ body: (Int, Bool) -> Void) {
        // The graph knows what a resolved name of the right kind means, what each name of a
        // `uses` list resolves to or suggests, and what a name it left unresolved stands for
        // (a declaration's `from` is not a use here).
        let symbol: Symbol?
        switch graph.nodes[g].kind {
        case .screen(let code, _):
            for use in graph.useRange(g) {
                let target = graph.useTargets[use]
                if target.number >= 0 { body(Int(target.number), target.guessed) }
            }
            symbol = code.map { graph.screens[$0] }
        case .condition(let condition, _, _):
            if case .symbol(let s) = graph.conditions[condition] { symbol = s } else { symbol = nil }
        case .ifScreen(let code?, _, _), .wildcard(let code?, _):
            symbol = graph.screens[code]
        case .reference(let builder?):
            symbol = graph.builders[builder].symbol
        case .anyOf, .nothing:
            return
        default:
            symbol = nil
        }
        if let symbol {
            body(graph.declarationNumber(symbol), false)
            return
        }
        // An undefined name mentions what its `UndefinedName` error suggests, and a name of the
        // wrong kind (`Detail` written for `screen Detail`) what it names: both by guess, so
        // that the one mistake is not also a "never placed" or "never used" warning.
        if let mention = graph.unresolvedMention(g) { body(Int(mention.number), true) }
    }

    /// A later declaration of a name already declared in this program (reported as
    /// a `DuplicateDeclaration`; nothing refers to it).
    func isDuplicate(_ s: Symbol) -> Bool {
        project.isRedeclaration(s, in: program)
    }

    // MARK: Words

    /// A related location at node g's head.
    func location(_ g: Int, _ message: String) -> RelatedLocation {
        RelatedLocation(file: graph.nodes[g].file, range: graph.head(g), message: message)
    }

    /// Node g's head (`screen Home`, `conditional isLoggedIn`) as written.
    func headText(_ g: Int) -> String {
        project.quoted(file: graph.nodes[g].file, graph.head(g))
    }

    /// Node g's head as `line:column` (1-based, columns in Unicode scalars).
    func position(_ g: Int) -> String {
        let file = project.files[graph.nodes[g].file]
        let position = file.text.position(of: graph.head(g).lowerBound, encoding: .scalars)
        return "\(position.line + 1):\(position.column + 1)"
    }

    /// Node g's head as `line:column` in a message about a place in `file`, or as
    /// `path:line:column` when the node lies in another file, the path relative to `file`'s
    /// folder (as an import writes it: the message is the same however the files were named).
    func position(_ g: Int, from file: FileID) -> String {
        let nodeFile = graph.nodes[g].file
        guard nodeFile != file else { return position(g) }
        return PathUtil.relativePath(from: project.files[file].path, to: project.files[nodeFile].path) + ":" + position(g)
    }

    func screenName(_ code: Int) -> String { graph.screenDeclaration(code).name.text }

    /// Node g as its file's node (what diagnostics' details name).
    func nodeRef(_ g: Int) -> NodeRef { NodeRef(file: graph.nodes[g].file, node: graph.nodes[g].local) }

    /// A diagnostic of `rule` at node g's head.
    func diagnostic<R: RuleDefinition>(_ rule: R.Type, at g: Int, _ message: String, related: [RelatedLocation] = [],
                                       quotesPosition: Bool = false) -> Diagnostic {
        Diagnostic(rule, file: graph.nodes[g].file, range: graph.head(g), message: message, related: related,
                   quotesPosition: quotesPosition)
    }
}
