import RoutesModel
import RoutesSyntax

/// A node of a program's builder graph, by its global id: what findings name.
struct GraphNode: Hashable, Comparable, Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
    static func < (a: GraphNode, b: GraphNode) -> Bool { a.index < b.index }
}

/// A screen of a program by its element code (see `BuilderGraph.screens`).
struct ScreenCode: Hashable, Sendable {
    let index: Int
    init(_ index: Int) { self.index = index }
}

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

    /// What `root` and the used builders mention by name, and what they most likely meant by
    /// an undefined name or in text the parser skipped (see `findMentions`), by declaration
    /// number.
    private(set) var mentioned: BitSet
    private(set) var guessed: BitSet

    init(semantics: Semantics, program: Program) {
        self.semantics = semantics
        graph = semantics.graph
        project = semantics.graph.project
        self.program = program
        let graph = semantics.graph
        used = [Bool](repeating: false, count: graph.nodes.count)
        usedBuilders = BitSet(count: graph.builders.count)
        mentioned = BitSet(count: graph.declarationCount)
        guessed = BitSet(count: graph.declarationCount)
        let hasNoPushSheets = graph.presentations.contains(.sheetNoPush)
        let sigmaCount = hasNoPushSheets ? 2 : 1
        flow = Flow(semantics: semantics, crossNestings: true, sigmaCount: sigmaCount,
                    storage: FlowStorage(size: graph.nodes.count * sigmaCount))
        rootBody = project.declaration(program.root).body.map { graph.global(program.root.file, $0) }
        if let rootBody { markUsed(from: rootBody) }
    }

    /// Points the facts at the project after an edit that moved positions only.
    mutating func rebase(onto newProject: Project, graph newGraph: BuilderGraph) {
        project = newProject
        graph = newGraph
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

    /// The flows from `root` (see `flow`).
    mutating func resolvePaths() {
        guard let root = rootBody else { return }
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

    /// Whether a flow reaches node g: a screen node built, any other node evaluated.
    func isReached(_ g: Int, in flow: Flow) -> Bool {
        if case .screen = graph.nodes[g].kind { return flow.isBuilt(g) }
        return flow.isEvaluated(g)
    }

    // MARK: Mentions

    /// What `root` and the used builders mention. A name of the wrong kind still mentions
    /// its declaration, and an undefined name mentions the declaration it was most likely
    /// meant to be (the suggestion of its `UndefinedName` error), so that a typo is one error,
    /// not also an unused or unplaced warning.
    mutating func findMentions() {
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
            // undefined name mentions what its `UndefinedName` error suggests, found by the project.
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
        self.mentioned = mentioned
        self.guessed = guessed
    }

    /// A later declaration of a name already declared in this program (reported as
    /// a `DuplicateDeclaration`; nothing refers to it).
    func isDuplicate(_ s: Symbol) -> Bool {
        project.scopes[program.root.file][project.files[s.file].model.declarations[s.declaration].name.text] != s
    }

    // MARK: Words

    /// A related location at node g's head.
    func location(_ g: Int, _ message: String) -> RelatedLocation {
        RelatedLocation(file: graph.nodes[g].file, range: graph.model(g).head, message: message)
    }

    /// Node g's head (`screen Home`, `conditional isLoggedIn`) as written.
    func headText(_ g: Int) -> String {
        project.quoted(file: graph.nodes[g].file, graph.model(g).head)
    }

    /// Node g's head as `line:column` (1-based, columns in Unicode scalars).
    func position(_ g: Int) -> String {
        let file = project.files[graph.nodes[g].file]
        let p = file.text.position(of: graph.model(g).head.lowerBound, encoding: .scalars)
        return "\(p.line + 1):\(p.column + 1)"
    }

    func screenName(_ code: Int) -> String { graph.screenDeclaration(code).name.text }

    /// Node g as its file's node (what diagnostics' details name).
    func nodeRef(_ g: Int) -> NodeRef { NodeRef(file: graph.nodes[g].file, node: graph.nodes[g].local) }

    /// A diagnostic of `rule` at node g's head.
    func diagnostic<R: RuleDefinition>(_ rule: R.Type, at g: Int, _ message: String, related: [RelatedLocation] = [],
                                       quotesPosition: Bool = false) -> Diagnostic {
        Diagnostic(rule, file: graph.nodes[g].file, range: graph.model(g).head, message: message, related: related,
                   quotesPosition: quotesPosition)
    }
}
