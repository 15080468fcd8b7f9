import RoutesAnalysis
import RoutesModel

/// What every target generates for one checked program, decided once: the Swift names, the
/// screens, what the app implements (an environment protocol and a content protocol), and
/// the routing tree as one function per (named builder, scope) with every value it uses in
/// scope by construction. A target (ComposableNavigator, later SwiftUI's NavigationStack)
/// only spells this out. See docs/codegen.md.
public struct ProgramPlan: Sendable {
    public struct Screen: Sendable {
        public var symbol: Symbol
        /// The Swift type, inside the namespace (`Detail`, escaped when needed).
        public var typeName: String
        public var parameters: [(label: String, type: String)]
        public var presentation: Presentation
        public var doc: String?
        /// What a `screen` of it provides to its nesting (`from` it), in declaration order.
        public var provides: [ScopeItem]
    }

    /// A member of the environment protocol: a flag (`Bool`), an optional without `from`
    /// (`T?`) or a dependency without `from` (`T`).
    public struct EnvironmentMember: Sendable {
        public var symbol: Symbol
        public var name: String
        public var type: String
        public var doc: String?
    }

    /// One method of the content protocol: the view of one screen, for one `uses` list.
    public struct ContentMethod: Sendable {
        public var screen: Int
        public var name: String
        /// The struct that carries the dependencies (nil when the list is empty).
        public var depsType: String?
        /// The dependencies, in declaration order: the field's name, its type, and what
        /// `uses` names.
        public var fields: [(name: String, type: String, symbol: Symbol)]
        /// The associated type of the screen's view.
        public var viewType: String
        /// The label of the view in the tuple returned when the screen provides values.
        public var viewLabel: String
        /// A node where the list is written, for documentation.
        public var example: NodeRef
    }

    /// Where a value the generated code passes comes from.
    public enum Source: Sendable, Hashable {
        /// A member of the environment.
        case environment(String)
        /// A local (a parameter of the function, a closure's parameter, a provided value).
        case local(ScopeItem)
    }

    /// The routing tree of one function, in scope.
    public indirect enum Builder: Sendable {
        /// `screen S`: the content method `method` with its arguments; the nesting, if any.
        case screen(node: NodeRef, screen: Int, method: Int, arguments: [Source], nesting: Builder?)
        case anyOf(node: NodeRef, [Builder])
        case conditional(node: NodeRef, flag: String, then: Builder, else: Builder)
        /// `if let o`: the value from `source`, bound as `item` in `then`.
        case ifLet(node: NodeRef, source: Source, item: ScopeItem, then: Builder, else: Builder?)
        case ifScreen(node: NodeRef, screen: Int, then: Builder, else: Builder?)
        case wildcard(node: NodeRef, screen: Int, body: Builder)
        case empty
        /// A node that is never built (or evaluated) where it stands here, because a value it
        /// needs is not in scope (the checker proved that no way reaches it there).
        case unreachable(node: NodeRef, missing: ScopeItem)
        /// A named builder: function `function` with the values it takes. `site` numbers the
        /// call; ``ProgramPlan/recursiveCalls`` holds those that close a cycle.
        case call(node: NodeRef, function: Int, site: Int)
    }

    /// One named builder (or `root`) for one set of values in scope where it is used.
    public struct Function: Sendable {
        /// nil for `root`.
        public var builder: Symbol?
        public var name: String
        /// The values it takes, in order.
        public var parameters: [ScopeItem]
        /// Values the builder needs that are not in scope where this variant is called (its
        /// nodes that need them are never built there).
        public var absent: [ScopeItem]
        public var body: Builder
    }

    public let program: Program
    /// The root file's display path, and the other files' paths relative to its folder.
    public let rootPath: String
    public let importedPaths: [String]
    public let namespace: String
    public let environmentProtocol: String
    public let contentProtocol: String
    /// Generic parameter names of the functions.
    public let environmentGeneric: String
    public let contentGeneric: String
    /// Parameter and local names of the functions.
    public let environmentParameter: String
    public let contentParameter: String
    public let viewLocal: String
    public internal(set) var screens: [Screen] = []
    public internal(set) var environment: [EnvironmentMember] = []
    public internal(set) var contentMethods: [ContentMethod] = []
    /// The content protocol in parts, when it has more view types than one Swift protocol
    /// holds (the compiler's rewrite system gives up at about 2,000 associated types): the
    /// protocols' names and the ranges of `contentMethods` each declares; `contentProtocol`
    /// is then their composition. Empty when one protocol holds them all.
    public internal(set) var contentParts: [(name: String, methods: Range<Int>)] = []
    /// `functions[0]` is `root`.
    public internal(set) var functions: [Function] = []
    /// The calls that reach their own function again (a `↻` of `routes tree`): built lazily
    /// and erased.
    public internal(set) var recursiveCalls: Set<Int> = []
    /// Aliases, declared outside the namespace, of the app's types that a type of the
    /// namespace hides (`typealias AppRoutesHome = Home` when a screen is `Home` and a
    /// dependency's type `Home.Store`): (alias, type).
    public internal(set) var typeAliases: [(alias: String, type: String)] = []
    /// Local names and Swift types of the scope items.
    public internal(set) var itemNames: [ScopeItem: String] = [:]
    public internal(set) var itemTypes: [ScopeItem: String] = [:]
    /// Whether a parameter of that item's type needs `@escaping`.
    public internal(set) var itemIsFunction: [ScopeItem: Bool] = [:]

    init(program: Program, rootPath: String, importedPaths: [String], namespace: String,
         names: (environmentProtocol: String, contentProtocol: String, environmentGeneric: String, contentGeneric: String,
                 environmentParameter: String, contentParameter: String, viewLocal: String)) {
        self.program = program
        self.rootPath = rootPath
        self.importedPaths = importedPaths
        self.namespace = namespace
        environmentProtocol = names.environmentProtocol
        contentProtocol = names.contentProtocol
        environmentGeneric = names.environmentGeneric
        contentGeneric = names.contentGeneric
        environmentParameter = names.environmentParameter
        contentParameter = names.contentParameter
        viewLocal = names.viewLocal
    }

    /// The Swift name of the value an item is bound to.
    public func name(_ item: ScopeItem) -> String { itemNames[item]! }

    /// Calls `body` with every builder of every function, each function's from its top, a
    /// builder before those inside it (a call's function is visited as a function, not at
    /// the call).
    func forEachBuilder(_ body: (Builder) -> Void) {
        for function in functions { function.body.forEach(body) }
    }
}

extension ProgramPlan.Builder {
    /// Calls `body` with this builder, then with every builder inside it, in source order.
    func forEach(_ body: (ProgramPlan.Builder) -> Void) {
        body(self)
        switch self {
        case .screen(_, _, _, _, let nesting): nesting?.forEach(body)
        case .anyOf(_, let branches): for branch in branches { branch.forEach(body) }
        case .conditional(_, _, let then, let otherwise):
            then.forEach(body)
            otherwise.forEach(body)
        case .ifLet(_, _, _, let then, let otherwise), .ifScreen(_, _, let then, let otherwise):
            then.forEach(body)
            otherwise?.forEach(body)
        case .wildcard(_, _, let inner): inner.forEach(body)
        case .empty, .unreachable, .call: break
        }
    }
}
