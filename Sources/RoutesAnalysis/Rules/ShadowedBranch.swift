import RoutesModel
import RoutesSyntax

/// `shadowed-branch`: an `anyOf` branch that, where the `anyOf` is evaluated, would build
/// something, but for every element it would build an earlier branch builds it first.
public enum ShadowedBranch: NodeRule {
    public static let id = RuleID("shadowed-branch")
    public static let severity = Severity.warning
    public static let category = RuleCategory.routing
    public static let summary = "An anyOf branch whose elements an earlier branch always builds first."
    public static let documentation = RuleDocumentation(
        what: """
            Branch i of an `anyOf` is shadowed when, over the (element, environment) pairs with \
            which the `anyOf` is really evaluated while resolving paths, it would build \
            something for some, and for every one of them an earlier branch builds that element \
            first. A wildcard that is not last, the same screen listed twice, and a branch \
            whose screens earlier branches already take are the usual cases. A branch that \
            builds nothing where it is evaluated is not shadowed: its screens are reported as unreachable. \
            Related: the earlier branches that take its elements. Nothing inside a shadowed \
            branch is reported again.
            """,
        why: """
            `anyOf` tries its branches in order and takes the first that builds the element: \
            the shadowed branch never builds anything, so its screen (and what its nesting \
            would show after it) never appears the way it is written.
            """,
        example: """
            screen Home
            screen Detail
            root {
              anyOf {
                screen Home
                screen Detail
                screen Home { screen Detail }
              }
            }
            """,
        fix: """
            Move the branch before the one that takes its elements, merge the two (one \
            `screen Home { … }` with the nesting you meant), or delete the dead branch.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            Move the branch before the first branch that takes its elements.
            """),
        RuleFix(.unsafe, """
            Remove the branch (it builds nothing where it is; what it was meant to build is \
            then lost from the file).
            """),
    ]

    /// What the fixes read: the branch and the earlier branches of its `anyOf` that take
    /// its elements, in order.
    public struct Detail: Sendable, Hashable {
        public var branch: NodeRef
        public var takenBy: [NodeRef]
    }

    struct Finding {
        var branch: GraphNode
        /// The earlier branches that build its elements first.
        var takenBy: [GraphNode]
    }

    /// Not reported when an unresolved name or a cycle is involved: what a branch that meets
    /// one would build is not known.
    static func check(_ facts: ProgramFacts) -> [Finding] { check(facts, concurrentFrom: anyOfsForConcurrentSuspicion) }

    /// `check(_:)`, its suspects found on every core from `concurrentFrom` evaluated, used
    /// `anyOf`s on (tests compare both ways).
    static func check(_ facts: ProgramFacts, concurrentFrom: Int) -> [Finding] {
        let flow = facts.flow
        let anyOfs = facts.graph.nodes.indices.filter { facts.used[$0] && isChoiceEvaluated($0, facts) }
        var found: [Finding] = []
        guard anyOfs.count >= concurrentFrom, !anyOfs.isEmpty else {
            for g in anyOfs { confirm(anyOf: g, branches: suspects(anyOf: g, facts) { flow.contextMeets($0, $1) }, facts, into: &found) }
            return found
        }
        // Which branches may be shadowed is asked on every core, in pieces of the `anyOf`s
        // (questions that make no node: `BDD.intersects(_:_:local:)`); the few suspected are
        // then checked here, in node order.
        let pieces = max(1, min(16, anyOfs.count / 128))
        let shared = UncheckedSendable((facts, anyOfs))
        let suspected = parallelMap(pieces) { piece -> [(anyOf: Int, branches: [Int])] in
            let (facts, anyOfs) = shared.value
            var local = BDD.LocalCache(bits: 12)
            let range = (anyOfs.count * piece / pieces)..<(anyOfs.count * (piece + 1) / pieces)
            return anyOfs[range].compactMap { g in
                let branches = suspects(anyOf: g, facts) { facts.flow.contextMeets($0, $1, local: &local) }
                return branches.isEmpty ? nil : (g, branches)
            }
        }
        for (g, branches) in suspected.joined() { confirm(anyOf: g, branches: branches, facts, into: &found) }
        return found
    }

    /// The evaluated, used `anyOf`s from which the branches that may be shadowed are found on
    /// every core (below that, on one: the pieces would cost more than they save).
    static let anyOfsForConcurrentSuspicion = 512

    /// The findings after an edit, given the earlier ones (in node order, as `check(_:)`
    /// makes them) and the nodes to look at `again` (increasing, without repeats): the
    /// changed nodes (evaluated in other contexts, building otherwise, on the same manager,
    /// or used or uncertain otherwise than before) and their parents. An `anyOf` whose node
    /// and branches are all unchanged has the findings it had, every other one is checked
    /// again. Only those nodes are looked at, not every node.
    static func check(_ facts: ProgramFacts, earlier: [Finding], changed again: [Int]) -> [Finding] {
        let graph = facts.graph
        var redone: [(anyOf: Int, findings: [Finding])] = []
        for g in again where facts.used[g] {
            var findings: [Finding] = []
            check(anyOf: g, facts, into: &findings)
            if !findings.isEmpty { redone.append((g, findings)) }
        }
        var found: [Finding] = []
        var next = 0
        for finding in earlier {
            guard let parent = graph.nodes[finding.branch.index].parent, !containsSorted(again, parent) else { continue }
            while next < redone.count && redone[next].anyOf < parent {
                found += redone[next].findings
                next += 1
            }
            found.append(finding)
        }
        for remaining in redone[next...] { found += remaining.findings }
        return found
    }

    static func node(of finding: Finding) -> Int? { finding.branch.index }

    /// A shadowed branch is the outermost cause of what it holds, and is not reported again
    /// as unreachable.
    static var cause: OutermostCause.Covered { [.node, .children, .nesting] }

    /// The findings of node g when it is an `anyOf`, appended in branch order.
    private static func check(anyOf g: Int, _ facts: ProgramFacts, into found: inout [Finding]) {
        guard isChoiceEvaluated(g, facts) else { return }
        confirm(anyOf: g, branches: suspects(anyOf: g, facts) { facts.flow.contextMeets($0, $1) }, facts, into: &found)
    }

    /// Whether node g is an `anyOf` of two branches or more that is evaluated: one whose
    /// branches may be shadowed.
    private static func isChoiceEvaluated(_ g: Int, _ facts: ProgramFacts) -> Bool {
        guard case .anyOf(let list) = facts.graph.nodes[g].kind, list.count > 1 else { return false }
        return facts.flow.isEvaluated(g)
    }

    /// The positions of the branches of `anyOf` g (evaluated, of two branches or more) that
    /// would build something for some pair of the anyOf's context, but for none of the pairs
    /// that reach them (a branch's own context is what earlier branches left), `meets`
    /// saying whether a node's context meets a set. The usual answer, a branch that builds
    /// where it is reached, is asked first, and these questions make no nodes.
    private static func suspects(anyOf g: Int, _ facts: ProgramFacts, meets: (Int, BDD.Ref) -> Bool) -> [Int] {
        let semantics = facts.semantics, graph = facts.graph
        guard case .anyOf(let list) = graph.nodes[g].kind else { return [] }
        var suspected: [Int] = []
        for index in 1..<Int(list.count) {
            let branch = graph.branch(list, index)
            if semantics.uncertain[branch] { continue }
            let builds = semantics.builds[branch]
            if !meets(branch, builds) && meets(g, builds) { suspected.append(index) }
        }
        return suspected
    }

    /// The findings among the suspected branches of `anyOf` g (see `suspects`), in both
    /// readings of cycles and unresolved names, appended in branch order.
    private static func confirm(anyOf g: Int, branches suspected: [Int], _ facts: ProgramFacts, into found: inout [Finding]) {
        let semantics = facts.semantics, graph = facts.graph, flow = facts.flow
        let bdd = semantics.bdd
        guard case .anyOf(let list) = graph.nodes[g].kind else { return }
        let branches = graph.branches(list)
        for index in suspected {
            let branch = branches[index]
            let builds = semantics.builds[branch]
            let would = bdd.and(flow.context(g), builds)
            // An earlier branch must build first, not diverge first (a cycle builds
            // nothing; the branch is then unreachable, not shadowed).
            if !semantics.cycles.isEmpty, (0..<index).contains(where: { earlier in
                let earlierBranch = branches[earlier]
                let diverges = bdd.andNot(semantics.builds[earlierBranch], semantics.realBuilds[earlierBranch])
                return diverges != BDD.zero && bdd.intersects(bdd.and(would, flow.context(earlierBranch)), diverges)
            }) { continue }
            if let other = facts.alternativeFlow {
                let builds = semantics.alternativeBuilds[branch]
                guard other.contextMeets(g, builds), !other.contextMeets(branch, builds) else { continue }
            }
            let takenBy = (0..<index).filter { j in
                bdd.intersects(bdd.and(would, semantics.builds[branches[j]]), flow.context(branches[j]))
            }
            found.append(Finding(branch: GraphNode(branch), takenBy: takenBy.map { GraphNode(branches[$0]) }))
        }
    }

    static func message(_ finding: Finding, _ facts: ProgramFacts) -> String {
        let by = finding.takenBy.count == 1 ? "by `\(facts.headText(finding.takenBy[0].index))`" : "by earlier branches"
        return "this `anyOf` branch is shadowed: everything it builds here is built first \(by)"
    }

    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic {
        var diagnostic = facts.diagnostic(Self.self, at: finding.branch.index, message(finding, facts),
                                          related: finding.takenBy.map { facts.location($0.index, "this earlier branch builds them first") })
        diagnostic.detail = DiagnosticDetail(Detail(branch: facts.nodeRef(finding.branch.index), takenBy: finding.takenBy.map { facts.nodeRef($0.index) }))
        return diagnostic
    }
}

extension RuleID {
    public static let shadowedBranch = ShadowedBranch.id
}
