import RoutesModel
import RoutesSyntax

/// The interpreter of the build semantics (docs/language.md#how-a-path-is-built), iterative (an
/// explicit stack), so that chains of references of any length cannot overflow the call stack.
/// A reference to a builder already being evaluated for the same element is a builder cycle: the
/// build never finishes (it diverges), so the element is not built and no later `anyOf` branch
/// is tried. Results of named builders are memoized per element (unless a cycle was cut
/// while computing them), so a builder referenced many times is evaluated once per element: no
/// exponential blow-up.
struct PathEvaluator {
    let project: Project
    let environment: Environment
    /// Locations in this file are written `L:C`, others `path:L:C`; with none, all are
    /// `path:L:C`.
    let home: FileID?
    /// How a place names its file, when not by its display path (generated code names it by
    /// its file name only).
    var fileName: ((FileID) -> String)? = nil

    struct Active: Hashable {
        var builder: Symbol
        var element: Symbol
    }

    enum Frame {
        case anyOf(NodeRef, branches: [NodeID], next: Int, element: Symbol, relevant: String?)
        /// A decision whose taken branch is being evaluated; `reason` explains a failure
        /// that has no inner decision.
        case decision(reason: String)
        case wildcard(NodeRef, saved: Symbol, replaced: Symbol, reason: String)
        case reference(Active, cutsBefore: Int)
    }

    var memo: [Active: BuildOutcome] = [:]
    var cuts = 0
    var index: MayBuildIndex? = nil

    init(project: Project, environment: Environment, home: FileID?) {
        self.project = project
        self.environment = environment
        self.home = home
    }

    func node(_ ref: NodeRef) -> BuilderNode { project.files[ref.file].model.nodes[ref.node] }

    /// The declaration a name resolves to, if it has the given kind.
    func resolved(_ name: Name?, in file: FileID, _ kind: DeclarationKind) -> Symbol? {
        guard let name, let s = project.resolve(name, in: file), project.declaration(s).kind == kind else { return nil }
        return s
    }

    /// The declared name of a symbol.
    func screenName(_ s: Symbol) -> String { project.declaration(s).name.text }

    /// `12:5` in the home file, else `Lib.routes:12:5` (1-based, columns in Unicode scalars).
    func at(_ ref: NodeRef) -> String {
        let sourceFile = project.files[ref.file]
        let position = sourceFile.text.position(of: node(ref).head.lowerBound, encoding: .scalars)
        return ref.file == home ? "\(position.line + 1):\(position.column + 1)"
            : "\(fileName?(ref.file) ?? sourceFile.displayPath):\(position.line + 1):\(position.column + 1)"
    }

    /// "`screen Home` at 12:5".
    func describe(_ ref: NodeRef) -> String {
        let node = node(ref)
        let head = project.quoted(file: ref.file, node.head)
        return "`\(head)` at \(at(ref))"
    }

    func nameText(_ name: Name?) -> String { name?.text ?? "?" }

    /// The state of one `build`: the builders being evaluated for an element, the frames to
    /// go back to, the element being built, the node to evaluate next, and the outcome of the
    /// last node evaluated.
    struct Run {
        var active = Set<Active>()
        var stack: [Frame] = []
        var element: Symbol
        var pending: NodeRef?
        var result: BuildOutcome = .nothing(reason: nil)
        /// Whether the build met a builder cycle: it never finishes, so the frames left are
        /// only unwound.
        var diverged = false
    }

    mutating func build(_ start: NodeRef, element initial: Symbol) -> BuildOutcome {
        var run = Run(element: initial, pending: start)
        while true {
            if let ref = run.pending {
                run.pending = nil
                enter(ref, &run)
                continue
            }
            guard let frame = run.stack.popLast() else { return run.result }
            leave(frame, &run)
        }
    }

    /// Evaluates node `ref`: an outcome at once, or a frame to come back to and the node to
    /// evaluate first.
    private mutating func enter(_ ref: NodeRef, _ run: inout Run) {
        let element = run.element
        switch node(ref).kind {
        case .screen(let name, _, _):
            if let s = resolved(name, in: ref.file, .screen), s == element {
                run.result = .built(ref, screen: s, via: nil)
            } else {
                run.result = .nothing(reason: nil)
            }
        case .anyOf(let span):
            let branches = Array(project.files[ref.file].model.branches(span))
            if branches.isEmpty {
                run.result = .nothing(reason: "`anyOf` at \(at(ref)) has no branches, so it builds nothing")
            } else {
                run.stack.append(.anyOf(ref, branches: branches, next: 0, element: element, relevant: nil))
                run.pending = NodeRef(file: ref.file, node: branches[0])
            }
        case .conditional(let flag, let then, let otherwise):
            enterConditional(ref, flag, then: then, else: otherwise, &run)
        case .ifLet(let optional, let then, let otherwise):
            enterIfLet(ref, optional, then: then, else: otherwise, &run)
        case .ifScreen(let screen, let then, let otherwise):
            enterIfScreen(ref, screen, then: then, else: otherwise, &run)
        case .wildcard(let wildcard, let body):
            guard let s = resolved(wildcard, in: ref.file, .screen) else {
                run.result = .nothing(reason: "`wildcard \(nameText(wildcard))` at \(at(ref)): `\(nameText(wildcard))` is not a declared screen, so it builds nothing")
                return
            }
            if project.declaration(s).hasParameters {
                // (`invalid-wildcard`: nothing gives the new screen its parameters.)
                run.result = .nothing(reason: "`wildcard \(nameText(wildcard))` at \(at(ref)): `\(nameText(wildcard))` has parameters, which a wildcard cannot give, so it builds nothing")
                return
            }
            let (name, elementName) = (screenName(s), screenName(element))
            let why = s == element
                ? "`wildcard \(name)` at \(at(ref)): its builder builds nothing for \(name)"
                : "`wildcard \(name)` at \(at(ref)) replaces \(elementName) by \(name), and its builder builds nothing for \(name)"
            run.stack.append(.wildcard(ref, saved: element, replaced: s, reason: why))
            run.element = s
            run.pending = NodeRef(file: ref.file, node: body)
        case .empty, .missing:
            run.result = .nothing(reason: nil)
        case .reference(let name):
            enterReference(ref, name, &run)
        }
    }

    private func enterConditional(_ ref: NodeRef, _ name: Name?, then: NodeID, else otherwise: NodeID, _ run: inout Run) {
        guard let s = resolved(name, in: ref.file, .flag) else {
            run.result = .nothing(reason: "`conditional \(nameText(name))` at \(at(ref)): `\(nameText(name))` is not a declared flag, so it builds nothing")
            return
        }
        let (flag, elementName) = (screenName(s), screenName(run.element))
        if environment.flag(flag) {
            run.stack.append(.decision(reason: "`conditional \(flag)` is true here and its true branch builds nothing for \(elementName)"))
            run.pending = NodeRef(file: ref.file, node: then)
        } else {
            run.stack.append(.decision(reason: "`conditional \(flag)` is false here and its else builds nothing for \(elementName)"))
            run.pending = NodeRef(file: ref.file, node: otherwise)
        }
    }

    private func enterIfLet(_ ref: NodeRef, _ name: Name?, then: NodeID, else otherwise: NodeID?, _ run: inout Run) {
        guard let s = resolved(name, in: ref.file, .optional) else {
            run.result = .nothing(reason: "`if let \(nameText(name))` at \(at(ref)): `\(nameText(name))` is not a declared optional, so it builds nothing")
            return
        }
        let optional = screenName(s)
        if environment.isPresent(optional) {
            run.stack.append(.decision(reason: "`if let \(optional)`: present, but its then-block builds nothing for \(screenName(run.element))"))
            run.pending = NodeRef(file: ref.file, node: then)
        } else if let otherwise {
            run.stack.append(.decision(reason: "`if let \(optional)`: absent"))
            run.pending = NodeRef(file: ref.file, node: otherwise)
        } else {
            run.result = .nothing(reason: "`if let \(optional)`: absent")
        }
    }

    private func enterIfScreen(_ ref: NodeRef, _ name: Name?, then: NodeID, else otherwise: NodeID?, _ run: inout Run) {
        guard let s = resolved(name, in: ref.file, .screen) else {
            run.result = .nothing(reason: "`if screen \(nameText(name))` at \(at(ref)): `\(nameText(name))` is not a declared screen, so it builds nothing")
            return
        }
        let (tested, elementName) = (screenName(s), screenName(run.element))
        if s == run.element {
            run.stack.append(.decision(reason: "`if screen \(tested)` at \(at(ref)): the element is \(tested), but its then-block builds nothing for it"))
            run.pending = NodeRef(file: ref.file, node: then)
        } else if let otherwise {
            run.stack.append(.decision(reason: "`if screen \(tested)` at \(at(ref)): the element is \(elementName), not \(tested), and its else builds nothing for \(elementName)"))
            run.pending = NodeRef(file: ref.file, node: otherwise)
        } else {
            run.result = .nothing(reason: "`if screen \(tested)` at \(at(ref)): the element is \(elementName), not \(tested), and it has no else")
        }
    }

    /// A reference: its builder's memoized outcome for the element, or its body evaluated (a
    /// reference back to a builder still building the element is a cycle: the build diverges).
    private mutating func enterReference(_ ref: NodeRef, _ name: Name, _ run: inout Run) {
        guard let builder = resolved(name, in: ref.file, .builder) else {
            run.result = .nothing(reason: "`\(name.text)` at \(at(ref)) is not a declared builder, so it builds nothing")
            return
        }
        guard let body = project.declaration(builder).body else {
            run.result = .nothing(reason: "builder `\(name.text)` (referenced at \(at(ref))) has no body (a syntax error), so it builds nothing")
            return
        }
        let key = Active(builder: builder, element: run.element)
        if run.active.contains(key) {
            cuts += 1
            run.result = .nothing(reason: "`\(name.text)` at \(at(ref)) refers back to builder `\(name.text)` while it is still building \(screenName(run.element)) (a builder cycle), so the build never finishes")
            run.diverged = true
        } else if let known = memo[key] {
            run.result = known
        } else {
            run.active.insert(key)
            run.stack.append(.reference(key, cutsBefore: cuts))
            run.pending = NodeRef(file: builder.file, node: body)
        }
    }

    /// Comes back to a frame with the outcome of what was evaluated under it.
    private mutating func leave(_ frame: Frame, _ run: inout Run) {
        switch frame {
        case .anyOf(let ref, let branches, let next, let element, var relevant):
            if case .built = run.result { return }
            // (A build that diverged tries no later branch.)
            if run.diverged { return }
            if case .nothing(let reason?) = run.result, mayBuild(NodeRef(file: ref.file, node: branches[next]), element) {
                relevant = reason
            }
            if next + 1 < branches.count {
                run.stack.append(.anyOf(ref, branches: branches, next: next + 1, element: element, relevant: relevant))
                run.pending = NodeRef(file: ref.file, node: branches[next + 1])
            } else {
                run.result = .nothing(reason: relevant ?? "`anyOf` at \(at(ref)) has no branch for \(screenName(element))")
            }
        case .decision(let reason):
            if case .nothing(nil) = run.result { run.result = .nothing(reason: reason) }
        case .wildcard(let ref, let saved, let replaced, let reason):
            run.element = saved
            switch run.result {
            case .nothing(nil): run.result = .nothing(reason: reason)
            case .built(let built, let screen, .none) where replaced != saved: run.result = .built(built, screen: screen, via: ref)
            default: break
            }
        case .reference(let key, let cutsBefore):
            run.active.remove(key)
            if cuts == cutsBefore { memo[key] = run.result }
        }
    }

    /// Whether the builder could build `element` in some environment, ignoring order:
    /// it contains (through references, not nestings) a `screen` node of that screen or a
    /// `wildcard`. Used to pick the branch of an `anyOf` whose failure explains the most.
    mutating func mayBuild(_ ref: NodeRef, _ element: Symbol) -> Bool {
        if index == nil { index = MayBuildIndex(project) }
        return index!.mayBuild(ref, element)
    }

    /// For a generated resolver (RoutesCodegen), the words `routes tree --path` uses of
    /// `program` where no decision explains a stop: why `from` (the root's body, or the
    /// nesting of screen node `previous`) builds nothing for an element, in the pieces that go
    /// around the element's name; with `from` nil, why nothing is built after screen node
    /// `previous`, which has no nesting (one piece).
    static func failureWords(from: NodeRef?, after previous: NodeRef?, program: Program, project: Project,
                             fileName: @escaping (FileID) -> String) -> [String] {
        // (As `PathResolution.resolve` names places: with the file of each, in a program of
        // several files; the file by `fileName`.)
        var evaluator = PathEvaluator(project: project, environment: Environment(), home: program.files.count > 1 ? nil : program.root.file)
        evaluator.fileName = fileName
        guard let from else {
            return [previous.map { "\(evaluator.describe($0)) has no nesting, so nothing is built after it" }
                ?? "`root` has no builder (a syntax error), so it builds nothing"]
        }
        let marker: Character = "\u{0}"
        return evaluator.describeFailure(from, elementName: String(marker), after: previous)
            .split(separator: marker, omittingEmptySubsequences: false).map(String.init)
    }

    /// Why `from` (the root's body, or the nesting of `after`) builds nothing for the element
    /// when no decision explains it.
    func describeFailure(_ from: NodeRef, element: Symbol, after previous: NodeRef?) -> String {
        describeFailure(from, elementName: screenName(element), after: previous)
    }

    func describeFailure(_ from: NodeRef, elementName: String, after previous: NodeRef?) -> String {
        let context = previous.map { "the nesting of \(describe($0))" } ?? "`root`"
        // Follow references to the node that decided.
        var ref = from
        var seen = Set<Symbol>()
        var through: [String] = []
        while case .reference(let name) = node(ref).kind, let builder = resolved(name, in: ref.file, .builder),
              let body = project.declaration(builder).body, seen.insert(builder).inserted {
            through.append(name.text)
            ref = NodeRef(file: builder.file, node: body)
        }
        var shown = through.map { "`\($0)`" }
        if shown.count > 4 { shown = shown.prefix(2) + ["… (\(shown.count - 3) more)", shown.last!] }
        let via = through.isEmpty ? "" : ", through " + shown.joined(separator: " → ")
        switch node(ref).kind {
        case .screen(let name, _, _):
            if resolved(name, in: ref.file, .screen) == nil {
                return "\(context) is \(describe(ref))\(via), but `\(nameText(name))` is not a declared screen"
            }
            return "\(context) builds only \(nameText(name)) (\(describe(ref))\(via)), not \(elementName)"
        case .empty:
            return "\(context) is `empty` (at \(at(ref))\(via)), so it builds nothing"
        case .missing:
            return "\(context) is incomplete (a syntax error\(via)), so it builds nothing"
        default:
            return "\(context) builds nothing for \(elementName)"
        }
    }
}

/// The words of `routes tree --path` that a generated resolver needs (RoutesCodegen).
public enum ResolutionWords {
    /// See `PathEvaluator.failureWords(from:after:program:project:fileName:)`.
    public static func failure(from: NodeRef?, after previous: NodeRef?, program: Program, project: Project,
                               fileName: @escaping (FileID) -> String) -> [String] {
        PathEvaluator.failureWords(from: from, after: previous, program: program, project: project, fileName: fileName)
    }
}

/// Static facts about the builders of a project, computed once: which nodes may build a
/// given screen (for choosing the most useful failure reason; the generated resolvers choose
/// theirs by the same facts).
public struct MayBuildIndex {
    let project: Project
    /// For each node, its parent within the builder it belongs to, unless it is the nesting
    /// of a `screen` (nestings build the next element, not this one).
    var parent: [[NodeID?]]
    /// The body node of each builder, and the reference nodes that resolve to each builder.
    var builderOfBody: [NodeRef: Symbol] = [:]
    var referencesTo: [Symbol: [NodeRef]] = [:]
    var cache: [Symbol: Set<NodeRef>] = [:]

    public init(_ project: Project) {
        self.project = project
        parent = project.files.map { file in
            var parents = [NodeID?](repeating: nil, count: file.model.nodes.count)
            for (index, node) in file.model.nodes.enumerated() {
                if case .screen = node.kind { continue }
                for child in node.children(in: file.model) { parents[child] = index }
            }
            return parents
        }
        for file in project.files {
            for (index, declaration) in file.model.declarations.enumerated() where declaration.kind == .builder {
                if let body = declaration.body {
                    builderOfBody[NodeRef(file: file.id, node: body)] = Symbol(file: file.id, declaration: index)
                }
            }
            for (index, node) in file.model.nodes.enumerated() {
                if case .reference(let name) = node.kind, let s = project.resolve(name, in: file.id),
                   project.declaration(s).kind == .builder {
                    referencesTo[s, default: []].append(NodeRef(file: file.id, node: index))
                }
            }
        }
    }

    /// Whether node `ref` contains, through references and not through nestings, a `screen`
    /// node of `element` or a `wildcard` (in the then-block of an `if screen`, only of the
    /// screen it tests).
    public mutating func mayBuild(_ ref: NodeRef, _ element: Symbol) -> Bool {
        if let set = cache[element] { return set.contains(ref) }
        // Propagate from the seeds (screen nodes of the element, and every wildcard) up to
        // parents and from builder bodies to their references.
        var set = Set<NodeRef>()
        var queue: [NodeRef] = []
        for file in project.files {
            for (index, node) in file.model.nodes.enumerated() {
                switch node.kind {
                case .screen(let name?, _, _):
                    if project.resolve(name, in: file.id) == element { queue.append(NodeRef(file: file.id, node: index)) }
                case .wildcard:
                    queue.append(NodeRef(file: file.id, node: index))
                default:
                    break
                }
            }
        }
        while let reached = queue.popLast() {
            guard set.insert(reached).inserted else { continue }
            if let parentNode = parent[reached.file][reached.node] {
                // The then-block of `if screen S` sees only S.
                let blocked: Bool
                if case .ifScreen(let tested, let then, _) = project.files[reached.file].model.nodes[parentNode].kind, then == reached.node {
                    blocked = tested.flatMap { project.resolve($0, in: reached.file) } != element
                } else {
                    blocked = false
                }
                if !blocked { queue.append(NodeRef(file: reached.file, node: parentNode)) }
            }
            if let builder = builderOfBody[reached] { queue.append(contentsOf: referencesTo[builder] ?? []) }
        }
        cache[element] = set
        return set.contains(ref)
    }
}
