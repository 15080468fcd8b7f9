import RoutesModel
import RoutesSyntax

/// A rule over what a program mentions (its used builders' names, its screens' placements),
/// with one finding per declaration at most: `ProgramChecker` checks every rule of this kind
/// in the registry (`Rules.declarationRules`), before the flows in a lint, and after an edit
/// finds again only the declarations whose mentions changed.
protocol DeclarationRule: RuleDefinition {
    associatedtype Finding
    /// Every finding, by declaration number (the graph's order of files and declarations).
    static func checkDeclarations(_ facts: ProgramFacts) -> [Finding]
    /// The finding of the declaration with this number, if it has one.
    static func finding(declaration number: Int, _ facts: ProgramFacts) -> Finding?
    /// The number of the declaration a finding is about.
    static func declarationNumber(of finding: Finding, _ facts: ProgramFacts) -> Int
    static func diagnostic(_ finding: Finding, _ facts: ProgramFacts) -> Diagnostic
}

extension DeclarationRule {
    /// Every finding, as the checker holds them.
    static func findings(_ facts: ProgramFacts) -> any DeclarationRuleFindings {
        FindingsOfDeclarationRule<Self>(findings: checkDeclarations(facts))
    }
}

/// One declaration rule's findings, for the checker that iterates every declaration rule alike.
protocol DeclarationRuleFindings {
    func diagnostics(_ facts: ProgramFacts) -> [Diagnostic]
    /// The findings after an edit: those of the declarations with these numbers (increasing)
    /// found again, the earlier ones of the others.
    func foundAgain(_ facts: ProgramFacts, declarations: [Int]) -> any DeclarationRuleFindings
}

struct FindingsOfDeclarationRule<Rule: DeclarationRule>: DeclarationRuleFindings {
    var findings: [Rule.Finding]

    func diagnostics(_ facts: ProgramFacts) -> [Diagnostic] { findings.map { Rule.diagnostic($0, facts) } }

    func foundAgain(_ facts: ProgramFacts, declarations: [Int]) -> any DeclarationRuleFindings {
        FindingsOfDeclarationRule(findings: refound(findings, key: { Rule.declarationNumber(of: $0, facts) }, again: declarations) {
            Rule.finding(declaration: $0, facts)
        })
    }
}
