import RoutesSyntax

/// "Outermost cause once": no warning is reported inside something already reported (a
/// shadowed branch, a mismatched wildcard, the nesting of a node never built) or inside what
/// an unresolved screen or wildcard holds (never reached, by the name), nor in a named
/// builder all of whose references lie inside such places, nor again by another rule at a
/// node reported as a cause of its own (a shadowed branch is not also an unreachable node).
/// Each node rule says what of the nodes it reports is covered (`NodeRule.cause`); a push
/// into a sheet (`PushInSheet`) covers nothing, so a push that follows it is reported too.
enum OutermostCause {
    /// What of a reported node is not reported again.
    struct Covered: OptionSet, Sendable {
        let rawValue: Int
        /// The node itself: another rule's warning at it, and a reference it is (which then
        /// keeps no builder in use).
        static let node = Covered(rawValue: 1)
        /// What its children build.
        static let children = Covered(rawValue: 2)
        /// Its nesting, when it is a `screen` node.
        static let nesting = Covered(rawValue: 4)
    }

    /// A warning at a node, before the filter, with what it covers.
    struct Warning {
        var node: Int
        var diagnostic: Diagnostic
        var covered: Covered = []
    }

    /// The warnings that lie in no place another warning covers.
    static func filter(_ warnings: [Warning], _ facts: ProgramFacts) -> [Warning] {
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
        // The nodes covered themselves, by the rule that covers them.
        var coveredBy: [Int: RuleID] = [:]
        for warning in warnings where !warning.covered.isEmpty {
            if warning.covered.contains(.node) { coveredBy[warning.node] = warning.diagnostic.rule }
            if warning.covered.contains(.children) { for child in graph.children(warning.node) { markSubtree(child) } }
            if warning.covered.contains(.nesting), case .screen(_, let nesting?) = graph.nodes[warning.node].kind { markSubtree(nesting) }
        }
        // What an unresolved screen or wildcard holds is never reached: a warning there would
        // be caused by the name (and one the alternative reading finds, which takes the name for
        // any screen, is not reported where the primary reading evaluates nothing).
        for g in facts.semantics.unresolvedNodes where facts.used[g] {
            if let held = Semantics.hiddenNode(of: graph.nodes[g].kind) { markSubtree(held) }
        }
        for body in bodiesUsedOnlyInside(inside, coveredNodes: coveredBy, facts) { markSubtree(body) }
        return warnings.filter { warning in
            !inside[warning.node] && (coveredBy[warning.node].map { $0 == warning.diagnostic.rule } ?? true)
        }
    }

    /// The bodies of the used builders referenced only from inside covered places, or from
    /// each other: the greatest set of used builders none of whose references is live.
    private static func bodiesUsedOnlyInside(_ inside: [Bool], coveredNodes: [Int: RuleID], _ facts: ProgramFacts) -> [Int] {
        let graph = facts.graph
        var references: [Int: [Int]] = [:]
        for g in graph.nodes.indices where facts.used[g] {
            if case .reference(let builder?) = graph.nodes[g].kind { references[builder, default: []].append(g) }
        }
        let usedInOrder = facts.usedBuilders.members
        var candidate = facts.usedBuilders
        var changed = true
        while changed {
            changed = false
            for builder in usedInOrder where candidate.contains(builder) {
                let live = references[builder, default: []].contains { reference in
                    if inside[reference] || coveredNodes[reference] != nil { return false }
                    if let owner = lexicalBuilder(reference, facts), candidate.contains(owner) { return false }
                    return true
                }
                if live {
                    candidate.remove(builder)
                    changed = true
                }
            }
        }
        return usedInOrder.compactMap { candidate.contains($0) ? graph.builders[$0].body : nil }
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
