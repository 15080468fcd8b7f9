import RoutesSyntax

/// "Outermost cause once": no warning is reported inside something already reported (a
/// shadowed branch, a mismatched wildcard, the nesting of a node never built), nor in a named
/// builder all of whose references lie inside such places, nor again as an unreachable node
/// where the node is a shadowed branch. A push into a sheet (`PushInSheet`) is not such a place: a push
/// that follows it is reported too.
enum OutermostCause {
    /// A warning at a node, before the filter.
    struct Warning {
        var node: GraphNode
        var diagnostic: Diagnostic
    }

    /// The places whose insides are not reported again.
    struct Causes {
        var shadowedBranches: [GraphNode] = []
        var mismatchedWildcards: [GraphNode] = []
        var unreachableNodes: [GraphNode] = []
    }

    /// The warnings that lie in no reported place.
    static func filter(_ warnings: [Warning], causes: Causes, _ facts: ProgramFacts) -> [Warning] {
        if warnings.isEmpty { return [] }
        let graph = facts.graph
        var inside = [Bool](repeating: false, count: graph.nodes.count)
        func markSubtree(_ root: Int) {
            var stack = [root]
            while let g = stack.popLast() {
                if inside[g] { continue }
                inside[g] = true
                graph.forEachChild(g) { stack.append($0) }
                if case .screen(_, let nesting?) = graph.nodes[g].kind { stack.append(nesting) }
            }
        }
        let shadowed = Set(causes.shadowedBranches.map(\.index))
        for b in shadowed {
            for c in graph.children(b) { markSubtree(c) }
            if case .screen(_, let nesting?) = graph.nodes[b].kind { markSubtree(nesting) }
        }
        for w in causes.mismatchedWildcards { for c in graph.children(w.index) { markSubtree(c) } }
        for u in causes.unreachableNodes {
            if case .screen(_, let nesting?) = graph.nodes[u.index].kind { markSubtree(nesting) }
        }
        // Builders referenced only from inside such places, or from each other, are inside
        // too: the greatest set of used builders none of whose references is live.
        var references: [Int: [Int]] = [:]
        for g in graph.nodes.indices where facts.used[g] {
            if case .reference(let b?) = graph.nodes[g].kind { references[b, default: []].append(g) }
        }
        let usedInOrder = facts.usedBuilders.members
        var candidate = facts.usedBuilders
        var changed = true
        while changed {
            changed = false
            for b in usedInOrder where candidate.contains(b) {
                let live = references[b, default: []].contains { r in
                    if inside[r] || shadowed.contains(r) { return false }
                    if let owner = lexicalBuilder(r, facts), candidate.contains(owner) { return false }
                    return true
                }
                if live {
                    candidate.remove(b)
                    changed = true
                }
            }
        }
        for b in usedInOrder where candidate.contains(b) {
            if let body = graph.builders[b].body { markSubtree(body) }
        }
        // A shadowed branch is reported as such, not again as an unreachable node.
        return warnings.filter { w in
            let g = w.node.index
            return !inside[g] && (w.diagnostic.rule == ShadowedBranch.id || !shadowed.contains(g))
        }
    }

    /// The named builder whose body lexically contains g (through nestings), if any.
    private static func lexicalBuilder(_ g: Int, _ facts: ProgramFacts) -> Int? {
        let graph = facts.graph, semantics = facts.semantics
        var top = graph.bodyTop(g)
        var steps = 0
        while let owner = semantics.nestingOwner(top), steps < graph.nodes.count {
            top = graph.bodyTop(owner)
            steps += 1
        }
        return semantics.bodyOwner(top)
    }
}
