import RoutesModel
import RoutesSyntax

/// How a project's configuration sets a rule (`rules` in `routes.json`).
public enum RuleSetting: String, Sendable, Hashable, CaseIterable {
    case off, warning, error
}

/// Rule settings of one workspace: each rule's default unless set here.
public struct RuleSettings: Sendable, Hashable {
    public var rules: [RuleID: RuleSetting]
    public init(rules: [RuleID: RuleSetting] = [:]) { self.rules = rules }

    /// Whether a rule may be set to `setting` (a syntax error is always an error; the
    /// analysis limit cannot be turned off or down, so that no unchecked program passes).
    public static func allows(_ setting: RuleSetting, for rule: RuleID) -> Bool {
        guard let info = Rules.info(rule) else { return false }
        return info.configurable || setting == .error
    }
}
