import ArgumentParser
import RoutesJSON

enum RulesFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown
}

/// `routes rules`: every rule with its id, default severity, whether it has a fix, and summary.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule with its id, default severity, fix and summary.",
        discussion: """
            The fix column says whether `routes lint --fix` fixes what the rule reports \
            (safe), only `--fix --unsafe-fixes` does (unsafe), or nothing does (none). \
            `--format json` gives each rule with its documentation; `--format markdown` writes \
            the rule reference (docs/rules.md is made with it).
            """
    )

    @Option(help: "Output format: text, json or markdown.")
    var format: RulesFormat = .text

    func run() throws {
        switch format {
        case .text: Terminal.write(RuleDocs.list())
        case .json: Terminal.write(JSON.serialize(RuleDocs.json(), pretty: true) + "\n")
        case .markdown: Terminal.write(RuleDocs.markdown())
        }
    }
}
