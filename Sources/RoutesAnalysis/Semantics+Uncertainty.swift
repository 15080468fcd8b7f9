import RoutesModel
import RoutesSyntax

extension Semantics {
    /// The least fixpoint of "a node is uncertain when it is an uncertain leaf, a reference
    /// to an uncertain builder, or has an uncertain child; a builder is uncertain when it is
    /// cyclic or its body is", propagated upwards from the leaves: the cost is the uncertain
    /// nodes' (usually a few), not the graph's.
    ///
    /// With builds carried over an edit and no cycle (`carried`), the unresolved nodes and
    /// the uncertain leaves are the earlier ones patched over the edited nodes, not found by
    /// a pass over every node.
    func computeUncertainty(carrying carried: Carryover?) {
        if let carried {
            unresolvedNodes = carried.unresolvedNodes
            uncertainLeaves = carried.uncertainLeaves
        } else {
            unresolvedNodes = graph.nodes.indices.filter { graph.nodes[$0].unresolved }
            uncertainLeaves = graph.nodes.indices.filter { isUncertainLeaf($0) && !cyclicReferences.contains($0) }
        }
        let marked = dependents(of: unresolvedNodes + cyclicReferences, builders: cyclic.indices.filter { cyclic[$0] }).nodes
        uncertain = marked.flags
        uncertainNodes = marked.members
    }

    /// Whether a node of this kind is an unresolved screen with a nesting, or an unresolved
    /// wildcard (or one of a screen with parameters): it builds nothing, so what it holds is
    /// never reached, and no error is reported there; the alternative reading takes it for
    /// any screen, so that no warning there or after it is caused by the name.
    static func hidesWhatItHolds(_ kind: BuilderGraph.Kind) -> Bool { hiddenNode(of: kind) != nil }

    /// The node such a node holds (its nesting, or its block), if it is one.
    static func hiddenNode(of kind: BuilderGraph.Kind) -> Int? {
        switch kind {
        case .screen(nil, let nesting): nesting
        case .wildcard(nil, let body): body
        default: nil
        }
    }

    /// What depends on `nodes` and on the builders `builders` within one evaluation: each
    /// such node and its ancestors up to its body's top, the builder whose body that is, every
    /// reference to such a builder (from the table of referrers) with its ancestors, and so
    /// on; with the builders reached.
    func dependents(of nodes: some Sequence<Int>, builders: some Sequence<Int>) -> (nodes: MarkedNodes, builders: MarkedNodes) {
        var marked = MarkedNodes(count: graph.nodes.count)
        var markedBuilder = MarkedNodes(count: graph.builders.count)
        var pending: [Int] = []
        let graph = self.graph, owners = self.owners, referrers = self.referrers
        func markBuilder(_ builder: Int) {
            if markedBuilder.insert(builder) { pending.append(builder) }
        }
        func markUp(_ g: Int) {
            var node = g
            while marked.insert(node) {
                guard let parent = graph.nodes[node].parent else {
                    if let builder = owners[node, .body] { markBuilder(builder) }
                    return
                }
                node = parent
            }
        }
        for g in nodes { markUp(g) }
        for builder in builders { markBuilder(builder) }
        while let builder = pending.popLast() {
            for referrer in referrers.neighbors(builder) where !marked[Int(referrer)] { markUp(Int(referrer)) }
        }
        return (marked, markedBuilder)
    }
}
