import RoutesModel
import RoutesSyntax

/// `analysis-limit`: a program whose exact analysis outgrew its budget (see `AnalysisLimits`)
/// in every attempt: both variable layouts, then the other order of the conditions. Reported
/// at its `root` by `ProgramAnalysis`.
enum AnalysisLimit: RuleDefinition {
    static let id = RuleID("analysis-limit")
    static let severity = Severity.error
    static let category = RuleCategory.limits
    static let summary = "A program's routing conditions are too entangled to check exactly within the analysis's limits."
    /// A program that was not checked is never reported clean.
    static let suppressible = false
    static let configurable = false
    static let documentation = RuleDocumentation(
        what: """
            The exact analyses of a program (which screens are reachable, which branches are \
            shadowed, which dependencies are in scope) grew past their limit: 2^21 \
            decision-diagram nodes, or 64 per node of the routing tree when that is more \
            (`ROUTES_ANALYSIS_NODE_LIMIT` sets it). The error at `root` names the limit and \
            the rules it could not check for this program; the checks that need no analysis \
            (unused declarations, screens never placed) still run, and the other programs are \
            not affected. A lint of any file of the program reports this error too, in the \
            file that declares `root`, named or not: a file whose program was not checked \
            never reads clean.
            """,
        why: """
            A lint that says "clean" about an app it did not analyse would be worse than no \
            lint: the error makes the gap visible and fails CI until it is dealt with.
            """,
        example: """
            // 24 flag pairs, each x tested alone first, then with its y, all building `A`,
            // then each y alone: the analysis would have to tell apart 2^24 cases for `A`.
            screen A
            screen B
            flag x0
            flag y0
            // … x1 … x23, y1 … y23, and the branches for them …
            root {
              anyOf {
                conditional x0 { screen B } else { empty }
                conditional y0 { conditional x0 { screen A } else { empty } } else { empty }
                conditional y0 { screen B } else { empty }
              }
            }
            """,
        fix: """
            Test the combination the app means with one flag per screen (a flag the app \
            computes), or give each combination its own screen: the analysis is linear in \
            flags that each guard their own screens. Raise the limit with \
            `ROUTES_ANALYSIS_NODE_LIMIT` only for a program that needs it.
            """)

    struct Finding {
        /// The program's `root`, or nil for the files in no program (their check for builder cycles).
        var root: Symbol?
        var budget: (nodes: Int, steps: Int)
        /// Whether builder cycles were still checked (the semantics finished).
        var cyclesChecked: Bool
    }

    static func message(_ finding: Finding) -> String {
        guard finding.root != nil else {
            return "the check for builder cycles of the files in no program stopped at its limit of \(finding.budget.nodes) decision-diagram nodes (or \(finding.budget.steps) steps): builder cycles in them are not reported"
        }
        let skipped = "unreachable screens in the tree, shadowed branches, missing dependencies, pushes in sheets"
            + (finding.cyclesChecked ? " and wildcard mismatches" : ", wildcard mismatches and builder cycles")
        return "the analysis of this program stopped at its limit of \(finding.budget.nodes) decision-diagram nodes (or \(finding.budget.steps) steps): its routing conditions are too entangled to check exactly, so \(skipped) are not reported for it"
    }

    /// The diagnostic at the program's `root` (or at `at`, a builder's name, for the files in
    /// no program).
    static func diagnostic(_ finding: Finding, file: FileID, range: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(finding))
    }
}

extension RuleID {
    public static let analysisLimit = AnalysisLimit.id
}
