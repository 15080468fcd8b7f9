import RoutesModel
import RoutesSyntax

/// The routing-tree preview (README.md, `routes tree`): the tree from `root`, references
/// expanded inline, a `↻ name` node for a reference to a builder already being expanded on the
/// current chain.
///
/// Stored flat, in pre-order (`nodes[0]` is `root`; a node's children follow it), so that
/// building and rendering never recurse: a chain of thousands of builders cannot overflow
/// the stack. The text, JSON, DOT and Mermaid renderers all read this one value.
///
/// Expanding references inline can explode (a builder referenced twice at each of 30
/// levels has 2^30 nodes), so the tree is cut at ``Limits/maxNodes`` nodes and at depth
/// ``Limits/maxDepth``; a node whose descendants were cut records how many
/// (``Node/omitted``), and the text prints `… (truncated: N more nodes)` as its last child.
/// Cut nodes are counted up to ``Limits/maxCounted``; past that the counts are lower bounds
/// (`at least N`).
public struct RoutingTree: Sendable {
    /// The kinds of nodes, as the JSON names them.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case root, screen, anyOf, conditional, ifLet, ifScreen, wildcard, empty, reference, recursion
    }

    public struct Node: Sendable, Hashable {
        public var kind: Kind
        /// The screen, flag, optional, wildcard screen or builder named, if any.
        public var name: String?
        /// `true`/`false` under a `conditional`, `then`/`else` under `if let` and `if screen`.
        public var label: String?
        /// Screens whose name resolves: the presentation in force at the node (its own
        /// `as …`, else its screen's).
        public var presentation: Presentation?
        /// Screens: the `uses` list, each name once, in order.
        public var uses: [String] = []
        /// Where the node is written: its head (`screen Home`, `if let store`, `root`).
        public var file: FileID
        public var range: Range<Int>
        /// The builder node shown; nil for `root`.
        public var source: NodeRef?
        /// True when a name the node needs does not resolve (a `reference` is then shown
        /// unexpanded; a `screen` builds nothing).
        public var unresolved: Bool = false
        public var parent: Int?
        public var children: [Int] = []
        public var depth: Int
        /// `recursion`: the node where that builder's expansion started on this chain (the
        /// target of the back edge); nil when the expansion starts at the recursion itself
        /// (`builder b { b }`).
        public var recursionTarget: Int?
        /// Descendants not shown because of the limits.
        public var omitted: Int = 0
    }

    public struct Limits: Sendable, Hashable {
        public var maxNodes: Int
        public var maxDepth: Int
        public var maxCounted: Int
        public init(maxNodes: Int = 20_000, maxDepth: Int = 200, maxCounted: Int = 1_000_000) {
            self.maxNodes = max(1, maxNodes)
            self.maxDepth = maxDepth
            self.maxCounted = maxCounted
        }
        public static let standard = Limits()
    }

    /// In pre-order; `nodes[0]` is `root`.
    public var nodes: [Node]
    /// True when counting the cut nodes stopped at ``Limits/maxCounted``: the omitted counts
    /// are then lower bounds.
    public var omittedIsLowerBound: Bool
    /// All nodes not shown.
    public var omitted: Int { nodes.reduce(0) { $0 + $1.omitted } }
    public var isTruncated: Bool { omitted > 0 || omittedIsLowerBound }

    /// The tree of a program: `root`, then its body.
    public init(program: Program, project: Project, limits: Limits = .standard) {
        var expander = TreeExpander(project: project, limits: limits)
        expander.run(program)
        nodes = expander.nodes
        omittedIsLowerBound = expander.lowerBound
    }

    /// The tree one named builder builds (e.g. for hover): its body is `nodes[0]`, expanded
    /// like the program's tree with the builder itself already on the chain (so recursion
    /// into it prints `↻ name`). Empty when the builder has no body.
    public init(builder: Symbol, project: Project, limits: Limits = .standard) {
        var expander = TreeExpander(project: project, limits: limits)
        expander.run(builder: builder)
        nodes = expander.nodes
        omittedIsLowerBound = expander.lowerBound
    }

    // MARK: Text

    /// One line: the label (unless `labelled` is false), then what the node is.
    public func line(_ index: Int, labelled: Bool = true) -> String {
        let node = nodes[index]
        let body: String
        switch node.kind {
        case .root: body = "root"
        case .screen:
            var text = node.name ?? "?"
            if let presentation = node.presentation, presentation != .push { text += " (\(presentation.previewText))" }
            if node.unresolved { text += " (unresolved)" }
            if !node.uses.isEmpty { text += "  uses " + node.uses.joined(separator: ", ") }
            body = text
        case .anyOf: body = "anyOf"
        case .conditional: body = "conditional \(node.name ?? "?")"
        case .ifLet: body = "if let \(node.name ?? "?")"
        case .ifScreen: body = "if screen \(node.name ?? "?")"
        case .wildcard: body = "wildcard \(node.name ?? "?")"
        case .empty: body = "empty"
        case .reference: body = "\(node.name ?? "?")  (unresolved)"
        case .recursion: body = "↻ \(node.name ?? "?")"
        }
        guard labelled, let label = node.label else { return body }
        return "\(label): \(body)"
    }

    /// The line that stands for the cut descendants of a node.
    public func truncationLine(_ i: Int) -> String {
        "… (truncated: \(omittedIsLowerBound ? "at least " : "")\(nodes[i].omitted) more node\(nodes[i].omitted == 1 ? "" : "s"))"
    }

    /// The tree as text (as `Examples/Seed/App.tree` shows it), one line per node, ending with
    /// a newline.
    public var text: String {
        guard !nodes.isEmpty else { return "" }
        var out = ""
        // (node, prefix of its children, connector for its own line); -1-node: truncation line of node.
        var stack: [(node: Int, prefix: String, connector: String)] = [(0, "", "")]
        while let (node, prefix, connector) = stack.popLast() {
            if node < 0 {
                out += connector + truncationLine(-1 - node) + "\n"
                continue
            }
            out += connector + line(node) + "\n"
            var items = nodes[node].children
            if nodes[node].omitted > 0 { items.append(-1 - node) }
            for (position, item) in items.enumerated().reversed() {
                let last = position == items.count - 1
                stack.append((item, prefix + (last ? "   " : "│  "), prefix + (last ? "└─ " : "├─ ")))
            }
        }
        return out
    }
}

/// Builds a ``RoutingTree`` depth-first with an explicit stack. The chain of builders being
/// expanded is the set of builders started by the nodes on the current root path: an `exit`
/// item after a node's children takes its builders off the chain again.
struct TreeExpander {
    let project: Project
    let limits: RoutingTree.Limits
    var nodes: [RoutingTree.Node] = []
    var lowerBound = false

    enum Item {
        /// `attach`: the parent when emitting; when counting, the shown ancestor that gets
        /// the count.
        /// `entering`: a builder whose body `NodeRef` is (the start of a builder's tree).
        case visit(NodeRef, label: String?, parent: Int?, depth: Int, counting: Bool, entering: Symbol?)
        case exit([Symbol])
    }

    /// How many times each builder is on the current chain, and where its expansion started.
    var chain: [Symbol: Int] = [:]
    var started: [Symbol: Int] = [:]
    var counted = 0

    init(project: Project, limits: RoutingTree.Limits) {
        self.project = project
        self.limits = limits
    }

    func model(_ f: FileID) -> FileModel { project.files[f].model }

    func resolved(_ name: Name?, in file: FileID, _ kind: DeclarationKind) -> Symbol? {
        guard let name, let s = project.resolve(name, in: file), project.declaration(s).kind == kind else { return nil }
        return s
    }

    /// The children of a builder node with their labels (holes syntax errors left out).
    func children(_ parent: NodeRef) -> [(NodeRef, String?)] {
        let fileModel = model(parent.file)
        func ref(_ id: NodeID) -> NodeRef { NodeRef(file: parent.file, node: id) }
        var out: [(NodeRef, String?)] = []
        switch fileModel.nodes[parent.node].kind {
        case .screen(_, _, let nesting): if let nesting { out = [(ref(nesting), nil)] }
        case .anyOf(let branches): out = fileModel.branches(branches).map { (ref($0), nil) }
        case .conditional(_, let then, let otherwise): out = [(ref(then), "true"), (ref(otherwise), "false")]
        case .ifLet(_, let then, let otherwise), .ifScreen(_, let then, let otherwise):
            out = [(ref(then), "then")]
            if let otherwise { out.append((ref(otherwise), "else")) }
        case .wildcard(_, let body): out = [(ref(body), nil)]
        case .empty, .reference, .missing: break
        }
        return out.filter {
            if case .missing = fileModel.nodes[$0.0.node].kind { return false }
            return true
        }
    }

    mutating func run(_ program: Program) {
        let rootFile = program.root.file
        let decl = project.declaration(program.root)
        nodes.append(RoutingTree.Node(kind: .root, name: nil, label: nil, presentation: nil, file: rootFile,
                                      range: decl.name.range, source: nil, parent: nil, depth: 0))
        if let body = decl.body {
            expand([.visit(NodeRef(file: rootFile, node: body), label: nil, parent: 0, depth: 1, counting: false, entering: nil)])
        }
    }

    mutating func run(builder: Symbol) {
        guard let body = project.declaration(builder).body else { return }
        expand([.visit(NodeRef(file: builder.file, node: body), label: nil, parent: nil, depth: 0, counting: false, entering: builder)])
    }

    mutating func expand(_ initial: [Item]) {
        var stack = initial
        while let item = stack.popLast() {
            switch item {
            case .exit(let builders):
                for builder in builders {
                    chain[builder, default: 1] -= 1
                    if chain[builder] == 0 { chain[builder] = nil }
                }
            case .visit(var ref, let label, let parent, let depth, var counting, let entering):
                // Expand references inline: the node shown is the body's.
                var builders: [Symbol] = entering.map { [$0] } ?? []
                var recursion: (name: Name, at: NodeRef, target: Int?)? = nil
                var unresolvedReference: Name? = nil
                while case .reference(let name) = model(ref.file).nodes[ref.node].kind {
                    guard let builder = resolved(name, in: ref.file, .builder), let body = project.declaration(builder).body else {
                        unresolvedReference = name
                        break
                    }
                    if chain[builder] != nil || builders.contains(builder) {
                        let target = builders.contains(builder) ? nil : started[builder]
                        recursion = (name, ref, target)
                        break
                    }
                    builders.append(builder)
                    ref = NodeRef(file: builder.file, node: body)
                }
                if recursion == nil && unresolvedReference == nil, case .missing = model(ref.file).nodes[ref.node].kind {
                    continue  // a reference to a builder whose body a syntax error left out
                }
                if !counting && (nodes.count >= limits.maxNodes || depth > limits.maxDepth) { counting = true }
                var index = parent ?? 0
                if counting {
                    guard let parent else { break }
                    if counted >= limits.maxCounted {
                        lowerBound = true
                        stack.removeAll()
                        break
                    }
                    counted += 1
                    nodes[parent].omitted += 1
                } else {
                    index = nodes.count
                    nodes.append(makeNode(ref, label: label, parent: parent, depth: depth,
                                          recursion: recursion.map { ($0.name, $0.at, $0.target) }, unresolved: unresolvedReference))
                    if let parent { nodes[parent].children.append(index) }
                }
                if recursion != nil || unresolvedReference != nil { continue }
                for builder in builders {
                    chain[builder, default: 0] += 1
                    if !counting { started[builder] = index }
                }
                stack.append(.exit(builders))
                for (child, childLabel) in children(ref).reversed() {
                    stack.append(.visit(child, label: childLabel, parent: index, depth: depth + 1, counting: counting, entering: nil))
                }
            }
        }
    }

    func makeNode(_ ref: NodeRef, label: String?, parent: Int?, depth: Int,
                  recursion: (Name, NodeRef, Int?)?, unresolved: Name?) -> RoutingTree.Node {
        let fileModel = model(ref.file)
        let builderNode = fileModel.nodes[ref.node]
        var node = RoutingTree.Node(kind: .empty, name: nil, label: label, presentation: nil, file: ref.file,
                                    range: builderNode.head, source: ref, parent: parent, depth: depth)
        if let (name, at, target) = recursion {
            node.kind = .recursion
            node.name = name.text
            node.file = at.file
            node.range = model(at.file).nodes[at.node].head
            node.source = at
            node.recursionTarget = target
            return node
        }
        if let name = unresolved {
            node.kind = .reference
            node.name = name.text
            node.unresolved = true
            return node
        }
        node.name = builderNode.name?.text
        switch builderNode.kind {
        case .screen(let name, let uses, _):
            node.kind = .screen
            if let s = resolved(name, in: ref.file, .screen) {
                node.presentation = project.presentation(ofScreenNode: ref.node, in: ref.file, screen: s)
            } else {
                // (Every screen node has a presentation: an undeclared screen's is its
                // placement's, else the one of a screen declared without any.)
                node.presentation = builderNode.presentation ?? .push
                node.unresolved = true
            }
            var seen = Set<String>()
            node.uses = fileModel.uses(uses).map(\.text).filter { seen.insert($0).inserted }
        case .anyOf: node.kind = .anyOf
        case .conditional(let flag, _, _):
            node.kind = .conditional
            node.unresolved = resolved(flag, in: ref.file, .flag) == nil
        case .ifLet(let optional, _, _):
            node.kind = .ifLet
            node.unresolved = resolved(optional, in: ref.file, .optional) == nil
        case .ifScreen(let screen, _, _):
            node.kind = .ifScreen
            node.unresolved = resolved(screen, in: ref.file, .screen) == nil
        case .wildcard(let screen, _):
            node.kind = .wildcard
            node.unresolved = resolved(screen, in: ref.file, .screen) == nil
        case .empty, .missing: node.kind = .empty
        case .reference: node.kind = .reference  // not reached: references are expanded above
        }
        return node
    }
}
