import ArgumentParser
import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// `routes explain RULE`: what a rule reports, why it matters, an example, how to fix it.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a rule's documentation: what it reports, why, an example and the fix.",
        discussion: "RULE is a rule id as diagnostics show it in brackets (`routes rules` lists them)."
    )

    @Argument(help: "The rule id.")
    var rule: String

    func validate() throws {
        guard Rules.info(RuleID(rule)) != nil else {
            let close = Suggestion.closest(to: rule, among: Rules.all.map(\.id.rawValue)).map { "; did you mean `\($0)`?" } ?? ""
            throw ValidationError("unknown rule `\(rule)`\(close) (`routes rules` lists them)")
        }
    }

    func run() throws {
        Terminal.write(RuleDocs.explain(Rules.info(RuleID(rule))!))
    }
}
