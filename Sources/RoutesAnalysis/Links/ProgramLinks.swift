import RoutesModel
import RoutesSyntax

/// The links of one program (the links declared in its files): each with its pattern, the
/// types of its placeholders, the screens of its path and the condition under which the
/// path is built whole; and what the link rules find over them (`ambiguous-link`,
/// `shadowed-link`, `unbuildable-link`). A link with an error (`invalid-link`, a name that
/// does not resolve, a syntax error in it) takes no part in matching nor in the other links'
/// rules; `unbuildable-link` is judged for it when its path's screens resolve and its pattern
/// parses (`ProjectLinks.Link.judgesBuilds`).
public struct ProgramLinks: Sendable {
    public struct Link: Sendable {
        public var symbol: Symbol
        /// Its position among the project's links (`ProjectLinks.all`).
        var index: Int
        public var name: String
        public var declaration: LinkDeclaration
        /// The pattern with the types of its placeholders; nil for a link with an error.
        public var typed: TypedLink?
        /// The screens of the path; nil when one does not resolve to a screen.
        public var screens: [Symbol]?
        /// Whether the link takes part in matching (it has no error).
        var isTyped: Bool { typed != nil }
        /// Under which environments the whole path is built; nil when not judged (an error,
        /// or a program whose analysis is uncertain).
        public var condition: LinkCondition?
        /// How many elements, from the first, are built together in some environment.
        public var builtPrefix: Int?
        /// An environment in which the whole path is not built (flags true and optionals
        /// present where that is free; the program's defaults for the conditions the path does
        /// not read): nil when it always is, or was not judged.
        public var failingEnvironment: Environment?
    }

    /// In declaration order (see `order(_:in:)`).
    public private(set) var links: [Link] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// The rules whose diagnostics these are.
    static let rules: Set<RuleID> = [AmbiguousLink.id, ShadowedLink.id, UnbuildableLink.id]

    /// What following the links' paths found, by prefix of screens (element codes): kept
    /// across the judgements of one analysis (links share the starts of their paths; an edit
    /// of a link judges the links again over the same semantics). Used by one thread at a
    /// time, as the analysis that holds it.
    final class Prefixes: @unchecked Sendable {
        /// Each prefix followed: its frontier, where it is built, and whether following it
        /// evaluated a node whose build involves an unresolved builder name, a syntax hole or
        /// a builder cycle (then where it is built depends on how those are read); the first is
        /// the empty prefix.
        /// Each prefix followed: where its last element's nodes are, where it is built,
        /// whether an unresolved builder, a syntax hole or a cycle was on its way, and whether
        /// its last step passed its element misspelt (see `PathCondition.step`).
        var steps: [(frontier: PathCondition.Frontier, built: BDD.Ref, uncertain: Bool, misspelt: Bool)] = []
        /// A prefix one element longer than another, by the shorter's position in `steps` and
        /// the element's code: its position.
        var longer = IntTable()

        /// The position in `steps` of prefix `shorter` followed by element `code`.
        func step(_ shorter: Int, _ code: Int, _ conditions: PathCondition) -> Int {
            let key = Int64(shorter) << 32 | Int64(UInt32(truncatingIfNeeded: code))
            if let known = longer[key] { return Int(known) }
            let (next, built, uncertain, misspelt) = conditions.step(steps[shorter].frontier, code)
            steps.append((next, built, steps[shorter].uncertain || uncertain, misspelt))
            longer.set(key, Int32(steps.count - 1))
            return steps.count - 1
        }
        var conditions: [BDD.Ref: LinkCondition] = [:]
        var failing: [BDD.Ref: Environment] = [:]
        var names: [Int: String]? = nil
        /// Per condition variable, the conditions it stands for (see `environment(_:_:_:in:)`).
        var conditionsOfVariable: [Int: [Int]]? = nil
        /// The environments of the program that previews of unbuildable links were made in.
        var programEnvironments: [Environment: ProgramEnvironment] = [:]
        /// The screens a prefix may be made of (see `shortestPrefix(_:_:_:)`), by name.
        var candidates: [(code: Int, name: String)]? = nil
    }
    private(set) var prefixes = Prefixes()

    /// The links that take part in matching, as typed links, with their positions in `links`.
    public var matching: (links: [TypedLink], positions: [Int]) {
        var typed: [TypedLink] = []
        var positions: [Int] = []
        for (position, link) in links.enumerated() {
            if let t = link.typed {
                typed.append(t)
                positions.append(position)
            }
        }
        return (typed, positions)
    }

    init() {}

    /// The links of the program's files among `project`'s links, judged over the program;
    /// without `judgingConditions`, no link gets its `condition` nor `failingEnvironment`
    /// (what a lint reports needs neither).
    init(facts: ProgramFacts, project projectLinks: ProjectLinks, prefixes: Prefixes? = nil, judgingConditions: Bool = true) {
        if let prefixes { self.prefixes = prefixes }
        list(Self.positions(in: projectLinks.plan, files: facts.program.files, project: facts.project), facts.project) { index in
            let link = projectLinks.all[index]
            return (link.symbol, link.declaration, link.typed, link.screens)
        }
        guard !links.isEmpty else { return }
        // The overlaps ask nothing of the tree: searched on another core while the paths are
        // followed (when a core is free; else by this thread after them).
        let (typed, positions) = matching
        let overlaps = SharedWorkList(count: typed.isEmpty ? 0 : 1) { _ in LinkOverlap.analyse(typed) }
        if typed.count > 1 { overlaps.start() }
        judgeBuilds(PathFacts(facts), conditions: judgingConditions, untypedToo: true, typed: { projectLinks.all[$0.index].judgesBuilds })
        for position in links.indices where !links[position].isTyped { forgetJudgement(position) }
        if let result = overlaps.results().first { reportOverlaps(result, positions: positions) }
    }

    /// The links of the program's files among the links `pending` reads, before it has read
    /// them: each link's path is followed now (it needs the screens only, not the link
    /// rules' verdicts), and ``complete(with:)`` then takes what `pending` read (which link
    /// takes part, the overlaps). A link found unbuildable waits for `pending` to say
    /// whether it takes part (only then is it reported). What `complete(with:)` reads is
    /// read meanwhile on another core.
    init(facts: ProgramFacts, pending: PendingLinks, judgingConditions: Bool) {
        self.init(PathFacts(facts), pending: pending, judgingConditions: judgingConditions, in: nil)
    }

    /// ``init(facts:pending:judgingConditions:)``, in `manager` (a copy of the semantics's)
    /// when given.
    private init(_ facts: PathFacts, pending: PendingLinks, judgingConditions: Bool, in manager: BDD?) {
        let plan = pending.plan
        list(Self.positions(in: plan, files: facts.program.files, project: facts.project), facts.project) { index in
            (plan.links[index], plan.declarations[index], nil, plan.screens[index])
        }
        guard !links.isEmpty else { return }
        var read: ProjectLinks? = nil
        judgeBuilds(facts, conditions: judgingConditions, untypedToo: true, in: manager, typed: { link in
            if read == nil { read = pending.links }
            return read!.all[link.index].judgesBuilds
        })
    }

    /// For an analysis that no question follows (a lint): the program's links among those
    /// `pending` reads, their paths followed on another core, in a copy of the semantics's
    /// manager, while this one goes on with the flows (which make nodes in the manager too),
    /// and completed there (``complete(with:)``); nil when the program declares no link. The
    /// links' conditions are not judged, and the prefixes followed are not kept for a later
    /// judgement.
    static func following(_ facts: ProgramFacts, pending: PendingLinks) -> Following? {
        let facts = PathFacts(facts)
        guard facts.rootBody != nil, pending.plan.ranges.keys.contains(where: facts.program.files.contains) else { return nil }
        let manager = BDD(copying: facts.semantics.bdd, cacheBits: Following.cacheBits)
        let inputs = UncheckedSendable((facts, manager))
        let work = SharedWorkList(count: 1) { _ in
            defer { Profile.mark("links: paths followed") }
            var links = ProgramLinks(inputs.value.0, pending: pending, judgingConditions: false, in: inputs.value.1)
            // (The links and their overlaps are read by now, on this thread most often.)
            links.complete(with: pending)
            return links
        }
        pending.afterReading { work.takeShare() }
        return Following(work: work, manager: manager, original: facts.semantics.bdd)
    }

    /// Links whose paths are being followed on another core (see `following(_:pending:)`).
    final class Following {
        /// The copy's operation cache: a program's links take a few thousand steps.
        static let cacheBits = 10
        private let work: SharedWorkList<ProgramLinks>
        private let manager: BDD
        private let original: BDD

        fileprivate init(work: SharedWorkList<ProgramLinks>, manager: BDD, original: BDD) {
            self.work = work
            self.manager = manager
            self.original = original
        }

        /// The links, once followed and completed (by this thread, if no other has begun),
        /// with what the copy spent counted against the original manager's budget.
        func take() -> ProgramLinks {
            let links = work.results()[0]
            original.charge(for: manager)
            return links
        }
    }

    /// The positions, among `plan`'s links, of those `files` declare, in the order of
    /// `order(_:in:)`.
    static func positions(in plan: ProjectLinks.Plan, files: [FileID], project: Project) -> [Int] {
        let declaring = Set(files).filter { plan.ranges[$0] != nil }
        return order(Array(declaring), in: project).flatMap { plan.ranges[$0]! }
    }

    /// Appends the links at `positions` (among the project's), each as `link` gives it.
    private mutating func list(_ positions: [Int], _ project: Project,
                               _ link: (Int) -> (Symbol, LinkDeclaration, TypedLink?, [Symbol]?)) {
        links.reserveCapacity(positions.count)
        for index in positions {
            let (symbol, declaration, typed, screens) = link(index)
            // (The name read in place: a copy of the declaration would retain its link.)
            links.append(Link(symbol: symbol, index: index, name: project.files[symbol.file].model.declarations[symbol.declaration].name.text,
                              declaration: declaration, typed: typed, screens: screens))
        }
    }

    /// Takes what `pending` read for the links of ``init(facts:pending:judgingConditions:)``:
    /// each link's typed pattern; what was judged of a link that takes no part is dropped;
    /// `ambiguous-link` and `shadowed-link`.
    mutating func complete(with pending: PendingLinks) {
        guard !links.isEmpty else { return }
        let all = pending.links.all
        for position in links.indices {
            guard let typed = all[links[position].index].typed else {
                forgetJudgement(position)
                continue
            }
            links[position].typed = typed
        }
        let (typed, positions) = matching
        guard typed.count > 1 else { return }
        reportOverlaps(pending.overlaps(of: positions.map { links[$0].index }) ?? LinkOverlap.analyse(typed), positions: positions)
    }

    /// Drops what was judged of the path of a link that takes no part (its `unbuildable-link`
    /// is reported all the same, when its path is judged).
    private mutating func forgetJudgement(_ position: Int) {
        links[position].builtPrefix = nil
        links[position].condition = nil
        links[position].failingEnvironment = nil
    }

    /// The program's files with every file after those it imports, else by path: the order
    /// in which "earlier" is meant between links of different files.
    static func order(_ files: [FileID], in project: Project) -> [FileID] {
        // (Over the files that declare links: few.)
        var remaining = Set(files)
        var ordered: [FileID] = []
        while !remaining.isEmpty {
            // The files none of whose imports among the remaining ones is left, by path.
            let ready = remaining.filter { file in !remaining.contains { $0 != file && project.closures[file].contains($0) } }
            let pool = ready.isEmpty ? remaining : ready  // (an import cycle: by path)
            let next = pool.min { project.files[$0].path < project.files[$1].path }!
            ordered.append(next)
            remaining.remove(next)
        }
        return ordered
    }

    /// The same links in a project moved by a trivia edit: their positions read again.
    mutating func rebase(onto project: Project) {
        for position in links.indices {
            if let moved = project.declaration(links[position].symbol).link { links[position].declaration = moved }
        }
    }

    // MARK: Builds

    /// How much of the path of each link with its screens is built (of each typed one only,
    /// without `untypedToo`), `unbuildable-link` where not all of it (for a link that `typed`
    /// says is judged), and when `judgesConditions` the condition under which it all is.
    private mutating func judgeBuilds(_ facts: PathFacts, conditions judgesConditions: Bool, untypedToo: Bool,
                                      in manager: BDD? = nil, typed: (Link) -> Bool) {
        let semantics = facts.semantics
        guard let rootBody = facts.rootBody else { return }
        let conditions = PathCondition(semantics: semantics, in: manager)
        // Links share the starts of their paths: each prefix is followed once.
        let cache = prefixes
        if cache.steps.isEmpty { cache.steps.append(([(rootBody, BDD.one)], BDD.one, false, false)) }
        let names = judgesConditions ? cache.names ?? LinkCondition.variableNames(semantics) : [:]
        if judgesConditions { cache.names = names }
        // (Held once: reading the graph through `facts` in the loop would copy it.)
        let graph = facts.graph
        for position in links.indices {
            // (The link's fields read in place: a copy of the link retains each of them.)
            guard untypedToo || links[position].isTyped, let screens = links[position].screens else { continue }
            // Each prefix of the path followed: how many elements from the first are built
            // together somewhere (`built`), where the longest such prefix is built
            // (`longest`), and where the whole path is (`whole`).
            var prefix = 0
            var built = 0
            var longest = BDD.one
            var whole = BDD.one
            var counting = true
            // Whether the first element not built was passed misspelt on its way.
            var failedMisspelt = false
            for screen in screens {
                prefix = cache.step(prefix, graph.screenCode(screen) ?? -1, conditions)
                whole = cache.steps[prefix].built
                if counting && whole != BDD.zero {
                    built += 1
                    longest = whole
                } else {
                    if counting { failedMisspelt = cache.steps[prefix].misspelt }
                    counting = false
                }
            }
            links[position].builtPrefix = built
            // (Judged only where no unresolved name, syntax hole or cycle was on the way: the
            // path's condition and whether it is built do not depend on how those are read;
            // nor where its first element not built was misspelt in the tree, `screen Detial`
            // for `Detail`: that name's error is the one reported.)
            if cache.steps[prefix].uncertain || failedMisspelt { continue }
            if judgesConditions {
                if cache.conditions[whole] == nil { cache.conditions[whole] = LinkCondition.of(whole, semantics, names: names) }
                links[position].condition = cache.conditions[whole]
                if whole != BDD.one {
                    if cache.failing[whole] == nil { cache.failing[whole] = Self.environment(conditions.bdd.not(whole), facts, cache, in: conditions.bdd) }
                    links[position].failingEnvironment = cache.failing[whole]
                }
            }
            if built < screens.count && typed(links[position]) {
                reportUnbuildable(position, built: built, longest: longest, facts, conditions, rootBody)
            }
        }
    }

    /// `unbuildable-link` for the link at `position`, whose first `built` elements are built
    /// together where `longest` holds.
    private mutating func reportUnbuildable(_ position: Int, built: Int, longest: BDD.Ref, _ facts: PathFacts,
                                            _ conditions: PathCondition, _ rootBody: Int) {
        let link = links[position]
        let project = facts.project
        let screens = link.screens!
        // An environment that builds the longest prefix, with the defaults where it is free:
        // the reason is the one a preview under it gives.
        let given = Self.environment(longest, facts, self.prefixes, in: conditions.bdd)
        if self.prefixes.programEnvironments[given] == nil {
            self.prefixes.programEnvironments[given] = (try? ProgramEnvironment(given, program: facts.program, project: project))
                ?? (try! ProgramEnvironment(Environment(), program: facts.program, project: project))
        }
        let environment = self.prefixes.programEnvironments[given]!
        let resolution = Resolution.resolve(screens: screens, program: facts.program, project: project, environment: environment)
        let reason = resolution.elements[built].reason ?? "it is not built there"
        let element = link.declaration.path[built]
        let prefix = shortestPrefix(screens.map { facts.graph.screenCode($0) ?? -1 }, facts, conditions)
        let finding = UnbuildableLink.Finding(link: link.name, element: element.screen.text, reason: reason, prefix: prefix)
        let detail = prefix.map { UnbuildableLink.Detail(pathStart: link.declaration.path[0].range.lowerBound, prefix: $0) }
        // (The reason may quote where a node is, `anyOf` at 12:23: a whitespace edit before it
        // makes the diagnostic again rather than move it.)
        diagnostics.append(Diagnostic(UnbuildableLink.self, file: link.symbol.file, range: element.range,
                                      message: UnbuildableLink.message(finding), quotesPosition: true,
                                      detail: detail.map { DiagnosticDetail($0) }))
    }

    /// What the searches for a prefix (`shortestPrefix(_:_:_:)`) may take, in steps of a
    /// path, over all the program's links: past it, an unbuildable link gets no fix rather
    /// than keep an editor waiting (every link is unbuildable while the top of the tree has a
    /// typo in it).
    static let prefixSearchSteps = 200_000
    private var prefixSearchLeft = ProgramLinks.prefixSearchSteps

    /// The shortest run of screens without parameters (at most three) that, put before the
    /// path, makes it buildable; the first such run in the order of the program's screens.
    /// Runs are tried only as far as they are built themselves, and each path is followed
    /// from its run's place among the prefixes already followed (`Prefixes`).
    mutating func shortestPrefix(_ codes: [Int], _ facts: PathFacts, _ conditions: PathCondition) -> [String]? {
        let cache = prefixes
        if cache.candidates == nil {
            cache.candidates = facts.graph.screens.enumerated().filter { _, s in !facts.project.declaration(s).hasParameters }
                .map { (code: $0.offset, name: facts.project.declaration($0.element).name.text) }
                .sorted { $0.name < $1.name }
        }
        let candidates = cache.candidates!
        guard !candidates.isEmpty else { return nil }
        // Each run by its candidates and its place in `cache.steps`.
        var runs: [(run: [Int], at: Int)] = [([], 0)]
        for _ in 1...3 {
            var next: [(run: [Int], at: Int)] = []
            for (run, at) in runs {
                for candidate in candidates.indices {
                    guard prefixSearchLeft > 0 else { return nil }
                    prefixSearchLeft -= 1
                    let longer = cache.step(at, candidates[candidate].code, conditions)
                    guard cache.steps[longer].built != BDD.zero else { continue }
                    var end = longer
                    for code in codes where cache.steps[end].built != BDD.zero {
                        prefixSearchLeft -= 1
                        end = cache.step(end, code, conditions)
                    }
                    if cache.steps[end].built != BDD.zero { return (run + [candidate]).map { candidates[$0].name } }
                    next.append((run + [candidate], longer))
                }
            }
            runs = next
            if runs.isEmpty || runs.count > 4096 { return nil }
        }
        return nil
    }

    /// The values of an environment in `environments` (a function of the condition
    /// variables, in `manager`) for the conditions it reads: flags true and optionals present
    /// where it leaves them free.
    static func environment(_ environments: BDD.Ref, _ facts: PathFacts, _ cache: Prefixes, in manager: BDD) -> Environment {
        let semantics = facts.semantics
        if cache.conditionsOfVariable == nil {
            var conditions: [Int: [Int]] = [:]
            for (condition, variable) in semantics.variableOfCondition.enumerated() { conditions[Int(variable), default: []].append(condition) }
            cache.conditionsOfVariable = conditions
        }
        var given = Environment()
        var current = environments
        while let (variable, low, high) = manager.top(current) {
            let value = high != BDD.zero
            current = value ? high : low
            for condition in cache.conditionsOfVariable![variable] ?? [] {
                guard case .symbol(let s) = facts.graph.conditions[condition] else { continue }
                let declaration = facts.project.declaration(s)
                if declaration.kind == .flag { given.flags[declaration.name.text] = value } else { given.optionals[declaration.name.text] = value }
            }
        }
        return given
    }

    // MARK: Overlaps

    /// `ambiguous-link` and `shadowed-link`, exactly, over the links that take part
    /// (`matching`, whose positions in `links` are `positions`): what `LinkOverlap` found.
    private mutating func reportOverlaps(_ result: LinkOverlap.Result, positions: [Int]) {
        // Per later link, the earlier links it ties with, and a URL of the first tie.
        var ties: [Int: (earlier: [Int], url: String)] = [:]
        for tie in result.ties {
            ties[tie.second, default: ([], tie.url)].earlier.append(tie.first)
        }
        for (second, tie) in ties.sorted(by: { $0.key < $1.key }) {
            let link = links[positions[second]]
            let earlier = tie.earlier.map { links[positions[$0]] }
            let finding = AmbiguousLink.Finding(link: link.name, earlier: earlier.map(\.name), url: tie.url)
            diagnostics.append(Diagnostic(AmbiguousLink.self, file: link.symbol.file, range: link.declaration.patternRange,
                                          message: AmbiguousLink.message(finding),
                                          related: earlier.map { RelatedLocation(file: $0.symbol.file, range: $0.declaration.patternRange,
                                                                                 message: "`\($0.name)` matches it as well") }))
        }
        for (index, by) in result.shadowed.sorted(by: { $0.key < $1.key }) {
            let link = links[positions[index]]
            let takers = by.map { links[positions[$0]] }
            let finding = ShadowedLink.Finding(link: link.name, by: takers.map(\.name))
            diagnostics.append(Diagnostic(ShadowedLink.self, file: link.symbol.file, range: link.declaration.patternRange,
                                          message: ShadowedLink.message(finding),
                                          related: takers.map { RelatedLocation(file: $0.symbol.file, range: $0.declaration.patternRange,
                                                                                message: "`\($0.name)` is more specific") }))
        }
    }
}

/// What following the links' paths reads of a program's facts: held apart from the facts,
/// whose flows the analysis grows meanwhile (see `ProgramLinks.following(_:pending:)`).
struct PathFacts {
    let semantics: Semantics
    let graph: BuilderGraph
    let project: Project
    let program: Program
    let rootBody: Int?

    init(_ facts: ProgramFacts) {
        semantics = facts.semantics
        graph = facts.graph
        project = facts.project
        program = facts.program
        rootBody = facts.rootBody
    }
}
