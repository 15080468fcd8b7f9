import RoutesAnalysis
import RoutesJSON

/// The rules' documentation in each form the tools show it, from the registry alone.
enum RuleDocs {
    static func list() -> String {
        let width = Rules.all.map(\.id.rawValue.count).max() ?? 0
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        return Rules.all.map { r in
            pad(r.id.rawValue, width + 2) + pad(r.severity.rawValue, 9) + pad("fix: " + r.fixability.rawValue, 13) + r.summary + "\n"
        }.joined()
    }

    /// What the fixes of a rule do, one paragraph each, or that it has none.
    static func fixes(_ r: RuleInfo) -> [String] {
        if r.fixes.isEmpty { return ["None."] }
        return r.fixes.map { f in
            (f.applicability == .safe ? "Safe (`routes lint --fix`): " : "Unsafe (`routes lint --fix --unsafe-fixes`): ") + f.description
        }
    }

    static func explain(_ r: RuleInfo) -> String {
        let docs = r.documentation
        return """
            \(r.id.rawValue) (\(r.severity.rawValue), \(r.category.rawValue))
            \(r.summary)

            What it reports
            \(wrap(docs.what))

            Why it matters
            \(wrap(docs.why))

            Example
            \(indent(docs.example))

            How to fix it
            \(wrap(docs.fix))

            Automatic fixes
            \(fixes(r).map { wrap($0) }.joined(separator: "\n\n"))

            """
    }

    static func json() -> JSONValue {
        .object(["rules": .array(Rules.all.map { r in
            [
                "id": .string(r.id.rawValue),
                "severity": .string(r.severity.rawValue),
                "category": .string(r.category.rawValue),
                "summary": .string(r.summary),
                "what": .string(r.documentation.what),
                "why": .string(r.documentation.why),
                "example": .string(r.documentation.example),
                "fix": .string(r.documentation.fix),
                "fixable": .string(r.fixability.rawValue),
                "fixes": .array(r.fixes.map { ["applicability": .string($0.applicability.rawValue), "description": .string($0.description)] }),
            ]
        })])
    }

    /// docs/rules.md.
    static func markdown() -> String {
        var out = """
            # Rules

            Every diagnostic names its rule. This reference is made from the rules themselves \
            (`routes rules --format markdown`); `routes explain RULE` prints one rule.

            The fix column says which fixes a rule has: *safe* ones keep what the program means \
            and `routes lint --fix` applies them; *unsafe* ones change it (or guess what was \
            meant), and are applied with `--fix --unsafe-fixes`. Editors offer both as quick \
            fixes. An unsafe fix is offered only when the program, checked with it applied, no \
            longer has its diagnostic, and has no error and no diagnostic of the same rule that \
            it did not have.

            | rule | default severity | fix | summary |
            |---|---|---|---|

            """
        for rule in Rules.all {
            out += "| [`\(rule.id.rawValue)`](#\(rule.id.rawValue)) | \(rule.severity.rawValue) | \(rule.fixability.rawValue) | \(rule.summary) |\n"
        }
        for rule in Rules.all {
            let docs = rule.documentation
            out += """

                ## \(rule.id.rawValue)

                \(rule.severity.rawValue.capitalized), \(rule.category.rawValue). \(rule.summary)

                **What it reports.** \(docs.what)

                **Why it matters.** \(docs.why)

                **Example.**

                ```routes
                \(docs.example)
                ```

                **How to fix it.** \(docs.fix)

                **Automatic fixes.**\(rule.fixes.isEmpty ? " None." : "\n\n" + rule.fixes.map { "- *\($0.applicability.rawValue.capitalized)*: \($0.description)" }.joined(separator: "\n"))

                """
        }
        return out
    }

    /// A paragraph wrapped at 88 columns.
    static func wrap(_ text: String, width: Int = 88) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    static func indent(_ code: String) -> String {
        code.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }
}
