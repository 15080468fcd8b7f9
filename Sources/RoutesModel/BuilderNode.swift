import RoutesSyntax

/// An index into `FileModel.nodes`.
public typealias NodeID = Int

/// One path builder (docs/language.md#builders): the PathBuilder model, one case per builder.
public struct BuilderNode: Sendable {
    public enum Kind: Sendable {
        /// `screen S uses d1, d2 { nesting }`; no nesting means `empty`. The names of `uses`
        /// are the file's ``FileModel/uses(_:)``.
        case screen(Name?, uses: Span, nesting: NodeID?)
        /// The branches are the file's ``FileModel/branches(_:)``.
        case anyOf(Span)
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
    private var extent: Range32
    private var headExtent: Range32
    /// An `if` written without `let` or `screen` (a syntax error): read as `if let`, but its
    /// name may be a flag or an optional, so that the one mistake is not also a `WrongKind` error.
    public var anyCondition = false
    /// A `wildcard` written with arguments (`wildcard Tabs(selected: 0)`, a syntax error that
    /// says its screen takes none): `invalid-wildcard` is not reported for it again.
    public var argumentsSkipped = false
    /// A screen node's own presentation (`screen Detail as sheet`), which overrides its
    /// declaration's at this placement; nil when it has none.
    public var presentation: Presentation?

    /// A run of one of the file's lists (the names of a `uses` clause in
    /// ``FileModel/useNames``, the branches of an `anyOf` in ``FileModel/branchIDs``): the
    /// lists of a file's nodes are kept in two arrays, not an array each, for a program of a
    /// million lines has hundreds of thousands of them. A file's runs follow its nodes' order.
    public struct Span: Sendable, Hashable {
        var first: Int32
        public private(set) var count: Int32

        public init(_ range: Range<Int>) {
            first = Int32(range.lowerBound)
            count = Int32(range.count)
        }

        public var range: Range<Int> { Int(first)..<(Int(first) + Int(count)) }
        public var isEmpty: Bool { count == 0 }

        /// The same run `offset` elements further on (its list's earlier elements replaced).
        func moved(by offset: Int) -> Span { Span(Int(first) + offset..<(Int(first) + offset + Int(count))) }
    }

    /// The whole builder.
    public var range: Range<Int> {
        get { extent.range }
        set { extent = Range32(newValue) }
    }
    /// Its first token through its name (`screen Home`, `if let store`, `anyOf`).
    public var head: Range<Int> {
        get { headExtent.range }
        set { headExtent = Range32(newValue) }
    }

    public init(kind: Kind, range: Range<Int>, head: Range<Int>, anyCondition: Bool = false) {
        self.kind = kind
        extent = Range32(range)
        headExtent = Range32(head)
        self.anyCondition = anyCondition
    }

    /// The node's direct children, in source order (an `anyOf`'s from its file's `model`).
    public func children(in model: FileModel) -> [NodeID] {
        switch kind {
        case .screen(_, _, let nesting): return nesting.map { [$0] } ?? []
        case .anyOf(let branches): return Array(model.branches(branches))
        case .conditional(_, let then, let otherwise): return [then, otherwise]
        case .ifLet(_, let then, let otherwise), .ifScreen(_, let then, let otherwise): return [then] + (otherwise.map { [$0] } ?? [])
        case .wildcard(_, let body): return [body]
        case .empty, .reference, .missing: return []
        }
    }

    /// The name the builder mentions first (screen, flag, optional, wildcard screen, builder).
    public var name: Name? {
        switch kind {
        case .screen(let name, _, _), .conditional(let name, _, _), .ifLet(let name, _, _), .ifScreen(let name, _, _), .wildcard(let name, _):
            return name
        case .reference(let name): return name
        case .anyOf, .empty, .missing: return nil
        }
    }
}
