import RoutesModel
import RoutesSyntax

/// A rule over a program's flows whose findings are about builder nodes: `ProgramChecker`
/// checks every rule of this kind in the registry (`Rules.nodeRules`) once the paths from
/// `root` are resolved, finds them again after an edit, and reports them through
/// "outermost cause once" (`OutermostCause`). Adding one is its file and its registry line.
protocol NodeRule: RuleDefinition {
    associatedtype Finding
    /// Every finding over the facts, in node order.
    static func check(_ facts: ProgramFacts) -> [Finding]
    /// The findings after an edit whose flows continued the earlier ones: `earlier` are the
    /// findings before it (in node order), `changed` the nodes whose own findings may differ
    /// (increasing, without repeats: the nodes computed again and their parents).
    static func check(_ facts: ProgramFacts, earlier: [Finding], changed: [Int]) -> [Finding]
    /// The node a finding is about (nil for one about a declaration).
    static func node(of finding: Finding) -> Int?
    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic
    /// What of a node it reports is the outermost cause of what lies there: the parts whose
    /// warnings are not reported again (nothing by default).
    static var cause: OutermostCause.Covered { get }
}

extension NodeRule {
    static var cause: OutermostCause.Covered { [] }

    /// Every finding over the facts, as the checker holds them.
    static func findings(_ facts: ProgramFacts) -> any NodeRuleFindings { FindingsOfNodeRule<Self>(findings: check(facts)) }
}

/// A node rule whose finding at a node depends on that node's states and on what it reaches
/// (not on its siblings): after an edit, the changed nodes and the nodes of the earlier
/// findings (whose words read other nodes) are looked at again, the others keep theirs.
protocol PerNodeRule: NodeRule {
    /// Node g's finding, if it has one.
    static func finding(at g: Int, _ facts: ProgramFacts) -> Finding?
}

extension PerNodeRule {
    static func check(_ facts: ProgramFacts) -> [Finding] {
        facts.graph.nodes.indices.compactMap { finding(at: $0, facts) }
    }

    static func check(_ facts: ProgramFacts, earlier: [Finding], changed: [Int]) -> [Finding] {
        let again = sortedUnique(changed + earlier.compactMap(node(of:)))
        return refound(earlier, key: { node(of: $0) ?? -1 }, again: again) { finding(at: $0, facts) }
    }
}

/// A rule's findings after an edit, each with a key (a node, a declaration number;
/// increasing): those of the keys `again` (increasing, without repeats) found again, and the
/// earlier ones of every other key.
func refound<F>(_ earlier: [F], key: (F) -> Int, again: [Int], _ find: (Int) -> F?) -> [F] {
    var found: [F] = []
    var next = 0
    func findUpTo(_ limit: Int) {
        while next < again.count && again[next] < limit {
            if let finding = find(again[next]) { found.append(finding) }
            next += 1
        }
    }
    // Both lists increase: an earlier finding of a key found again is left out.
    for finding in earlier {
        let earlierKey = key(finding)
        findUpTo(earlierKey)
        if next < again.count && again[next] == earlierKey { continue }
        found.append(finding)
    }
    findUpTo(Int.max)
    return found
}

/// One node rule's findings, for the checker that iterates every node rule alike.
protocol NodeRuleFindings {
    /// Each finding's warning at its node, with what it covers (see `OutermostCause`).
    func warnings(_ facts: ProgramFacts) -> [OutermostCause.Warning]
    /// The findings after an edit (see `NodeRule.check(_:earlier:changed:)`).
    func foundAgain(_ facts: ProgramFacts, changed: [Int]) -> any NodeRuleFindings
}

struct FindingsOfNodeRule<Rule: NodeRule>: NodeRuleFindings {
    var findings: [Rule.Finding]

    func warnings(_ facts: ProgramFacts) -> [OutermostCause.Warning] {
        findings.compactMap { finding in
            Rule.node(of: finding).map { OutermostCause.Warning(node: $0, diagnostic: Rule.diagnostic(finding, facts), covered: Rule.cause) }
        }
    }

    func foundAgain(_ facts: ProgramFacts, changed: [Int]) -> any NodeRuleFindings {
        FindingsOfNodeRule(findings: Rule.check(facts, earlier: findings, changed: changed))
    }
}
