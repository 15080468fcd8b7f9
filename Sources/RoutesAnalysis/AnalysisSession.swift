import RoutesModel
import RoutesSyntax

/// One analysis of a project, kept for questions editors ask: its diagnostics, which
/// dependencies are in scope at a node, an example path that builds a screen. Not
/// thread-safe; one per snapshot of the project.
public final class AnalysisSession {
    public let project: Project
    let semantics: Semantics
    private var checkers: [ProgramChecker] = []
    /// Every diagnostic of the project, sorted (see `Analysis.order`).
    public let diagnostics: [Diagnostic]
    /// Flow storage and a region for scope questions about one checker's program (the last
    /// one asked about), and the node whose region it holds.
    private var query: (checker: Int, storage: FlowStorage, region: Region, node: Int?)? = nil

    /// Why the analyses of SPEC §5 were not run to the end, when they were not: their
    /// boolean functions outgrew the budget (see `BDD.nodeLimit`). Then `diagnostics` holds
    /// only what needs no analysis (syntax, names, kinds, duplicates, imports, wildcards),
    /// scope questions answer `unknown` and examples `notAnalysed`; the CLI and the server
    /// say so to the user.
    public let stopped: String?

    public init(project: Project) {
        self.project = project
        semantics = Semantics(graph: BuilderGraph(project: project))
        var all = Set(project.diagnostics)
        if !semantics.bdd.exhausted {
            all.formUnion(Analysis.builderCycles(semantics))
            for program in project.programs {
                var checker = ProgramChecker(semantics: semantics, program: program)
                checker.run()
                if semantics.bdd.exhausted { break }
                all.formUnion(checker.diagnostics)
                checkers.append(checker)
            }
        }
        if semantics.bdd.exhausted {
            // Everything computed with the manager may be wrong: keep none of it.
            checkers = []
            all = Set(project.diagnostics)
            stopped = "the routing conditions are too entangled to check exactly (more than \(semantics.bdd.nodeLimit) decision-diagram nodes or \(semantics.bdd.stepLimit) steps); unreachable screens, shadowed branches, missing dependencies, pushes in sheets, builder cycles, wildcard mismatches and unused declarations are not reported"
        } else {
            stopped = nil
        }
        diagnostics = all.sorted(by: Analysis.order)
    }

    private init(project: Project, semantics: Semantics, checkers: [ProgramChecker], diagnostics: [Diagnostic], stopped: String?) {
        self.project = project
        self.semantics = semantics
        self.checkers = checkers
        self.diagnostics = diagnostics
        self.stopped = stopped
    }

    /// Per program, the nodes its analysis keeps state for (its own files' nodes).
    var programNodeCounts: [Int] { checkers.map { $0.nodes.count } }

    /// Whether the session can be ``rebased(onto:file:edit:)`` over an edit: always for an edit
    /// in a comment; for one in whitespace only when no message quotes a line and column
    /// (whitespace may move what it quotes).
    public func canRebase(over edit: TriviaEdit) -> Bool {
        !edit.isWhitespace || !diagnostics.contains(where: ProgramChecker.quotesPosition)
    }

    /// The session of `newProject`, the project after an edit inside one comment or whitespace
    /// run of `file` (``Project/applyingTriviaEdit(file:range:replacement:newSource:)``): no
    /// analysis depends on positions, so every result is kept and only positions move. This
    /// session shares its semantics with the new one and must not be used afterwards.
    public func rebased(onto newProject: Project, file: FileID, edit: TriviaEdit) -> AnalysisSession {
        precondition(canRebase(over: edit), "a session whose messages quote positions cannot move over whitespace edits")
        semantics.graph.project = newProject
        var moved = checkers
        for i in moved.indices { moved[i].rebase(onto: newProject, graph: semantics.graph) }
        let shifted = diagnostics.map { $0.shifted(edit, in: file) }.sorted(by: Analysis.order)
        return AnalysisSession(project: newProject, semantics: semantics, checkers: moved, diagnostics: shifted, stopped: stopped)
    }

    /// Whether a dependency or optional is in scope at a node (SPEC §5.2).
    public enum ScopeStatus: Sendable, Hashable {
        /// In scope on every way the node is built (or it needs no scope).
        case inScope
        /// Some way builds the node without it; the text says why.
        case notInScope(String)
        /// The node is in no program's used builders: no way is known.
        case unknown
    }

    /// For a `screen` node (or an `if let`) of a file: each dependency and optional visible in
    /// the file, and whether it is in scope there on every way, over the programs that use it.
    public func scope(atNode node: NodeID, file: FileID) -> [(symbol: Symbol, status: ScopeStatus)] {
        let graph = semantics.graph
        let g = graph.global(file, node)
        // The session is one snapshot: a node's answer never changes (a completion list asked
        // for again, or hover after completion, costs nothing the second time).
        if let known = scopeCache[g] { return known }
        let answer = computeScope(g, file: file)
        scopeCache[g] = answer
        return answer
    }

    private var scopeCache: [Int: [(symbol: Symbol, status: ScopeStatus)]] = [:]

    private func computeScope(_ g: Int, file: FileID) -> [(symbol: Symbol, status: ScopeStatus)] {
        let graph = semantics.graph
        let programs = checkers.indices.filter { checkers[$0].used[g] }
        var out: [(Symbol, ScopeStatus)] = []
        for (_, s) in project.scopes[file].sorted(by: { $0.key < $1.key }) {
            let d = project.declaration(s)
            guard d.kind == .dependency || d.kind == .optional else { continue }
            if programs.isEmpty {
                out.append((s, .unknown))
                continue
            }
            var status = ScopeStatus.inScope
            for c in programs {
                if query?.checker != c {
                    query = (c, FlowStorage(size: checkers[c].nodes.count), Region(nodes: checkers[c].nodes), nil)
                }
                guard let (_, storage, region, node) = query else { continue }
                if node != g {
                    checkers[c].fillRegion(region, leadingTo: g)
                    query?.node = g
                }
                guard let items = checkers[c].scopeItems(s) else { continue }
                for item in items where checkers[c].wayWithout(item, at: g, storage: storage, region: region) != nil {
                    switch item {
                    case .provider(let p):
                        status = .notInScope("provided by `\(graph.screenDeclaration(p).name.text)`, and some way reaches this node before any \(graph.screenDeclaration(p).name.text)")
                    case .optional:
                        status = .notInScope("optional: in scope only inside `if let \(d.name.text)`")
                    }
                    break
                }
                if case .notInScope = status { break }
            }
            out.append((s, status))
        }
        return out
    }

    /// An example of how a screen can be shown.
    public enum ScreenExample: Sendable, Hashable {
        /// A path literal and the environment values that matter (flags: true/false;
        /// optionals: true = present).
        case reached(path: [String], flags: [(String, Bool)], optionals: [(String, Bool)])
        /// Why no path builds it.
        case unreachable(String)
        /// Not known: the analysis stopped (see `stopped`).
        case notAnalysed(String)

        public static func == (a: ScreenExample, b: ScreenExample) -> Bool {
            switch (a, b) {
            case let (.reached(p1, f1, o1), .reached(p2, f2, o2)):
                return p1 == p2 && f1.map(\.0) == f2.map(\.0) && f1.map(\.1) == f2.map(\.1)
                    && o1.map(\.0) == o2.map(\.0) && o1.map(\.1) == o2.map(\.1)
            case let (.unreachable(x), .unreachable(y)), let (.notAnalysed(x), .notAnalysed(y)):
                return x == y
            default:
                return false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .reached(let p, _, _): hasher.combine(p)
            case .unreachable(let r): hasher.combine(r)
            case .notAnalysed(let r): hasher.combine(1); hasher.combine(r)
            }
        }
    }

    /// An example path and environment that build a `screen` node, or why none does.
    public func example(screenNode node: NodeID, file: FileID) -> ScreenExample {
        if let stopped { return .notAnalysed(stopped) }
        let graph = semantics.graph
        let g = graph.global(file, node)
        guard case .screen(let code?, _) = graph.nodes[g].kind else {
            return .unreachable("the screen name does not resolve")
        }
        var sawUsed = false
        for c in checkers.indices where checkers[c].used[g] {
            sawUsed = true
            let envs = checkers[c].flow.builtEnvironments(g)
            if envs == BDD.zero { continue }
            if let example = concreteExample(checker: c, target: g, code: code, environments: envs) {
                return example
            }
        }
        if !sawUsed {
            return .unreachable("it is in no program's routing tree (no `root` uses this builder)")
        }
        let head = graph.model(g).head
        if let d = diagnostics.first(where: { $0.rule == .unreachableScreen && $0.file == file && $0.range == head }) {
            return .unreachable(d.message)
        }
        return .unreachable("no path under any environment builds it")
    }

    /// An example for a screen declaration: through any of its nodes.
    public func example(screen: Symbol) -> ScreenExample {
        if let stopped { return .notAnalysed(stopped) }
        let graph = semantics.graph
        guard let code = graph.screenCode[screen] else { return .unreachable("not a screen") }
        var firstReason: ScreenExample? = nil
        var placed = false
        for (g, n) in graph.nodes.enumerated() {
            guard case .screen(code?, _) = n.kind, checkers.contains(where: { $0.used[g] }) else { continue }
            placed = true
            let e = example(screenNode: n.local, file: n.file)
            if case .reached = e { return e }
            if firstReason == nil { firstReason = e }
        }
        if !placed { return .unreachable("it is never placed in the routing tree of any program") }
        return firstReason ?? .unreachable("no path under any environment builds it")
    }

    /// A concrete path under one environment of `environments`, found breadth-first with the
    /// §4.1 interpreter (bounded effort).
    private func concreteExample(checker c: Int, target g: Int, code: Int, environments: BDD.Ref) -> ScreenExample? {
        let graph = semantics.graph
        let program = checkers[c].program
        guard let assignment = semantics.bdd.anySatisfying(environments) else { return nil }
        var flags: [(String, Bool)] = []
        var optionals: [(String, Bool)] = []
        var environment = Environment()
        // Variables number the conditions from the last (see `Semantics.init`); list them in
        // declaration order.
        let count = graph.conditions.count
        for (index, value) in assignment.map({ (count - 1 - $0.key, $0.value) }).sorted(by: { $0.0 < $1.0 }) {
            guard index >= 0, index < graph.conditions.count, case .symbol(let s) = graph.conditions[index] else { continue }
            let d = project.declaration(s)
            if d.kind == .flag {
                flags.append((d.name.text, value))
                environment.flags[d.name.text] = value
            } else {
                optionals.append((d.name.text, value))
                environment.optionals[d.name.text] = value
            }
        }
        guard let rootBody = checkers[c].rootBody else { return nil }
        let target = NodeRef(file: graph.nodes[g].file, node: graph.nodes[g].local)
        // First the way the analysis found (its screen nodes are the elements), checked with
        // the interpreter under the chosen environment.
        var wayPath: [Symbol] = []
        for w in checkers[c].flow.way(to: g) {
            if case .screen(let e?, _) = graph.nodes[w].kind { wayPath.append(graph.screens[e]) }
        }
        if wayPath.last != graph.screens[code] { wayPath.append(graph.screens[code]) }
        if let programEnvironment = try? ProgramEnvironment(environment, program: program, project: project),
           case let resolution = Resolution.resolve(screens: wayPath, texts: wayPath.map { project.declaration($0).name.text },
                                                    program: program, project: project, environment: programEnvironment),
           resolution.elements.last?.node == target, resolution.elements.allSatisfy(\.built) {
            return .reached(path: wayPath.map { project.declaration($0).name.text }, flags: flags, optionals: optionals)
        }
        let programFiles = Set(program.files)
        let screens = graph.screens.filter { programFiles.contains($0.file) }
        struct Step { var body: Int; var path: [String] }
        var queue = [Step(body: rootBody, path: [])]
        var seen = Set([rootBody])
        var budget = 2_000
        var head = 0
        while head < queue.count && budget > 0 {
            let step = queue[head]
            head += 1
            if step.path.count > 50 { continue }
            let ref = NodeRef(file: graph.nodes[step.body].file, node: graph.nodes[step.body].local)
            for s in screens {
                budget -= 1
                guard case .built(let node, _, _) = Resolution.build(ref, element: s, project: project, environment: environment) else { continue }
                // The element as written in the path: a `wildcard` may have built another screen.
                let path = step.path + [project.declaration(s).name.text]
                if node == target { return .reached(path: path, flags: flags, optionals: optionals) }
                let builtGlobal = graph.global(node.file, node.node)
                if case .screen(_, let nesting?) = graph.nodes[builtGlobal].kind, seen.insert(nesting).inserted {
                    queue.append(Step(body: nesting, path: path))
                }
            }
        }
        // Over the budget: the way the analysis found (its screen nodes are the elements).
        var path: [String] = []
        for w in checkers[c].flow.way(to: g) {
            if case .screen(let e?, _) = graph.nodes[w].kind { path.append(graph.screenDeclaration(e).name.text) }
        }
        if path.last != graph.screenDeclaration(code).name.text { path.append(graph.screenDeclaration(code).name.text) }
        return .reached(path: path, flags: flags, optionals: optionals)
    }
}
