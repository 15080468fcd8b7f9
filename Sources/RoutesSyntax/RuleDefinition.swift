/// A rule's stable id, as diagnostics, `routes explain` and suppressions name it
/// (a lowercase name with dashes). Each rule defines its id in its own file (a `RuleDefinition`); the
/// registry of every rule is `Rules` in RoutesAnalysis.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: RuleID, b: RuleID) -> Bool { a.rawValue < b.rawValue }
}

/// What kind of problem a rule finds, for listings.
public enum RuleCategory: String, Sendable, CaseIterable {
    /// The text does not parse.
    case syntax
    /// Names, kinds, duplicates and imports: what a file means.
    case names
    /// How the routing tree builds paths: reachability, shadowing, wildcards, cycles.
    case routing
    /// Dependencies in scope where screens use them.
    case scope
    /// How screens are presented.
    case presentation
    /// Declarations nothing uses.
    case hygiene
    /// Deep links: their patterns, and the paths they open.
    case links
    /// Limits of the analysis itself.
    case limits
}

/// A rule's documentation, as `routes explain` prints it and docs/rules.md shows it: what it
/// reports, why that matters in the app, an example that triggers it, and how to fix it.
public struct RuleDocumentation: Sendable {
    /// What the rule reports (a paragraph).
    public var what: String
    /// Why it matters: what goes wrong in the app (a paragraph).
    public var why: String
    /// A small `.routes` program that triggers the rule.
    public var example: String
    /// How to fix it (a paragraph; code in backquotes).
    public var fix: String

    public init(what: String, why: String, example: String, fix: String) {
        self.what = what
        self.why = why
        self.example = example
        self.fix = fix
    }
}

/// Whether an automatic fix keeps what the program means. `routes lint --fix` applies the
/// safe ones; the unsafe ones (which change what the app builds, or guess what was meant) only
/// with `--unsafe-fixes`, and editors offer both as quick fixes.
public enum FixApplicability: String, Sendable, Hashable, CaseIterable {
    case safe
    case unsafe
}

/// One automatic fix a rule offers, as its documentation describes it (the fix itself is a
/// function of RoutesIDE, `Sources/RoutesIDE/Fixes/`).
public struct RuleFix: Sendable, Hashable {
    public var applicability: FixApplicability
    /// What it does, and when it is offered (a sentence; code in backquotes).
    public var description: String

    public init(_ applicability: FixApplicability, _ description: String) {
        self.applicability = applicability
        self.description = description
    }
}

/// The best fix a rule has, as listings show it.
public enum Fixability: String, Sendable, Hashable {
    /// Some fix is safe: `routes lint --fix` applies it.
    case safe
    /// Its fixes are all unsafe: `routes lint --fix --unsafe-fixes` applies them.
    case unsafe
    /// No automatic fix.
    case none

    public init(_ fixes: [RuleFix]) {
        if fixes.contains(where: { $0.applicability == .safe }) { self = .safe }
        else if fixes.isEmpty { self = .none }
        else { self = .unsafe }
    }
}

/// One rule: a namespace (an uninhabited enum) in a file of its own that holds its id, its
/// documentation, the type of what it finds, its check, and the function that words its
/// message. Syntax and names rules live in their layer's `Rules/` folder, the analyses' in
/// RoutesAnalysis's; the registry (`Rules` in RoutesAnalysis) lists them all.
public protocol RuleDefinition: SendableMetatype {
    static var id: RuleID { get }
    static var severity: Severity { get }
    static var category: RuleCategory { get }
    /// One line, for listings and SARIF's short description.
    static var summary: String { get }
    static var documentation: RuleDocumentation { get }
    /// Whether editors grey out what it reports (the LSP `unnecessary` tag).
    static var marksUnnecessary: Bool { get }
    /// Whether a `// routes:ignore` comment may suppress what it reports.
    static var suppressible: Bool { get }
    /// Whether a project's configuration may turn it off or change its severity.
    static var configurable: Bool { get }
    /// The automatic fixes it offers (none by default), each safe or unsafe.
    static var fixes: [RuleFix] { get }
}

extension RuleDefinition {
    public static var marksUnnecessary: Bool { false }
    public static var suppressible: Bool { true }
    public static var configurable: Bool { true }
    public static var fixes: [RuleFix] { [] }
}
