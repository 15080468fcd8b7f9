import RoutesSyntax

/// A name as written: its text and byte range in its file.
public struct Name: Sendable, Hashable {
    public var text: String
    private var start: Int32
    private var end: Int32
    public var range: Range<Int> {
        get { Int(start)..<Int(end) }
        set {
            start = Int32(newValue.lowerBound)
            end = Int32(newValue.upperBound)
        }
    }
    public init(text: String, range: Range<Int>) {
        self.text = text
        start = Int32(range.lowerBound)
        end = Int32(range.upperBound)
    }
}

// The model keeps byte offsets in 32 bits (a name is 24 bytes, a declaration 56, a node 64,
// instead of 32, 152 and 96): a program of a million lines holds hundreds of thousands of
// each. A file is at most `SourceLimits.maxFileBytes` (16 MiB) long, so every offset fits.

/// How a screen is presented (docs/language.md#presentations).
public enum Presentation: String, Sendable, Hashable {
    case push
    case sheet
    /// `sheet(allowsPush: false)`: modal, and nothing can be pushed on it.
    case sheetNoPush
}

/// What a declaration declares. All kinds share one namespace.
public enum DeclarationKind: String, Sendable, Hashable, CaseIterable {
    case screen
    case dependency
    case optional
    case flag
    case builder
    case root

    /// The word used in messages ("a screen", "an optional").
    public var withArticle: String {
        switch self {
        case .optional: return "an optional"
        default: return "a \(rawValue)"
        }
    }
}

/// A screen parameter: `label: Type`.
public struct Parameter: Sendable, Hashable {
    public var label: Name
    public var type: String
}

/// One top-level declaration. Fields that do not apply to a kind stay empty.
public struct Declaration: Sendable {
    /// The declared name; for `root`, the keyword.
    public var name: Name
    /// Screens: parameters in order (none in a model that leaves them out, see
    /// `hasParameters`).
    public var parameters: [Parameter] = []
    /// What few declarations have (a doc comment, a type, `from`), out of line: nil when the
    /// declaration has none of them.
    private var details: Details?
    private var start: Int32
    private var end: Int32
    private var body32: Int32 = -1
    public var kind: DeclarationKind
    /// Screens: how the screen is presented.
    public var presentation: Presentation = .push
    /// Whether the lowering left out parameters the screen has (`Lowering.lower`).
    var parametersLeftOut = false
    /// Whether the screen has parameters, also in a model that left them out.
    public var hasParameters: Bool { !parameters.isEmpty || parametersLeftOut }

    /// The whole declaration.
    public var range: Range<Int> {
        get { Int(start)..<Int(end) }
        set {
            start = Int32(newValue.lowerBound)
            end = Int32(newValue.upperBound)
        }
    }
    /// Builders and `root`: the body (`nil` when a syntax error left none).
    public var body: NodeID? {
        get { body32 < 0 ? nil : Int(body32) }
        set { body32 = newValue.map { Int32($0) } ?? -1 }
    }
    /// The `///` doc comment before it, without the slashes.
    public var doc: String? {
        get { details?.doc }
        set { if newValue != nil || details != nil { writableDetails().doc = newValue } }
    }
    /// Dependencies and optionals: the Swift type as written.
    public var type: String? {
        get { details?.type }
        set { if newValue != nil || details != nil { writableDetails().type = newValue } }
    }
    /// Dependencies: `from P`.
    public var from: Name? {
        get { details?.from }
        set { if newValue != nil || details != nil { writableDetails().from = newValue } }
    }

    public init(kind: DeclarationKind, name: Name, range: Range<Int>, doc: String? = nil) {
        self.kind = kind
        self.name = name
        start = Int32(range.lowerBound)
        end = Int32(range.upperBound)
        self.doc = doc
    }

    /// The details, copied first when another declaration shares them (a value, as an array
    /// is: a copy of a declaration never sees the other's writes).
    private mutating func writableDetails() -> Details {
        if details != nil && isKnownUniquelyReferenced(&details!) { return details! }
        let d = Details(copying: details)
        details = d
        return d
    }

    /// Written only through `writableDetails()`, on a reference no other declaration holds.
    private final class Details: @unchecked Sendable {
        var doc: String?
        var type: String?
        var from: Name?

        init(copying other: Details?) {
            doc = other?.doc
            type = other?.type
            from = other?.from
        }
    }
}

/// An index into `FileModel.nodes`.
public typealias NodeID = Int

/// One path builder (docs/language.md#builders): the PathBuilder model, one case per builder.
public struct BuilderNode: Sendable {
    public enum Kind: Sendable {
        /// `screen S uses d1, d2 { nesting }`; no nesting means `empty`.
        case screen(Name?, uses: [Name], nesting: NodeID?)
        case anyOf([NodeID])
        case conditional(Name?, then: NodeID, else: NodeID)
        /// No `else` means `empty`.
        case ifLet(Name?, then: NodeID, else: NodeID?)
        case ifScreen(Name?, then: NodeID, else: NodeID?)
        case wildcard(Name?, body: NodeID)
        case empty
        /// A named builder.
        case reference(Name)
        /// A hole a syntax error left: builds nothing.
        case missing
    }

    public var kind: Kind
    private var start: Int32
    private var end: Int32
    private var headStart: Int32
    private var headEnd: Int32
    /// An `if` written without `let` or `screen` (a syntax error): read as `if let`, but its
    /// name may be a flag or an optional, so that the one mistake is not also a `WrongKind` error.
    public var anyCondition = false
    /// A `wildcard` written with arguments (`wildcard Tabs(selected: 0)`, a syntax error that
    /// says its screen takes none): `invalid-wildcard` is not reported for it again.
    public var argumentsSkipped = false

    /// The whole builder.
    public var range: Range<Int> {
        get { Int(start)..<Int(end) }
        set {
            start = Int32(newValue.lowerBound)
            end = Int32(newValue.upperBound)
        }
    }
    /// Its first token through its name (`screen Home`, `if let store`, `anyOf`).
    public var head: Range<Int> {
        get { Int(headStart)..<Int(headEnd) }
        set {
            headStart = Int32(newValue.lowerBound)
            headEnd = Int32(newValue.upperBound)
        }
    }

    public init(kind: Kind, range: Range<Int>, head: Range<Int>, anyCondition: Bool = false) {
        self.kind = kind
        start = Int32(range.lowerBound)
        end = Int32(range.upperBound)
        headStart = Int32(head.lowerBound)
        headEnd = Int32(head.upperBound)
        self.anyCondition = anyCondition
    }

    /// The node's direct children, in source order.
    public var children: [NodeID] {
        switch kind {
        case .screen(_, _, let nesting): return nesting.map { [$0] } ?? []
        case .anyOf(let branches): return branches
        case .conditional(_, let a, let b): return [a, b]
        case .ifLet(_, let a, let b), .ifScreen(_, let a, let b): return [a] + (b.map { [$0] } ?? [])
        case .wildcard(_, let body): return [body]
        case .empty, .reference, .missing: return []
        }
    }

    /// The name the builder mentions first (screen, flag, optional, wildcard screen, builder).
    public var name: Name? {
        switch kind {
        case .screen(let n, _, _), .conditional(let n, _, _), .ifLet(let n, _, _), .ifScreen(let n, _, _), .wildcard(let n, _):
            return n
        case .reference(let n): return n
        case .anyOf, .empty, .missing: return nil
        }
    }
}

/// `import "path"`.
public struct Import: Sendable, Hashable {
    /// The decoded path string.
    public var path: String
    /// The string literal's range.
    public var range: Range<Int>
}

/// The model of one file: what it imports, declares and builds.
public struct FileModel: Sendable {
    public var imports: [Import] = []
    public var declarations: [Declaration] = []
    public var nodes: [BuilderNode] = []
    /// Problems found while lowering (e.g. a parameter label given twice).
    public var diagnostics: [Diagnostic] = []
    /// The identifiers in text the parser skipped after a syntax error (a second builder in a
    /// block, a condition written as an expression, a block past the nesting limit), in
    /// source order. They are in no declaration or node, but the file mentions them: what
    /// they name is not reported as unused or never placed.
    public var skippedNames: [String] = []
    /// Whether `nodes` was emptied (see ``Project/leavingOutBuilderNodes()``): the file's
    /// nodes are then ``Project/builderNodes(of:)``.
    public internal(set) var nodesLeftOut = false

    public init() {}

    public func node(_ id: NodeID) -> BuilderNode { nodes[id] }

    /// Every name the file mentions as a use, with the kinds it may refer to.
    public var nameUses: [(name: Name, expected: [DeclarationKind])] {
        var out: [(Name, [DeclarationKind])] = []
        out.reserveCapacity(nodes.count + declarations.count)
        forEachNameUse(declarations: declarations.indices, nodes: nodes.indices) { out.append(($0, $1)) }
        return out
    }

    /// Calls `body` with each name that declarations `ds` (their `from`) and nodes `ns`
    /// mention as a use, with the kinds it may refer to: declarations first, then nodes, each
    /// in order.
    public func forEachNameUse(declarations ds: Range<Int>, nodes ns: Range<Int>, _ body: (Name, [DeclarationKind]) -> Void) {
        for i in ds {
            if let f = declarations[i].from { body(f, Kinds.screen) }
        }
        for i in ns {
            switch nodes[i].kind {
            case .screen(let s, let uses, _):
                if let s { body(s, Kinds.screen) }
                for u in uses { body(u, Kinds.value) }
            case .conditional(let f, _, _):
                if let f { body(f, Kinds.flag) }
            case .ifLet(let o, _, _):
                if let o { body(o, nodes[i].anyCondition ? Kinds.condition : Kinds.optional) }
            case .ifScreen(let s, _, _), .wildcard(let s, _):
                if let s { body(s, Kinds.screen) }
            case .reference(let b):
                body(b, Kinds.builder)
            case .anyOf, .empty, .missing:
                break
            }
        }
    }
}

/// Shared arrays of expected kinds (so that listing a file's name uses allocates none).
enum Kinds {
    static let screen: [DeclarationKind] = [.screen]
    static let value: [DeclarationKind] = [.dependency, .optional]
    static let flag: [DeclarationKind] = [.flag]
    static let optional: [DeclarationKind] = [.optional]
    static let condition: [DeclarationKind] = [.optional, .flag]
    static let builder: [DeclarationKind] = [.builder]
}
