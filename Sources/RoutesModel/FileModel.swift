import RoutesSyntax

// The model keeps byte offsets in 32 bits (a name is 24 bytes, a declaration 56, a node 64,
// instead of 32, 152 and 96): a program of a million lines holds hundreds of thousands of
// each. A file is at most `SourceLimits.maxFileBytes` (16 MiB) long, so every offset fits.

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
    /// The names of every `uses` clause of `nodes`, clause after clause (see ``BuilderNode/Span``).
    public var useNames: [Name] = []
    /// The branches of every `anyOf` of `nodes`, one after the other.
    public var branchIDs: [NodeID] = []
    /// Problems found while lowering (e.g. a parameter label given twice).
    public var diagnostics: [Diagnostic] = []
    /// Whether an `import` has no usable path string (missing, unterminated, a bad escape):
    /// its syntax error is the one error, and the names the files that see it leave undefined
    /// are not reported one by one (they may have come from the file it meant).
    public var hasBrokenImport = false
    /// The identifiers in text the parser skipped after a syntax error (a second builder in a
    /// block, a condition written as an expression, a block past the nesting limit) or that
    /// no declaration holds (the block of a builder without a usable name), and the names of
    /// declarations that hold a syntax error (half written). The file mentions them: what
    /// they name is not reported as unused or never placed.
    public var skippedNames: [String] = []
    /// Whether `nodes` was emptied (see ``Project/leavingOutBuilderNodes()``): the file's
    /// nodes are then ``Project/builderNodes(of:)``.
    public internal(set) var nodesLeftOut = false

    public init() {}

    public func node(_ id: NodeID) -> BuilderNode { nodes[id] }

    /// The names of a `uses` clause.
    public func uses(_ span: BuilderNode.Span) -> ListView<Name> { ListView(useNames, span) }

    /// The branches of an `anyOf`.
    public func branches(_ span: BuilderNode.Span) -> ListView<NodeID> { ListView(branchIDs, span) }

    /// Node `id`'s direct children, in source order.
    public func children(of id: NodeID) -> [NodeID] { nodes[id].children(in: self) }

    /// Every name the file mentions as a use, with the kinds it may refer to.
    public var nameUses: [(name: Name, expected: [DeclarationKind])] {
        var out: [(Name, [DeclarationKind])] = []
        out.reserveCapacity(nodes.count + declarations.count)
        forEachNameUse(declarations: declarations.indices, nodes: nodes.indices) { name, kinds, _ in out.append((name, kinds)) }
        return out
    }

    /// Calls `body` with each name that declarations `ds` (their `from`) and nodes `ns`
    /// mention as a use, with the kinds it may refer to, and whether a `uses` list already
    /// listed it (a name listed twice is one entry): declarations first, then nodes, each in
    /// order.
    public func forEachNameUse(declarations ds: Range<Int>, nodes ns: Range<Int>, _ body: (Name, [DeclarationKind], _ repeated: Bool) -> Void) {
        for i in ds {
            if let from = declarations[i].from { body(from, Kinds.screen, false) }
            if let link = declarations[i].link { link.forEachScreen { body($0, Kinds.screen, false) } }
        }
        // (The nodes read in place: a copy of a node retained and released what it holds.)
        nodes.withUnsafeBufferPointer { buffer in
            guard let nodes = buffer.baseAddress else { return }
            for node in ns {
                switch nodes[node].kind {
                case .screen(let screen, let uses, _):
                    if let screen { body(screen, Kinds.screen, false) }
                    for i in uses.range {
                        let name = useNames[i]
                        body(name, Kinds.value, useNames[uses.range.lowerBound..<i].contains { $0.text == name.text })
                    }
                case .conditional(let flag, _, _):
                    if let flag { body(flag, Kinds.flag, false) }
                case .ifLet(let optional, _, _):
                    if let optional { body(optional, nodes[node].anyCondition ? Kinds.condition : Kinds.optional, false) }
                case .ifScreen(let screen, _, _), .wildcard(let screen, _):
                    if let screen { body(screen, Kinds.screen, false) }
                case .reference(let builder):
                    body(builder, Kinds.builder, false)
                case .anyOf, .empty, .missing:
                    break
                }
            }
        }
    }
}

/// One list of a file's nodes (a `uses` clause, an `anyOf`'s branches), indexed from 0.
public struct ListView<Element>: RandomAccessCollection {
    private let base: [Element]
    private let offset: Int
    public let count: Int

    init(_ base: [Element], _ span: BuilderNode.Span) {
        self.base = base
        offset = span.range.lowerBound
        count = span.range.count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(i: Int) -> Element {
        precondition(i >= 0 && i < count, "index out of the list")
        return base[offset + i]
    }
}

extension ListView: Sendable where Element: Sendable {}

/// Shared arrays of expected kinds (so that listing a file's name uses allocates none).
enum Kinds {
    static let screen: [DeclarationKind] = [.screen]
    static let value: [DeclarationKind] = [.dependency, .optional]
    static let flag: [DeclarationKind] = [.flag]
    static let optional: [DeclarationKind] = [.optional]
    static let condition: [DeclarationKind] = [.optional, .flag]
    static let builder: [DeclarationKind] = [.builder]
}
