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

    /// The parsed types of the dependencies and optionals (those the generated code can hold).
    var declaredTypes: [Symbol: SwiftType] = [:]
    /// Every type name the program's types mention, and the first declaration that does (for
    /// messages).
    var typeUsers: [String: Symbol] = [:]
    /// The members of the namespace by name, and what each is (for messages).
    var namespaceMembers: [String: (symbol: Symbol, what: String)] = [:]
    /// Members of the namespace that collide with each other or with a name the generated
    /// code uses: reported after the other problems.
    var collisions: [CodegenProblem] = []
    /// The types of the app that a type of the namespace hides, and their aliases.
    var hiddenTypes: [String: String] = [:]

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
        for file in program.files {
            for index in project.files[file].model.declarations.indices {
                let symbol = Symbol(file: file, declaration: index)
                order[symbol] = declarations.count
                declarations.append(symbol)
            }
        }
    }

    func declaration(_ s: Symbol) -> Declaration { project.declaration(s) }
    func node(_ r: NodeRef) -> BuilderNode { project.files[r.file].model.nodes[r.node] }
    /// The names of a `uses` clause of file f.
    func uses(_ span: BuilderNode.Span, in f: FileID) -> [Name] { Array(project.files[f].model.uses(span)) }
    /// The branches of an `anyOf` of file f.
    func branches(_ span: BuilderNode.Span, in f: FileID) -> [NodeID] { Array(project.files[f].model.branches(span)) }
    func resolve(_ name: Name?, in file: FileID) -> Symbol? { name.flatMap { project.resolve($0, in: file) } }
    func sorted(_ symbols: some Sequence<Symbol>) -> [Symbol] { symbols.sorted { order[$0, default: .max] < order[$1, default: .max] } }

    /// Items in the program's declaration order (not by file id, which depends on how the
    /// files were named on the command line), a provided value before its unwrapped one.
    func sorted(_ items: some Sequence<ScopeItem>) -> [ScopeItem] {
        func key(_ i: ScopeItem) -> (Int, Int) {
            switch i {
            case .provided(let symbol): return (order[symbol, default: .max], 0)
            case .unwrapped(let symbol): return (order[symbol, default: .max], 1)
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
        while let ref = stack.popLast() {
            let current = node(ref)
            switch current.kind {
            case .screen(let name, let uses, _):
                screenNodes.append(ref)
                if let symbol = resolve(name, in: ref.file) { mentioned.insert(symbol) }
                for use in self.uses(uses, in: ref.file) { if let symbol = resolve(use, in: ref.file) { mentioned.insert(symbol) } }
            case .conditional(let flag, _, _):
                if let symbol = resolve(flag, in: ref.file) { mentioned.insert(symbol) }
            case .ifLet(let optionalName, _, _):
                if let symbol = resolve(optionalName, in: ref.file) { mentioned.insert(symbol) }
            case .ifScreen(let screen, _, _), .wildcard(let screen, _):
                if let symbol = resolve(screen, in: ref.file) { mentioned.insert(symbol) }
            case .reference(let name):
                if let builder = resolve(name, in: ref.file), seen.insert(builder).inserted {
                    usedBuilders.append(builder)
                    if let body = declaration(builder).body { stack.append(NodeRef(file: builder.file, node: body)) }
                }
            case .anyOf, .empty, .missing:
                break
            }
            for child in current.children(in: project.files[ref.file].model).reversed() { stack.append(NodeRef(file: ref.file, node: child)) }
        }
        let rank = Dictionary(program.files.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        screenNodes.sort { (rank[$0.file] ?? .max, $0.node) < (rank[$1.file] ?? .max, $1.node) }
        usedBuilders = sorted(usedBuilders)
    }

    // MARK: Scope

    /// The items a `uses` list needs in scope (a dependency without `from` is always there).
    func needs(ofUses uses: [Name], in file: FileID) -> [ScopeItem] {
        var out: [ScopeItem] = []
        for use in uses {
            guard let symbol = resolve(use, in: file) else { continue }
            let decl = declaration(symbol)
            let item: ScopeItem? = decl.kind == .optional ? .unwrapped(symbol) : decl.from != nil ? .provided(symbol) : nil
            if let item, !out.contains(item) { out.append(item) }
        }
        return out
    }

    /// What a `screen S` node provides to its nesting.
    var providedBy: [Symbol: [ScopeItem]] = [:]

    mutating func collectProviders() {
        for symbol in declarations {
            let decl = declaration(symbol)
            guard decl.kind == .dependency || decl.kind == .optional, let from = decl.from,
                  let provider = project.resolve(from, in: symbol.file) else { continue }
            providedBy[provider, default: []].append(.provided(symbol))
        }
    }

    /// The items a builder node needs from where it stands (not gained inside it first),
    /// with every named builder's needs as `needs` has them now.
    func free(_ r: NodeRef) -> Set<ScopeItem> {
        let current = node(r)
        func at(_ id: NodeID) -> NodeRef { NodeRef(file: r.file, node: id) }
        switch current.kind {
        case .screen(let name, let uses, let nesting):
            var out = Set(needs(ofUses: self.uses(uses, in: r.file), in: r.file))
            if let nesting {
                let gained = resolve(name, in: r.file).map { Set(providedBy[$0] ?? []) } ?? []
                out.formUnion(free(at(nesting)).subtracting(gained))
            }
            return out
        case .anyOf(let bs):
            return branches(bs, in: r.file).reduce(into: Set()) { $0.formUnion(free(at($1))) }
        case .conditional(_, let then, let otherwise):
            return free(at(then)).union(free(at(otherwise)))
        case .ifLet(let optionalName, let then, let otherwise):
            guard let symbol = resolve(optionalName, in: r.file) else { return [] }
            var out = free(at(then))
            out.remove(.unwrapped(symbol))
            if declaration(symbol).from != nil { out.insert(.provided(symbol)) }
            if let otherwise { out.formUnion(free(at(otherwise))) }
            return out
        case .ifScreen(_, let then, let otherwise):
            return free(at(then)).union(otherwise.map { free(at($0)) } ?? [])
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
            for builder in usedBuilders {
                guard let body = declaration(builder).body else { continue }
                let freeItems = free(NodeRef(file: builder.file, node: body))
                if freeItems != needs[builder, default: []] {
                    needs[builder] = freeItems
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
        var suffix = 2
        while taken.contains("\(base)\(suffix)") { suffix += 1 }
        return "\(base)\(suffix)"
    }

    /// The names of the generated protocols.
    var environmentProtocol: String { namespace + "Environment" }
    var contentProtocol: String { namespace + "Content" }

    /// The parsed type of a declaration or parameter, reporting a type the generated code
    /// cannot hold.
    mutating func checkedType(_ text: String?, of s: Symbol, what: String, stored: Bool, at range: Range<Int>? = nil) -> SwiftType? {
        let problemRange = range ?? declaration(s).name.range
        guard let text, let parsed = SwiftType(parsing: text) else {
            problems.append(CodegenProblem(file: s.file, range: problemRange, message: "\(what) has no type the generated code can use"))
            return nil
        }
        if parsed.containsOpaque {
            problems.append(CodegenProblem(
                file: s.file, range: problemRange,
                message: "\(what) has the type `\(text)`: an opaque type (`some`) cannot be stored or required by a protocol; write `any` or a concrete type"))
            return nil
        }
        if let attribute = parsed.outerAttributes.first(where: { $0 == "@escaping" || $0 == "@autoclosure" }) {
            problems.append(CodegenProblem(
                file: s.file, range: problemRange,
                message: "\(what) has the type `\(text)`: `\(attribute)` belongs to a function's parameter, not to a stored type (the generated code adds `@escaping` where it is needed)"))
            return nil
        }
        if stored, let why = parsed.hashabilityProblem {
            problems.append(CodegenProblem(
                file: s.file, range: problemRange,
                message: "\(what) has the type `\(text)`, \(why): a screen is a `Hashable` value, so its parameters must be `Hashable` (a function, tuple, existential or metatype is not)"))
            return nil
        }
        return parsed
    }

    /// Checks the name of every declaration, the parameters of the screens and the types of
    /// the dependencies and optionals; records those types and the type names they mention.
    /// Returns the names the program declares.
    mutating func checkDeclarations() -> Set<String> {
        var declaredNames = Set<String>()
        for symbol in declarations {
            let decl = declaration(symbol)
            declaredNames.insert(decl.name.text)
            if SwiftNames.unusable.contains(decl.name.text) && decl.kind != .root {
                problem(symbol, "`\(decl.name.text)` cannot name \(decl.kind.withArticle) in Swift, even in backticks: rename it")
            }
            switch decl.kind {
            case .screen:
                checkParameters(ofScreen: symbol)
            case .link:
                checkLinkArguments(symbol)
            case .dependency, .optional:
                checkValue(symbol)
            default:
                break
            }
        }
        return declaredNames
    }

    /// A screen's parameters: names a Swift property can take, and types a screen can store.
    mutating func checkParameters(ofScreen screen: Symbol) {
        let decl = declaration(screen)
        for parameter in decl.parameters {
            let what = "parameter `\(parameter.label.text)` of screen `\(decl.name.text)`"
            if parameter.label.text == "presentationStyle" {
                problems.append(CodegenProblem(
                    file: screen.file, range: parameter.label.range,
                    message: "\(what) would hide the screen's `presentationStyle` (ComposableNavigator's `Screen` requirement): rename it"))
            } else if SwiftNames.unusable.contains(parameter.label.text) {
                problems.append(CodegenProblem(file: screen.file, range: parameter.label.range,
                                               message: "`\(parameter.label.text)` cannot name a Swift property, even in backticks: rename \(what)"))
            }
            if let type = checkedType(parameter.type, of: screen, what: what, stored: true, at: parameter.label.range) {
                noteTypeNames(of: type, usedBy: screen)
            }
        }
    }

    /// A link's arguments: each fills a parameter whose type a URL's text can give (the
    /// generated code parses a value of the app's own type with its `init?(_:)`); an array,
    /// dictionary, tuple, function or existential has no such form, and no link can make a
    /// screen that stores one.
    mutating func checkLinkArguments(_ symbol: Symbol) {
        guard let link = declaration(symbol).link else { return }
        for element in link.path {
            guard let screen = project.resolve(element.screen, in: symbol.file), project.kind(of: screen) == .screen else { continue }
            let parameters = project.parameters(of: screen)
            for argument in element.arguments {
                guard let parameter = parameters.first(where: { $0.label.text == argument.label.text }),
                      let type = SwiftType(parsing: parameter.type), !type.hasTextForm else { continue }
                problems.append(CodegenProblem(
                    file: symbol.file, range: argument.range,
                    message: "`\(argument.label.text)` of screen `\(element.screen.text)` has the type `\(parameter.type)`, which no text of a URL gives (the generated code makes a link's values from text): a link cannot make this screen; give the parameter a type of its own that reads text (`LosslessStringConvertible`), or leave the screen out of links"))
            }
        }
    }

    /// A dependency or optional: a type the generated code can hold (recorded in
    /// `declaredTypes`), and a name no expression of the generated code uses.
    mutating func checkValue(_ symbol: Symbol) {
        let decl = declaration(symbol)
        if let type = checkedType(decl.type, of: symbol, what: "\(decl.kind.rawValue) `\(decl.name.text)`", stored: false) {
            declaredTypes[symbol] = type
            noteTypeNames(of: type, usedBy: symbol)
        }
        if Self.expressionNames.contains(decl.name.text) || decl.name.text == namespace {
            problem(symbol, "\(decl.kind.withArticle) named `\(decl.name.text)` would hide `\(decl.name.text)` in the generated code: rename it")
        }
    }

    /// Records `symbol` as the first user of each type name `type` mentions that has none yet.
    mutating func noteTypeNames(of type: SwiftType, usedBy symbol: Symbol) {
        for name in type.typeNames where typeUsers[name] == nil { typeUsers[name] = symbol }
    }

    /// Claims `name` as a member of the namespace for `symbol` (`what` says what it is, for
    /// messages). Two members of one name, or a member with a name the generated code uses,
    /// collide; a type member with the name of a type of the app hides it, which then gets an
    /// alias declared outside the namespace.
    mutating func claim(_ name: String, for symbol: Symbol, what: String, isType: Bool = true) {
        if let (other, otherWhat) = namespaceMembers[name] {
            collisions.append(CodegenProblem(
                file: symbol.file, range: declaration(symbol).name.range,
                message: "\(what) and \(otherWhat) would both be the Swift type `\(namespace).\(name)`: rename one of them",
                related: [related(other, "\(otherWhat) is declared here")]))
            return
        }
        namespaceMembers[name] = (symbol, what)
        if Self.libraryNames.contains(name) || name == namespace || name == environmentProtocol || name == contentProtocol {
            collisions.append(CodegenProblem(
                file: symbol.file, range: declaration(symbol).name.range,
                message: "\(what) would be the Swift type `\(namespace).\(name)`, which hides `\(name)` that the generated code uses: rename it"))
        } else if isType, typeUsers[name] != nil {
            // Inside the namespace, the app's type of that name is reached through an
            // alias declared outside it.
            hiddenTypes[name] = Self.allocate(namespace + name, avoiding: Set(typeUsers.keys).union(namespaceMembers.keys))
        }
    }

    func describe(_ s: Symbol) -> String {
        let decl = declaration(s)
        return "\(decl.kind.rawValue) `\(decl.name.text)`"
    }
}

// MARK: - Making the plan

extension Planner {
    /// Makes the plan; nil with `problems` set when the program cannot be generated.
    mutating func make(rootPath: String, importedPaths: [String], viewTypesPerProtocol: Int = 500) -> ProgramPlan? {
        collectUsed()
        collectProviders()
        computeNeeds()
        let declaredNames = checkDeclarations()
        var plan = namedPlan(rootPath: rootPath, importedPaths: importedPaths, declaredNames: declaredNames)
        planScreens(into: &plan)
        planScopeItems(into: &plan)
        planEnvironment(into: &plan)
        planContentMethods(into: &plan)
        splitContentProtocol(of: &plan, viewTypesPerProtocol: viewTypesPerProtocol)
        problems += collisions
        guard problems.isEmpty else { return nil }
        aliasHiddenTypes(in: &plan)
        planRoutingTree(into: &plan)
        plan.recursiveCalls = recursiveCalls()
        return plan
    }

    /// An empty plan with its Swift names: the protocols', and generic parameter, parameter
    /// and local names that no name of the program hides. A type of the app with the name of
    /// the namespace or of a generated protocol is a problem.
    mutating func namedPlan(rootPath: String, importedPaths: [String], declaredNames: Set<String>) -> ProgramPlan {
        if let user = typeUsers[namespace] {
            problem(user, "the type `\(namespace)` that \(describe(user)) uses has the name of the generated namespace of \(rootPath): rename the type or the file")
        }
        let generics = Set(typeUsers.keys)
        let taken = declaredNames.union(declarations.filter { [.dependency, .optional].contains(declaration($0).kind) }
            .map { declaration($0).name.text + "OrNil" })
        let plan = ProgramPlan(
            program: program, rootPath: rootPath, importedPaths: importedPaths, namespace: namespace,
            names: (environmentProtocol: environmentProtocol, contentProtocol: contentProtocol,
                    environmentGeneric: Self.allocate("E", avoiding: generics.union(declaredNames.map(SwiftNames.upperFirst))),
                    contentGeneric: Self.allocate("C", avoiding: generics.union(declaredNames.map(SwiftNames.upperFirst))),
                    environmentParameter: Self.allocate("environment", avoiding: taken),
                    contentParameter: Self.allocate("content", avoiding: taken),
                    viewLocal: Self.allocate("view", avoiding: taken)))
        for protocolName in [plan.environmentProtocol, plan.contentProtocol] {
            if let user = typeUsers[protocolName] {
                problem(user, "the type `\(protocolName)` that \(describe(user)) uses has the name of a generated protocol: rename the type")
            }
        }
        return plan
    }

    /// Every screen of the program, named as a Swift type of the namespace; the functions of
    /// the used builders are members of the namespace too.
    mutating func planScreens(into plan: inout ProgramPlan) {
        for screen in declarations where declaration(screen).kind == .screen {
            let decl = declaration(screen)
            let typeName = SwiftNames.upperFirst(decl.name.text)
            if typeName == "Type" || typeName == "Protocol" {
                problem(screen, "screen `\(decl.name.text)` would be the Swift type `\(namespace).\(typeName)`, which Swift reads as a metatype even in backticks: rename it")
            }
            claim(typeName, for: screen, what: "screen `\(decl.name.text)`")
            screenIndex[screen] = plan.screens.count
            plan.screens.append(.init(
                symbol: screen, typeName: SwiftNames.escaped(typeName),
                parameters: decl.parameters.map { (SwiftNames.escaped($0.label.text), $0.type) },
                presentation: decl.presentation, doc: decl.doc, provides: providedBy[screen] ?? []))
        }
        for builder in usedBuilders {
            claim(declaration(builder).name.text, for: builder, what: "builder `\(declaration(builder).name.text)`", isType: false)
        }
    }

    /// The names and types of the scope items.
    func planScopeItems(into plan: inout ProgramPlan) {
        for symbol in declarations {
            let decl = declaration(symbol)
            guard decl.kind == .dependency || decl.kind == .optional, let type = declaredTypes[symbol] else { continue }
            let name = SwiftNames.escaped(decl.name.text)
            let optionalType = type.needsParenthesesForOptional ? "(\(type.text))?" : "\(type.text)?"
            if decl.from != nil {
                let item = ScopeItem.provided(symbol)
                plan.itemNames[item] = decl.kind == .optional ? SwiftNames.escaped(decl.name.text + "OrNil") : name
                plan.itemTypes[item] = decl.kind == .optional ? optionalType : type.text
                plan.itemIsFunction[item] = decl.kind == .dependency && type.isFunction
            }
            if decl.kind == .optional {
                plan.itemNames[.unwrapped(symbol)] = name
                plan.itemTypes[.unwrapped(symbol)] = type.text
                plan.itemIsFunction[.unwrapped(symbol)] = type.isFunction
            }
        }
    }

    /// The environment: flags, optionals and dependencies without `from` that `root` and the
    /// builders it uses mention.
    mutating func planEnvironment(into plan: inout ProgramPlan) {
        for symbol in sorted(mentioned) {
            let decl = declaration(symbol)
            let memberType: String
            switch decl.kind {
            case .flag: memberType = "Bool"
            case .optional where decl.from == nil:
                guard let type = declaredTypes[symbol] else { continue }
                memberType = type.needsParenthesesForOptional ? "(\(type.text))?" : "\(type.text)?"
            case .dependency where decl.from == nil:
                guard let type = declaredTypes[symbol] else { continue }
                memberType = type.text
            default: continue
            }
            environmentNames[symbol] = SwiftNames.escaped(decl.name.text)
            plan.environment.append(.init(symbol: symbol, name: SwiftNames.escaped(decl.name.text), type: memberType, doc: decl.doc))
        }
    }

    /// The content methods' keys: one per screen and `uses` list, in declaration order of the
    /// screens, then in order of the first node of each list (which `examples` holds).
    func contentMethodKeys() -> (keys: [MethodKey], examples: [MethodKey: NodeRef]) {
        var keys: [MethodKey] = []
        var examples: [MethodKey: NodeRef] = [:]
        for ref in screenNodes {
            guard case .screen(let name, let uses, _) = node(ref).kind, let screen = resolve(name, in: ref.file) else { continue }
            let used = sorted(Set(self.uses(uses, in: ref.file).compactMap { resolve($0, in: ref.file) }))
            let key = MethodKey(screen: screen, uses: used)
            if examples[key] == nil {
                examples[key] = ref
                keys.append(key)
            }
        }
        keys.sort { order[$0.screen]! < order[$1.screen]! }  // stable: first nodes keep their order
        return (keys, examples)
    }

    /// The content methods: each screen's view type, and the struct that carries each
    /// non-empty `uses` list's dependencies.
    mutating func planContentMethods(into plan: inout ProgramPlan) {
        let (keys, examples) = contentMethodKeys()
        var viewTypes: [Symbol: String] = [:]
        var depsOrdinal: [Symbol: Int] = [:]
        var associatedTaken = Set(typeUsers.keys)
        for key in keys {
            let screen = plan.screens[screenIndex[key.screen]!]
            let typeName = SwiftNames.upperFirst(declaration(key.screen).name.text)
            if viewTypes[key.screen] == nil {
                let viewType = Self.allocate(typeName + "View", avoiding: associatedTaken)
                associatedTaken.insert(viewType)
                viewTypes[key.screen] = viewType
            }
            var depsType: String? = nil
            if !key.uses.isEmpty {
                let ordinal = depsOrdinal[key.screen, default: 0] + 1
                depsOrdinal[key.screen] = ordinal
                let name = typeName + "Deps" + (ordinal == 1 ? "" : "\(ordinal)")
                claim(name, for: key.screen, what: "the dependencies of screen `\(declaration(key.screen).name.text)`")
                depsType = SwiftNames.escaped(name)
            }
            let provided = Set(screen.provides.compactMap { plan.itemNames[$0] })
            methodIndex[key] = plan.contentMethods.count
            plan.contentMethods.append(.init(
                screen: screenIndex[key.screen]!, name: SwiftNames.escaped(SwiftNames.lowerCamel(typeName)), depsType: depsType,
                fields: key.uses.map { used in (SwiftNames.escaped(declaration(used).name.text), declaredTypes[used]?.text ?? "", used) },
                viewType: viewTypes[key.screen]!, viewLabel: Self.allocate("view", avoiding: provided),
                example: examples[key]!))
        }
    }

    /// The content protocol in parts of at most `viewTypesPerProtocol` view types, when it
    /// has more (a screen's methods stay together).
    mutating func splitContentProtocol(of plan: inout ProgramPlan, viewTypesPerProtocol: Int) {
        guard Set(plan.contentMethods.map(\.viewType)).count > viewTypesPerProtocol else { return }
        var start = 0, partViewTypes = Set<String>()
        for (index, method) in plan.contentMethods.enumerated() where !partViewTypes.contains(method.viewType) {
            if partViewTypes.count == viewTypesPerProtocol {
                plan.contentParts.append(("", start..<index))
                start = index
                partViewTypes = []
            }
            partViewTypes.insert(method.viewType)
        }
        plan.contentParts.append(("", start..<plan.contentMethods.count))
        for part in plan.contentParts.indices {
            let name = plan.contentProtocol + "Part\(part + 1)"
            plan.contentParts[part].name = name
            if let user = typeUsers[name] {
                problem(user, "the type `\(name)` that \(describe(user)) uses has the name of a generated protocol: rename the type")
            }
        }
    }

    /// Types of the app that a type of the namespace hides: every type text names them
    /// through their aliases.
    func aliasHiddenTypes(in plan: inout ProgramPlan) {
        guard !hiddenTypes.isEmpty else { return }
        plan.typeAliases = hiddenTypes.sorted { $0.value < $1.value }.map { ($0.value, $0.key) }
        func rewrite(_ text: String) -> String {
            guard let type = SwiftType(parsing: text) else { return text }
            let renamed = type.renaming(hiddenTypes)
            return renamed == type ? text : renamed.text
        }
        for screen in plan.screens.indices {
            plan.screens[screen].parameters = plan.screens[screen].parameters.map { ($0.label, rewrite($0.type)) }
        }
        for method in plan.contentMethods.indices {
            plan.contentMethods[method].fields = plan.contentMethods[method].fields.map { ($0.name, rewrite($0.type), $0.symbol) }
        }
        for (item, type) in plan.itemTypes { plan.itemTypes[item] = rewrite(type) }
        for member in plan.environment.indices { plan.environment[member].type = rewrite(plan.environment[member].type) }
    }

    /// The routing tree: `root`, then each builder for each set of values in scope where it
    /// is used, found as the bodies are planned.
    mutating func planRoutingTree(into plan: inout ProgramPlan) {
        plan.functions.append(.init(builder: nil, name: "root", parameters: [], absent: [], body: .empty))
        calls.append([])
        variantIndex[VariantKey(builder: nil, items: [])] = 0
        pending.append(0)
        while let index = pending.first {
            pending.removeFirst()
            let function = plan.functions[index]
            let bodyRef: NodeRef?
            if let builder = function.builder {
                bodyRef = declaration(builder).body.map { NodeRef(file: builder.file, node: $0) }
            } else {
                bodyRef = declaration(program.root).body.map { NodeRef(file: program.root.file, node: $0) }
            }
            guard let bodyRef else { continue }
            let body = planNode(bodyRef, scope: Set(function.parameters), function: index, into: &plan)
            plan.functions[index].body = body
        }
    }
}

// MARK: - Planning the tree

extension Planner {
    /// The plan of a builder node where `scope` is in scope, in the function `function`. A
    /// node that needs something not in scope here is never built (or, for an `if let` of an
    /// optional `from P`, evaluated) here: the checker reports a missing dependency
    /// (`MissingDependency`) for any way that would, and the program has none. So it becomes
    /// ``ProgramPlan/Builder/unreachable(node:missing:)``.
    mutating func planNode(_ ref: NodeRef, scope: Set<ScopeItem>, function: Int, into plan: inout ProgramPlan) -> ProgramPlan.Builder {
        func at(_ id: NodeID) -> NodeRef { NodeRef(file: ref.file, node: id) }
        switch node(ref).kind {
        case .screen(let name, let uses, let nesting):
            return planScreen(ref, name: name, uses: self.uses(uses, in: ref.file), nesting: nesting, scope: scope, function: function, into: &plan)
        case .anyOf(let branches):
            return .anyOf(node: ref, self.branches(branches, in: ref.file).map { planNode(at($0), scope: scope, function: function, into: &plan) })
        case .conditional(let flag, let then, let otherwise):
            guard let symbol = resolve(flag, in: ref.file) else { return .empty }
            return .conditional(node: ref, flag: environmentNames[symbol]!,
                                then: planNode(at(then), scope: scope, function: function, into: &plan),
                                else: planNode(at(otherwise), scope: scope, function: function, into: &plan))
        case .ifLet(let optional, let then, let otherwise):
            return planIfLet(ref, optional: optional, then: then, otherwise: otherwise, scope: scope, function: function, into: &plan)
        case .ifScreen(let screen, let then, let otherwise):
            guard let symbol = resolve(screen, in: ref.file) else { return .empty }
            return .ifScreen(node: ref, screen: screenIndex[symbol]!,
                             then: planNode(at(then), scope: scope, function: function, into: &plan),
                             else: otherwise.map { planNode(at($0), scope: scope, function: function, into: &plan) })
        case .wildcard(let screen, let body):
            guard let symbol = resolve(screen, in: ref.file) else { return .empty }
            return .wildcard(node: ref, screen: screenIndex[symbol]!, body: planNode(at(body), scope: scope, function: function, into: &plan))
        case .reference(let name):
            return planCall(ref, name: name, scope: scope, function: function, into: &plan)
        case .empty, .missing:
            return .empty
        }
    }

    /// `screen S uses … { nesting }`: the content method of S for that list, its arguments,
    /// and the nesting with what S provides in scope.
    mutating func planScreen(_ ref: NodeRef, name: Name?, uses: [Name], nesting: NodeID?, scope: Set<ScopeItem>,
                             function: Int, into plan: inout ProgramPlan) -> ProgramPlan.Builder {
        guard let screen = resolve(name, in: ref.file) else { return .empty }
        let needed = needs(ofUses: uses, in: ref.file)
        if let missing = needed.first(where: { !scope.contains($0) }) {
            return .unreachable(node: ref, missing: missing)
        }
        let used = sorted(Set(uses.compactMap { resolve($0, in: ref.file) }))
        let method = methodIndex[MethodKey(screen: screen, uses: used)]!
        let arguments: [ProgramPlan.Source] = used.map { dependency in
            let decl = declaration(dependency)
            if decl.kind == .optional { return .local(.unwrapped(dependency)) }
            if decl.from != nil { return .local(.provided(dependency)) }
            return .environment(environmentNames[dependency]!)
        }
        let inner = nesting.map {
            self.planNode(NodeRef(file: ref.file, node: $0), scope: scope.union(providedBy[screen] ?? []), function: function, into: &plan)
        }
        return .screen(node: ref, screen: screenIndex[screen]!, method: method, arguments: arguments, nesting: inner)
    }

    /// `if let o { then } else { otherwise }`: the value from where it is (a provided value in
    /// scope, or the environment), unwrapped in `then`.
    mutating func planIfLet(_ ref: NodeRef, optional: Name?, then: NodeID, otherwise: NodeID?, scope: Set<ScopeItem>,
                            function: Int, into plan: inout ProgramPlan) -> ProgramPlan.Builder {
        guard let symbol = resolve(optional, in: ref.file) else { return .empty }
        let source: ProgramPlan.Source
        if declaration(symbol).from != nil {
            guard scope.contains(.provided(symbol)) else { return .unreachable(node: ref, missing: .provided(symbol)) }
            source = .local(.provided(symbol))
        } else {
            source = .environment(environmentNames[symbol]!)
        }
        var inner = scope
        inner.insert(.unwrapped(symbol))
        return .ifLet(node: ref, source: source, item: .unwrapped(symbol),
                      then: planNode(NodeRef(file: ref.file, node: then), scope: inner, function: function, into: &plan),
                      else: otherwise.map { planNode(NodeRef(file: ref.file, node: $0), scope: scope, function: function, into: &plan) })
    }

    /// A reference to a named builder: a call, from `function`, of the builder's function for
    /// the values of its needs that are in scope here (planned when first called).
    mutating func planCall(_ ref: NodeRef, name: Name, scope: Set<ScopeItem>, function: Int,
                           into plan: inout ProgramPlan) -> ProgramPlan.Builder {
        guard let builder = resolve(name, in: ref.file) else { return .empty }
        let wanted = needs[builder] ?? []
        let items = sorted(wanted.filter { scope.contains($0) })
        let key = VariantKey(builder: builder, items: items)
        let callee: Int
        if let existing = variantIndex[key] {
            callee = existing
        } else {
            callee = plan.functions.count
            variantIndex[key] = callee
            plan.functions.append(.init(builder: builder, name: SwiftNames.escaped(declaration(builder).name.text), parameters: items,
                                        absent: sorted(wanted.subtracting(items)), body: .empty))
            calls.append([])
            pending.append(callee)
        }
        let site = nextSite
        nextSite += 1
        calls[function].append((site, callee))
        return .call(node: ref, function: callee, site: site)
    }

    /// The calls that are back edges of a depth-first search over the calls from `root`, in
    /// source order: removing them leaves no cycle, so erasing the builders they call keeps
    /// every function's view type finite (and building them lazily keeps building finite).
    func recursiveCalls() -> Set<Int> {
        var state = Array(repeating: 0, count: calls.count)  // 0 new, 1 on the stack, 2 done
        var back = Set<Int>()
        var stack: [(function: Int, next: Int)] = [(0, 0)]
        state[0] = 1
        while let (function, next) = stack.last {
            if next == calls[function].count {
                state[function] = 2
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let (site, callee) = calls[function][next]
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
