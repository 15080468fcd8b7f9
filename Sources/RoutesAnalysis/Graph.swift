import RoutesModel
import RoutesSyntax

/// The builder nodes of every file of a project in one numbering ("global ids"), with their
/// names resolved, so that the analyses can treat references, nestings and branches
/// uniformly. Unresolved and wrong-kind names are `nil`.
struct BuilderGraph {
    enum Kind {
        /// `screen S` (element code of S) with its nesting.
        case screen(Int?, nesting: Int?)
        case anyOf([Int])
        /// `conditional f` / `if let o`: a boolean variable, then, else (nil: `empty`).
        case condition(Int, then: Int, else: Int?)
        /// `if screen S`.
        case ifScreen(Int?, then: Int, else: Int?)
        case wildcard(Int?, body: Int)
        /// A named builder (index into `builders`).
        case reference(Int?)
        /// `empty`, or a hole a syntax error left.
        case nothing
    }

    struct Node {
        var kind: Kind
        var file: FileID
        var local: NodeID
        /// The syntactic parent (within one body), nil at a body's top.
        var parent: Int?
        /// The position among the parent's children (an `anyOf` branch's index).
        var indexInParent: Int = 0
    }

    struct Builder {
        var symbol: Symbol
        var name: String
        /// Global id of the body (nil when a syntax error left none).
        var body: Int?
    }

    var project: Project
    private(set) var nodes: [Node] = []
    /// Global id of a file's node 0.
    private(set) var base: [Int] = []
    /// A number per declaration of the project: a file's declaration i is
    /// `declarationBase[file] + i`.
    private(set) var declarationBase: [Int] = []
    private(set) var declarationCount = 0
    private(set) var builders: [Builder] = []
    private(set) var builderIndex = DeclarationSlots<Int?>(initial: nil)
    /// Screen symbols, by element code.
    private(set) var screens: [Symbol] = []
    private(set) var screenCode = DeclarationSlots<Int?>(initial: nil)
    /// Flag and optional symbols, and one entry per unresolved condition name, by variable
    /// (offset by the element bits, see `Semantics`).
    private(set) var conditions: [ConditionKey] = []
    private(set) var conditionIndex: [ConditionKey: Int] = [:]
    /// True for nodes whose name did not resolve to the right kind.
    private(set) var unresolved: [Bool] = []

    enum ConditionKey: Hashable {
        case symbol(Symbol)
        /// An unresolved flag or optional: an unknown condition (SPEC §5.3), one per name.
        case unknown(String)
    }

    init(project: Project) {
        self.project = project
        builderIndex = DeclarationSlots(project, initial: nil)
        screenCode = DeclarationSlots(project, initial: nil)
        for f in project.files.indices {
            for i in project.files[f].model.declarations.indices {
                let s = Symbol(file: f, declaration: i)
                switch project.kind(of: s) {
                case .screen:
                    screenCode[s] = screens.count
                    screens.append(s)
                case .flag, .optional:
                    conditionIndex[.symbol(s)] = conditions.count
                    conditions.append(.symbol(s))
                default:
                    break
                }
            }
        }
        var total = 0
        for f in project.files {
            base.append(total)
            total += f.model.nodes.count
            declarationBase.append(declarationCount)
            declarationCount += f.model.declarations.count
        }
        nodes.reserveCapacity(total)
        unresolved.reserveCapacity(total)
        for f in project.files.indices {
            for i in project.files[f].model.declarations.indices {
                let s = Symbol(file: f, declaration: i)
                guard project.kind(of: s) == .builder else { continue }
                let d = project.declaration(s)
                builderIndex[s] = builders.count
                builders.append(Builder(symbol: s, name: d.name.text, body: d.body.map { base[f] + $0 }))
            }
        }
        for f in project.files.indices {
            for i in project.files[f].model.nodes.indices {
                let (kind, bad) = resolveKind(project.files[f].model.nodes[i], file: f)
                nodes.append(Node(kind: kind, file: f, local: i, parent: nil))
                unresolved.append(bad)
            }
        }
        for g in nodes.indices {
            func adopt(_ c: Int, _ i: Int) {
                nodes[c].parent = g
                nodes[c].indexInParent = i
            }
            switch nodes[g].kind {
            case .anyOf(let bs): for (i, c) in bs.enumerated() { adopt(c, i) }
            case .condition(_, let t, let e), .ifScreen(_, let t, let e):
                adopt(t, 0)
                if let e { adopt(e, 1) }
            case .wildcard(_, let body): adopt(body, 0)
            case .screen, .reference, .nothing: break
            }
        }
    }

    private func symbol(_ name: Name?, in file: FileID, _ kind: DeclarationKind) -> Symbol? {
        guard let name, let s = project.resolve(name, in: file), project.kind(of: s) == kind else { return nil }
        return s
    }

    private mutating func condition(_ name: Name?, in file: FileID, _ kind: DeclarationKind) -> Int {
        let key: ConditionKey
        if let s = symbol(name, in: file, kind) {
            key = .symbol(s)
        } else {
            key = .unknown("\(kind.rawValue) \(name?.text ?? "?")")
        }
        if let i = conditionIndex[key] { return i }
        conditionIndex[key] = conditions.count
        conditions.append(key)
        return conditions.count - 1
    }

    private mutating func resolveKind(_ n: BuilderNode, file f: FileID) -> (Kind, Bool) {
        let b = base[f]
        switch n.kind {
        case .screen(let name, _, let nesting):
            let code = symbol(name, in: f, .screen).flatMap { screenCode[$0] }
            return (.screen(code, nesting: nesting.map { b + $0 }), code == nil)
        case .anyOf(let branches):
            return (.anyOf(branches.map { b + $0 }), false)
        case .conditional(let name, let then, let els):
            return (.condition(condition(name, in: f, .flag), then: b + then, else: b + els), false)
        case .ifLet(let name, let then, let els):
            return (.condition(condition(name, in: f, .optional), then: b + then, else: els.map { b + $0 }), false)
        case .ifScreen(let name, let then, let els):
            let code = symbol(name, in: f, .screen).flatMap { screenCode[$0] }
            return (.ifScreen(code, then: b + then, else: els.map { b + $0 }), code == nil)
        case .wildcard(let name, let body):
            let code = symbol(name, in: f, .screen).flatMap { screenCode[$0] }
            return (.wildcard(code, body: b + body), code == nil)
        case .reference(let name):
            let index = symbol(name, in: f, .builder).flatMap { builderIndex[$0] }
            return (.reference(index), index == nil)
        case .empty:
            return (.nothing, false)
        case .missing:
            return (.nothing, true)
        }
    }

    /// Children within one evaluation (not the nesting, not the referenced body).
    func children(_ g: Int) -> [Int] {
        switch nodes[g].kind {
        case .screen: return []
        case .anyOf(let bs): return bs
        case .condition(_, let t, let e), .ifScreen(_, let t, let e): return e.map { [t, $0] } ?? [t]
        case .wildcard(_, let body): return [body]
        case .reference, .nothing: return []
        }
    }

    /// Calls `body` with each child of g, in order, without building a list.
    @inline(__always)
    func forEachChild(_ g: Int, _ body: (Int) -> Void) {
        switch nodes[g].kind {
        case .anyOf(let bs): for b in bs { body(b) }
        case .condition(_, let t, let e), .ifScreen(_, let t, let e):
            body(t)
            if let e { body(e) }
        case .wildcard(_, let b): body(b)
        case .screen, .reference, .nothing: break
        }
    }

    func model(_ g: Int) -> BuilderNode {
        project.files[nodes[g].file].model.nodes[nodes[g].local]
    }

    func global(_ file: FileID, _ local: NodeID) -> Int { base[file] + local }

    /// The number of a declaration (see `declarationBase`).
    func declarationNumber(_ s: Symbol) -> Int { declarationBase[s.file] + s.declaration }

    /// The element codes of the screens declared in `files`, in file and declaration order.
    func screenCodes(inFiles files: [FileID]) -> [Int] {
        files.flatMap { f in
            project.files[f].model.declarations.indices.compactMap { screenCode[Symbol(file: f, declaration: $0)] }
        }
    }

    /// The number of nodes of a file.
    func fileNodeCount(_ file: FileID) -> Int { (file + 1 < base.count ? base[file + 1] : nodes.count) - base[file] }

    /// The screen declaration of an element code.
    func screenDeclaration(_ code: Int) -> Declaration { project.declaration(screens[code]) }

    /// The top of the body that contains g.
    func bodyTop(_ g: Int) -> Int {
        var x = g
        while let p = nodes[x].parent { x = p }
        return x
    }
}

/// A value per declaration of a project, in per-file slots: no hashing, for lookups the
/// analyses make once per name or per declaration (screen codes, builder indexes, which
/// declarations are mentioned). A symbol outside the project reads as `initial`.
struct DeclarationSlots<Value> {
    private var slots: [[Value]] = []
    private let initial: Value

    /// Empty: every symbol reads as `initial`.
    init(initial: Value) { self.initial = initial }

    init(_ project: Project, initial: Value) {
        self.initial = initial
        slots = project.files.map { [Value](repeating: initial, count: $0.model.declarations.count) }
    }

    subscript(_ s: Symbol) -> Value {
        get {
            guard s.file < slots.count, s.declaration < slots[s.file].count else { return initial }
            return slots[s.file][s.declaration]
        }
        set { slots[s.file][s.declaration] = newValue }
    }
}
