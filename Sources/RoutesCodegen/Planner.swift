import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Makes the ``ProgramPlan`` of a program that has no errors (the caller checks that: the
/// plan relies on it, see ``Planner/planNode(_:scope:function:into:)``), or the problems that keep it from
/// being generated.
struct Planner {
    let project: Project
    let program: Program
    let namespace: String

    /// Every declaration of the program, in order (imported files first, the root's last).
    var declarations: [Symbol] = []
    var order: [Symbol: Int] = [:]
    var problems: [CodegenProblem] = []

    // The parts of the routing tree that `root` uses.
    var usedBuilders: [Symbol] = []
    var screenNodes: [NodeRef] = []
    var mentioned = Set<Symbol>()

    /// F(b): the items a builder needs from where it is used.
    var needs: [Symbol: Set<ScopeItem>] = [:]

    var screenIndex: [Symbol: Int] = [:]
    var methodIndex: [MethodKey: Int] = [:]
    var environmentNames: [Symbol: String] = [:]

    struct MethodKey: Hashable {
        var screen: Symbol
        var uses: [Symbol]
    }

    struct VariantKey: Hashable {
        var builder: Symbol?
        var items: [ScopeItem]
    }
    var variantIndex: [VariantKey: Int] = [:]
    var pending: [Int] = []
    var nextSite = 0
    /// Each function's calls in source order: (site, callee).
    var calls: [[(site: Int, callee: Int)]] = []

    init(project: Project, program: Program, namespace: String) {
        self.project = project
        self.program = program
        self.namespace = namespace
        for f in program.files {
            for i in project.files[f].model.declarations.indices {
                let s = Symbol(file: f, declaration: i)
                order[s] = declarations.count
                declarations.append(s)
            }
        }
    }

    func declaration(_ s: Symbol) -> Declaration { project.declaration(s) }
    func node(_ r: NodeRef) -> BuilderNode { project.files[r.file].model.nodes[r.node] }
    func resolve(_ name: Name?, in file: FileID) -> Symbol? { name.flatMap { project.resolve($0, in: file) } }
    func sorted(_ symbols: some Sequence<Symbol>) -> [Symbol] { symbols.sorted { order[$0, default: .max] < order[$1, default: .max] } }

    /// Items in the program's declaration order (not by file id, which depends on how the
    /// files were named on the command line), a provided value before its unwrapped one.
    func sorted(_ items: some Sequence<ScopeItem>) -> [ScopeItem] {
        func key(_ i: ScopeItem) -> (Int, Int) {
            switch i {
            case .provided(let s): return (order[s, default: .max], 0)
            case .unwrapped(let s): return (order[s, default: .max], 1)
            }
        }
        return items.sorted { key($0) < key($1) }
    }

    mutating func problem(_ s: Symbol, _ message: String, related: [RelatedLocation] = []) {
        problems.append(CodegenProblem(file: s.file, range: declaration(s).name.range, message: message, related: related))
    }

    func related(_ s: Symbol, _ message: String) -> RelatedLocation {
        RelatedLocation(file: s.file, range: declaration(s).name.range, message: message)
    }

    // MARK: The used tree

    /// Walks `root` and the builders it uses (through references and nestings, ignoring
    /// conditions), as the checker's notion of "used" does.
    mutating func collectUsed() {
        guard let body = declaration(program.root).body else { return }
        var seen = Set<Symbol>()
        var stack = [NodeRef(file: program.root.file, node: body)]
        while let r = stack.popLast() {
            let n = node(r)
            switch n.kind {
            case .screen(let name, let uses, _):
                screenNodes.append(r)
                if let s = resolve(name, in: r.file) { mentioned.insert(s) }
                for u in uses { if let s = resolve(u, in: r.file) { mentioned.insert(s) } }
            case .conditional(let f, _, _):
                if let s = resolve(f, in: r.file) { mentioned.insert(s) }
            case .ifLet(let o, _, _):
                if let s = resolve(o, in: r.file) { mentioned.insert(s) }
            case .ifScreen(let s, _, _), .wildcard(let s, _):
                if let s = resolve(s, in: r.file) { mentioned.insert(s) }
            case .reference(let name):
                if let b = resolve(name, in: r.file), seen.insert(b).inserted {
                    usedBuilders.append(b)
                    if let body = declaration(b).body { stack.append(NodeRef(file: b.file, node: body)) }
                }
            case .anyOf, .empty, .missing:
                break
            }
            for c in n.children.reversed() { stack.append(NodeRef(file: r.file, node: c)) }
        }
        let rank = Dictionary(program.files.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        screenNodes.sort { (rank[$0.file] ?? .max, $0.node) < (rank[$1.file] ?? .max, $1.node) }
        usedBuilders = sorted(usedBuilders)
    }

    // MARK: Scope

    /// The items a `uses` list needs in scope (a dependency without `from` is always there).
    func needs(ofUses uses: [Name], in file: FileID) -> [ScopeItem] {
        var out: [ScopeItem] = []
        for u in uses {
            guard let s = resolve(u, in: file) else { continue }
            let d = declaration(s)
            let item: ScopeItem? = d.kind == .optional ? .unwrapped(s) : d.from != nil ? .provided(s) : nil
            if let item, !out.contains(item) { out.append(item) }
        }
        return out
    }

    /// What a `screen S` node provides to its nesting.
    var providedBy: [Symbol: [ScopeItem]] = [:]

    mutating func collectProviders() {
        for s in declarations {
            let d = declaration(s)
            guard d.kind == .dependency || d.kind == .optional, let from = d.from,
                  let p = project.resolve(from, in: s.file) else { continue }
            providedBy[p, default: []].append(.provided(s))
        }
    }

    /// The items a builder node needs from where it stands (not gained inside it first),
    /// with every named builder's needs as `needs` has them now.
    func free(_ r: NodeRef) -> Set<ScopeItem> {
        let n = node(r)
        func at(_ id: NodeID) -> NodeRef { NodeRef(file: r.file, node: id) }
        switch n.kind {
        case .screen(let name, let uses, let nesting):
            var out = Set(needs(ofUses: uses, in: r.file))
            if let nesting {
                let gained = resolve(name, in: r.file).map { Set(providedBy[$0] ?? []) } ?? []
                out.formUnion(free(at(nesting)).subtracting(gained))
            }
            return out
        case .anyOf(let bs):
            return bs.reduce(into: Set()) { $0.formUnion(free(at($1))) }
        case .conditional(_, let a, let b):
            return free(at(a)).union(free(at(b)))
        case .ifLet(let o, let a, let b):
            guard let s = resolve(o, in: r.file) else { return [] }
            var out = free(at(a))
            out.remove(.unwrapped(s))
            if declaration(s).from != nil { out.insert(.provided(s)) }
            if let b { out.formUnion(free(at(b))) }
            return out
        case .ifScreen(_, let a, let b):
            return free(at(a)).union(b.map { free(at($0)) } ?? [])
        case .wildcard(_, let body):
            return free(at(body))
        case .reference(let name):
            return resolve(name, in: r.file).flatMap { needs[$0] } ?? []
        case .empty, .missing:
            return []
        }
    }

    /// The needs of every used builder: a fixpoint (they only grow, and are bounded).
    mutating func computeNeeds() {
        var changed = true
        while changed {
            changed = false
            for b in usedBuilders {
                guard let body = declaration(b).body else { continue }
                let f = free(NodeRef(file: b.file, node: body))
                if f != needs[b, default: []] {
                    needs[b] = f
                    changed = true
                }
            }
        }
    }
}

// MARK: - Names and checks

extension Planner {
    /// Names the generated code uses without qualification inside the namespace: a type of
    /// the namespace with one of these names would hide it.
    static let libraryNames: Set<String> = [
        "Screen", "ScreenPresentationStyle", "PathBuilder", "PathBuilders", "_PathBuilder", "AnyPathBuilder",
        "AnyScreen", "View", "Bool", "Never",
    ]

    /// Names the generated code uses in expressions: no dependency or optional (whose values
    /// are locals) may take them.
    static let expressionNames: Set<String> = ["PathBuilders", "_PathBuilder"]

    /// The first free spelling of `base` (then `base2`, `base3`, ...).
    static func allocate(_ base: String, avoiding taken: Set<String>) -> String {
        if !taken.contains(base) { return base }
        var k = 2
        while taken.contains("\(base)\(k)") { k += 1 }
        return "\(base)\(k)"
    }

    /// The parsed type of a declaration or parameter, reporting a type the generated code
    /// cannot hold.
    mutating func checkedType(_ text: String?, of s: Symbol, what: String, stored: Bool, at range: Range<Int>? = nil) -> SwiftType? {
        let r = range ?? declaration(s).name.range
        guard let text, let t = SwiftType(parsing: text) else {
            problems.append(CodegenProblem(file: s.file, range: r, message: "\(what) has no type the generated code can use"))
            return nil
        }
        if t.containsOpaque {
            problems.append(CodegenProblem(
                file: s.file, range: r,
                message: "\(what) has the type `\(text)`: an opaque type (`some`) cannot be stored or required by a protocol; write `any` or a concrete type"))
            return nil
        }
        if let a = t.outerAttributes.first(where: { $0 == "@escaping" || $0 == "@autoclosure" }) {
            problems.append(CodegenProblem(
                file: s.file, range: r,
                message: "\(what) has the type `\(text)`: `\(a)` belongs to a function's parameter, not to a stored type (the generated code adds `@escaping` where it is needed)"))
            return nil
        }
        if stored, let why = t.hashabilityProblem {
            problems.append(CodegenProblem(
                file: s.file, range: r,
                message: "\(what) has the type `\(text)`, \(why): a screen is a `Hashable` value, so its parameters must be `Hashable` (a function, tuple, existential or metatype is not)"))
            return nil
        }
        return t
    }

    /// Makes the plan; nil with `problems` set when the program cannot be generated.
    mutating func make(rootPath: String, importedPaths: [String], viewTypesPerProtocol: Int = 500) -> ProgramPlan? {
        collectUsed()
        collectProviders()
        computeNeeds()

        // Every type name the program's types mention, and where (for messages).
        var typeUsers: [String: Symbol] = [:]
        var allNames = Set<String>()
        var types: [Symbol: SwiftType] = [:]
        for s in declarations {
            let d = declaration(s)
            allNames.insert(d.name.text)
            if SwiftNames.unusable.contains(d.name.text) && d.kind != .root {
                problem(s, "`\(d.name.text)` cannot name \(d.kind.withArticle) in Swift, even in backticks: rename it")
            }
            switch d.kind {
            case .screen:
                for p in d.parameters {
                    let what = "parameter `\(p.label.text)` of screen `\(d.name.text)`"
                    if p.label.text == "presentationStyle" {
                        problems.append(CodegenProblem(
                            file: s.file, range: p.label.range,
                            message: "\(what) would hide the screen's `presentationStyle` (ComposableNavigator's `Screen` requirement): rename it"))
                    } else if SwiftNames.unusable.contains(p.label.text) {
                        problems.append(CodegenProblem(file: s.file, range: p.label.range,
                                                       message: "`\(p.label.text)` cannot name a Swift property, even in backticks: rename \(what)"))
                    }
                    if let t = checkedType(p.type, of: s, what: what, stored: true, at: p.label.range) {
                        for n in t.typeNames where typeUsers[n] == nil { typeUsers[n] = s }
                    }
                }
            case .dependency, .optional:
                if let t = checkedType(d.type, of: s, what: "\(d.kind.rawValue) `\(d.name.text)`", stored: false) {
                    types[s] = t
                    for n in t.typeNames where typeUsers[n] == nil { typeUsers[n] = s }
                }
                if Self.expressionNames.contains(d.name.text) || d.name.text == namespace {
                    problem(s, "\(d.kind.withArticle) named `\(d.name.text)` would hide `\(d.name.text)` in the generated code: rename it")
                }
            default:
                break
            }
        }
        if let user = typeUsers[namespace] {
            problem(user, "the type `\(namespace)` that \(describe(user)) uses has the name of the generated namespace of \(rootPath): rename the type or the file")
        }

        // Generic parameter and local names.
        let generics = Set(typeUsers.keys)
        let taken = allNames.union(declarations.filter { [.dependency, .optional].contains(declaration($0).kind) }
            .map { declaration($0).name.text + "OrNil" })
        var plan = ProgramPlan(
            program: program, rootPath: rootPath, importedPaths: importedPaths, namespace: namespace,
            names: (environmentProtocol: namespace + "Environment", contentProtocol: namespace + "Content",
                    environmentGeneric: Self.allocate("E", avoiding: generics.union(allNames.map(SwiftNames.upperFirst))),
                    contentGeneric: Self.allocate("C", avoiding: generics.union(allNames.map(SwiftNames.upperFirst))),
                    environmentParameter: Self.allocate("environment", avoiding: taken),
                    contentParameter: Self.allocate("content", avoiding: taken),
                    viewLocal: Self.allocate("view", avoiding: taken)))
        for protocolName in [plan.environmentProtocol, plan.contentProtocol] {
            if let user = typeUsers[protocolName] {
                problem(user, "the type `\(protocolName)` that \(describe(user)) uses has the name of a generated protocol: rename the type")
            }
        }

        // Screens: every screen of the program, named as Swift types.
        var typeOwners: [String: (Symbol, String)] = [:]  // a namespace type name -> what it is
        var collisions: [CodegenProblem] = []
        var hidden: [String: String] = [:]  // a type of the app a namespace type hides -> its alias
        func claim(_ name: String, _ s: Symbol, _ what: String, isType: Bool = true) {
            if let (other, otherWhat) = typeOwners[name] {
                collisions.append(CodegenProblem(
                    file: s.file, range: declaration(s).name.range,
                    message: "\(what) and \(otherWhat) would both be the Swift type `\(namespace).\(name)`: rename one of them",
                    related: [related(other, "\(otherWhat) is declared here")]))
                return
            }
            typeOwners[name] = (s, what)
            if Self.libraryNames.contains(name) || name == namespace || name == plan.environmentProtocol || name == plan.contentProtocol {
                collisions.append(CodegenProblem(
                    file: s.file, range: declaration(s).name.range,
                    message: "\(what) would be the Swift type `\(namespace).\(name)`, which hides `\(name)` that the generated code uses: rename it"))
            } else if isType, typeUsers[name] != nil {
                // Inside the namespace, the app's type of that name is reached through an
                // alias declared outside it.
                hidden[name] = Self.allocate(namespace + name, avoiding: Set(typeUsers.keys).union(typeOwners.keys))
            }
        }
        for s in declarations where declaration(s).kind == .screen {
            let d = declaration(s)
            let typeName = SwiftNames.upperFirst(d.name.text)
            if typeName == "Type" || typeName == "Protocol" {
                problem(s, "screen `\(d.name.text)` would be the Swift type `\(namespace).\(typeName)`, which Swift reads as a metatype even in backticks: rename it")
            }
            claim(typeName, s, "screen `\(d.name.text)`")
            screenIndex[s] = plan.screens.count
            plan.screens.append(.init(
                symbol: s, typeName: SwiftNames.escaped(typeName),
                parameters: d.parameters.map { (SwiftNames.escaped($0.label.text), $0.type) },
                presentation: d.presentation, doc: d.doc, provides: providedBy[s] ?? []))
        }
        // Builder functions are members of the namespace too.
        for b in usedBuilders {
            claim(declaration(b).name.text, b, "builder `\(declaration(b).name.text)`", isType: false)
        }

        // Scope items: their names and types.
        for s in declarations {
            let d = declaration(s)
            guard d.kind == .dependency || d.kind == .optional, let t = types[s] else { continue }
            let name = SwiftNames.escaped(d.name.text)
            let optionalType = t.needsParenthesesForOptional ? "(\(t.text))?" : "\(t.text)?"
            if d.from != nil {
                let item = ScopeItem.provided(s)
                plan.itemNames[item] = d.kind == .optional ? SwiftNames.escaped(d.name.text + "OrNil") : name
                plan.itemTypes[item] = d.kind == .optional ? optionalType : t.text
                plan.itemIsFunction[item] = d.kind == .dependency && t.isFunction
            }
            if d.kind == .optional {
                plan.itemNames[.unwrapped(s)] = name
                plan.itemTypes[.unwrapped(s)] = t.text
                plan.itemIsFunction[.unwrapped(s)] = t.isFunction
            }
        }

        // The environment: flags, optionals and dependencies without `from` that `root` and
        // the builders it uses mention.
        for s in sorted(mentioned) {
            let d = declaration(s)
            let type: String
            switch d.kind {
            case .flag: type = "Bool"
            case .optional where d.from == nil:
                guard let t = types[s] else { continue }
                type = t.needsParenthesesForOptional ? "(\(t.text))?" : "\(t.text)?"
            case .dependency where d.from == nil:
                guard let t = types[s] else { continue }
                type = t.text
            default: continue
            }
            environmentNames[s] = SwiftNames.escaped(d.name.text)
            plan.environment.append(.init(symbol: s, name: SwiftNames.escaped(d.name.text), type: type, doc: d.doc))
        }

        // Content methods: one per screen and `uses` list, in declaration order of the
        // screens, then in order of the first node of each list.
        var keys: [MethodKey] = []
        var firstNode: [MethodKey: NodeRef] = [:]
        for r in screenNodes {
            guard case .screen(let name, let uses, _) = node(r).kind, let s = resolve(name, in: r.file) else { continue }
            let used = sorted(Set(uses.compactMap { resolve($0, in: r.file) }))
            let key = MethodKey(screen: s, uses: used)
            if firstNode[key] == nil {
                firstNode[key] = r
                keys.append(key)
            }
        }
        keys.sort { order[$0.screen]! < order[$1.screen]! }  // stable: first nodes keep their order
        var viewTypes: [Symbol: String] = [:]
        var depsOrdinal: [Symbol: Int] = [:]
        var associatedTaken = Set(typeUsers.keys)
        for key in keys {
            let screen = plan.screens[screenIndex[key.screen]!]
            let typeName = SwiftNames.upperFirst(declaration(key.screen).name.text)
            if viewTypes[key.screen] == nil {
                let v = Self.allocate(typeName + "View", avoiding: associatedTaken)
                associatedTaken.insert(v)
                viewTypes[key.screen] = v
            }
            var depsType: String? = nil
            if !key.uses.isEmpty {
                let k = depsOrdinal[key.screen, default: 0] + 1
                depsOrdinal[key.screen] = k
                let name = typeName + "Deps" + (k == 1 ? "" : "\(k)")
                claim(name, key.screen, "the dependencies of screen `\(declaration(key.screen).name.text)`")
                depsType = SwiftNames.escaped(name)
            }
            let provided = Set(screen.provides.compactMap { plan.itemNames[$0] })
            methodIndex[key] = plan.contentMethods.count
            plan.contentMethods.append(.init(
                screen: screenIndex[key.screen]!, name: SwiftNames.escaped(SwiftNames.lowerCamel(typeName)), depsType: depsType,
                fields: key.uses.map { u in (SwiftNames.escaped(declaration(u).name.text), types[u]?.text ?? "", u) },
                viewType: viewTypes[key.screen]!, viewLabel: Self.allocate("view", avoiding: provided),
                example: firstNode[key]!))
        }
        // The content protocol in parts of at most `viewTypesPerProtocol` view types (a
        // screen's methods stay together).
        if viewTypes.count > viewTypesPerProtocol {
            var start = 0, types = Set<String>()
            for (k, m) in plan.contentMethods.enumerated() where !types.contains(m.viewType) {
                if types.count == viewTypesPerProtocol {
                    plan.contentParts.append(("", start..<k))
                    start = k
                    types = []
                }
                types.insert(m.viewType)
            }
            plan.contentParts.append(("", start..<plan.contentMethods.count))
            for i in plan.contentParts.indices {
                let name = plan.contentProtocol + "Part\(i + 1)"
                plan.contentParts[i].name = name
                if let user = typeUsers[name] {
                    problem(user, "the type `\(name)` that \(describe(user)) uses has the name of a generated protocol: rename the type")
                }
            }
        }

        problems += collisions
        guard problems.isEmpty else { return nil }

        // Types of the app that a type of the namespace hides: every type text names them
        // through their aliases.
        if !hidden.isEmpty {
            plan.typeAliases = hidden.sorted { $0.value < $1.value }.map { ($0.value, $0.key) }
            func rewrite(_ text: String) -> String {
                guard let t = SwiftType(parsing: text) else { return text }
                let renamed = t.renaming(hidden)
                return renamed == t ? text : renamed.text
            }
            for i in plan.screens.indices {
                plan.screens[i].parameters = plan.screens[i].parameters.map { ($0.label, rewrite($0.type)) }
            }
            for i in plan.contentMethods.indices {
                plan.contentMethods[i].fields = plan.contentMethods[i].fields.map { ($0.name, rewrite($0.type), $0.symbol) }
            }
            for (item, type) in plan.itemTypes { plan.itemTypes[item] = rewrite(type) }
            for i in plan.environment.indices { plan.environment[i].type = rewrite(plan.environment[i].type) }
        }

        // The routing tree: `root`, then each builder for each set of values in scope where
        // it is used, found as the bodies are planned.
        plan.functions.append(.init(builder: nil, name: "root", parameters: [], absent: [], body: .empty))
        calls.append([])
        variantIndex[VariantKey(builder: nil, items: [])] = 0
        pending.append(0)
        while let f = pending.first {
            pending.removeFirst()
            let fn = plan.functions[f]
            let bodyRef: NodeRef?
            if let b = fn.builder {
                bodyRef = declaration(b).body.map { NodeRef(file: b.file, node: $0) }
            } else {
                bodyRef = declaration(program.root).body.map { NodeRef(file: program.root.file, node: $0) }
            }
            guard let bodyRef else { continue }
            var current = f
            let body = planNode(bodyRef, scope: Set(fn.parameters), function: &current, into: &plan)
            plan.functions[f].body = body
        }
        plan.recursiveCalls = recursiveCalls()
        return plan
    }

    func describe(_ s: Symbol) -> String {
        let d = declaration(s)
        return "\(d.kind.rawValue) `\(d.name.text)`"
    }
}

// MARK: - Planning the tree

extension Planner {
    /// The plan of a builder node where `scope` is in scope. A node that needs something not
    /// in scope here is never built (or, for an `if let` of an optional `from P`, evaluated)
    /// here: the checker reports a missing dependency (`MissingDependency`) for any way that would, and the
    /// program has none. So it becomes ``ProgramPlan/Builder/unreachable(node:missing:)``.
    mutating func planNode(_ r: NodeRef, scope: Set<ScopeItem>, function f: inout Int, into plan: inout ProgramPlan) -> ProgramPlan.Builder {
        let n = node(r)
        func at(_ id: NodeID) -> NodeRef { NodeRef(file: r.file, node: id) }
        switch n.kind {
        case .screen(let name, let uses, let nesting):
            guard let s = resolve(name, in: r.file) else { return .empty }
            let needed = needs(ofUses: uses, in: r.file)
            if let missing = needed.first(where: { !scope.contains($0) }) {
                return .unreachable(node: r, missing: missing)
            }
            let used = sorted(Set(uses.compactMap { resolve($0, in: r.file) }))
            let method = methodIndex[MethodKey(screen: s, uses: used)]!
            let arguments: [ProgramPlan.Source] = used.map { u in
                let d = declaration(u)
                if d.kind == .optional { return .local(.unwrapped(u)) }
                if d.from != nil { return .local(.provided(u)) }
                return .environment(environmentNames[u]!)
            }
            let inner = nesting.map { self.planNode(at($0), scope: scope.union(providedBy[s] ?? []), function: &f, into: &plan) }
            return .screen(node: r, screen: screenIndex[s]!, method: method, arguments: arguments, nesting: inner)
        case .anyOf(let bs):
            return .anyOf(bs.map { planNode(at($0), scope: scope, function: &f, into: &plan) })
        case .conditional(let flag, let a, let b):
            guard let s = resolve(flag, in: r.file) else { return .empty }
            return .conditional(node: r, flag: environmentNames[s]!,
                                then: planNode(at(a), scope: scope, function: &f, into: &plan),
                                else: planNode(at(b), scope: scope, function: &f, into: &plan))
        case .ifLet(let o, let a, let b):
            guard let s = resolve(o, in: r.file) else { return .empty }
            let source: ProgramPlan.Source
            if declaration(s).from != nil {
                guard scope.contains(.provided(s)) else { return .unreachable(node: r, missing: .provided(s)) }
                source = .local(.provided(s))
            } else {
                source = .environment(environmentNames[s]!)
            }
            var inner = scope
            inner.insert(.unwrapped(s))
            return .ifLet(node: r, source: source, item: .unwrapped(s),
                          then: planNode(at(a), scope: inner, function: &f, into: &plan),
                          else: b.map { planNode(at($0), scope: scope, function: &f, into: &plan) })
        case .ifScreen(let sn, let a, let b):
            guard let s = resolve(sn, in: r.file) else { return .empty }
            return .ifScreen(node: r, screen: screenIndex[s]!,
                             then: planNode(at(a), scope: scope, function: &f, into: &plan),
                             else: b.map { planNode(at($0), scope: scope, function: &f, into: &plan) })
        case .wildcard(let w, let body):
            guard let s = resolve(w, in: r.file) else { return .empty }
            return .wildcard(node: r, screen: screenIndex[s]!, body: planNode(at(body), scope: scope, function: &f, into: &plan))
        case .reference(let name):
            guard let b = resolve(name, in: r.file) else { return .empty }
            let wanted = needs[b] ?? []
            let items = sorted(wanted.filter { scope.contains($0) })
            let key = VariantKey(builder: b, items: items)
            let callee: Int
            if let existing = variantIndex[key] {
                callee = existing
            } else {
                callee = plan.functions.count
                variantIndex[key] = callee
                plan.functions.append(.init(builder: b, name: SwiftNames.escaped(declaration(b).name.text), parameters: items,
                                            absent: sorted(wanted.subtracting(items)), body: .empty))
                calls.append([])
                pending.append(callee)
            }
            let site = nextSite
            nextSite += 1
            calls[f].append((site, callee))
            return .call(node: r, function: callee, site: site)
        case .empty, .missing:
            return .empty
        }
    }

    /// The calls that are back edges of a depth-first search over the calls from `root`, in
    /// source order: removing them leaves no cycle, so erasing the builders they call keeps
    /// every function's view type finite (and building them lazily keeps building finite).
    func recursiveCalls() -> Set<Int> {
        var state = Array(repeating: 0, count: calls.count)  // 0 new, 1 on the stack, 2 done
        var back = Set<Int>()
        var stack: [(function: Int, next: Int)] = [(0, 0)]
        state[0] = 1
        while let (f, i) = stack.last {
            if i == calls[f].count {
                state[f] = 2
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let (site, callee) = calls[f][i]
            switch state[callee] {
            case 1: back.insert(site)
            case 0:
                state[callee] = 1
                stack.append((callee, 0))
            default: break
            }
        }
        return back
    }
}
