import RoutesModel
import RoutesSyntax

/// A rule as listings, `routes explain`, SARIF and docs/rules.md show it.
public struct RuleInfo: Sendable {
    public let id: RuleID
    public let severity: Severity
    public let category: RuleCategory
    public let summary: String
    public let documentation: RuleDocumentation
    public let marksUnnecessary: Bool
    /// Whether `// routes:ignore` may suppress it.
    public let suppressible: Bool
    /// Whether `routes.json` may turn it off or change its severity.
    public let configurable: Bool
    /// The automatic fixes it offers (their functions are in `Sources/RoutesIDE/Fixes/`).
    public let fixes: [RuleFix]
    /// The best of them: safe, unsafe or none.
    public var fixability: Fixability { Fixability(fixes) }
    /// The rule's type: what kind of rule it is (`NodeRule`, `DeclarationRule`) says who
    /// checks it.
    let definition: any RuleDefinition.Type
    /// The rule's type as the checker of its kind takes it, nil for a rule of another kind.
    /// Set by the initialiser that the rule's type picks when the registry is compiled: a
    /// cast of `definition` at run time would search every protocol conformance of the
    /// program, once per rule and kind (half the instructions of a small lint's run).
    let nodeRule: (any NodeRule.Type)?
    let declarationRule: (any DeclarationRule.Type)?

    init<R: RuleDefinition>(_ rule: R.Type) { self.init(rule, nodeRule: nil, declarationRule: nil) }
    init<R: NodeRule>(_ rule: R.Type) { self.init(rule, nodeRule: rule, declarationRule: nil) }
    init<R: DeclarationRule>(_ rule: R.Type) { self.init(rule, nodeRule: nil, declarationRule: rule) }
    init<R: NodeRule & DeclarationRule>(_ rule: R.Type) { self.init(rule, nodeRule: rule, declarationRule: rule) }

    private init<R: RuleDefinition>(_ rule: R.Type, nodeRule: (any NodeRule.Type)?, declarationRule: (any DeclarationRule.Type)?) {
        definition = rule
        self.nodeRule = nodeRule
        self.declarationRule = declarationRule
        id = R.id
        severity = R.severity
        category = R.category
        summary = R.summary
        documentation = R.documentation
        marksUnnecessary = R.marksUnnecessary
        suppressible = R.suppressible
        configurable = R.configurable
        fixes = R.fixes
    }
}

/// The registry: every rule the tools report, in the order listings show them (syntax, names,
/// then the analyses). A new rule is a file of its own and one line here (see
/// docs/dev/contributing.md); a rule of a kind that a checker iterates (`NodeRule`,
/// `DeclarationRule`) is found here by that checker.
public enum Rules {
    public static let all: [RuleInfo] = [
        RuleInfo(SyntaxError.self),
        RuleInfo(UndefinedName.self),
        RuleInfo(WrongKind.self),
        RuleInfo(DuplicateDeclaration.self),
        RuleInfo(ImportError.self),
        RuleInfo(BuilderCycle.self),
        RuleInfo(InvalidWildcard.self),
        RuleInfo(MissingDependency.self),
        RuleInfo(UnreachableScreen.self),
        RuleInfo(ShadowedBranch.self),
        RuleInfo(WildcardMismatch.self),
        RuleInfo(PushInSheet.self),
        RuleInfo(UnusedDeclaration.self),
        RuleInfo(InvalidLink.self),
        RuleInfo(AmbiguousLink.self),
        RuleInfo(UnbuildableLink.self),
        RuleInfo(ShadowedLink.self),
        RuleInfo(AnalysisLimit.self),
        RuleInfo(UnusedSuppression.self),
    ]

    /// The rule with this id, if there is one.
    public static func info(_ id: RuleID) -> RuleInfo? { all.first { $0.id == id } }

    /// The rules over a program's flows whose findings are about nodes, in registry order:
    /// `ProgramChecker` checks each.
    static let nodeRules: [any NodeRule.Type] = all.compactMap(\.nodeRule)

    /// The rules over what a program mentions, one finding per declaration, in registry
    /// order: `ProgramChecker` checks each.
    static let declarationRules: [any DeclarationRule.Type] = all.compactMap(\.declarationRule)
}
