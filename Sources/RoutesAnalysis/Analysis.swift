import RoutesModel
import RoutesSyntax

/// The checker: every diagnostic of a project, the name-level ones of `Project` and the program
/// analyses (docs/rules.md), deduplicated (a file in several programs gets the union of its
/// diagnostics over them).
public enum Analysis {
    public static func check(_ project: Project) -> [Diagnostic] {
        AnalysisSession.forDiagnostics(project: project).diagnostics
    }

    /// The same within `limits` (tests run the analyses in each layout).
    static func check(_ project: Project, limits: AnalysisLimits) -> [Diagnostic] {
        AnalysisSession.forDiagnostics(project: project, limits: limits).diagnostics
    }

    /// Output order within one file: position, then rule, then message, then the related
    /// locations — a total order, so that output never depends on hashing.
    public static func order(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        let x = (a.file, a.range.lowerBound, a.range.upperBound, a.rule.rawValue, a.message)
        let y = (b.file, b.range.lowerBound, b.range.upperBound, b.rule.rawValue, b.message)
        if x != y { return x < y }
        if a.severity != b.severity { return a.severity == .error }
        for (r, s) in zip(a.related, b.related) {
            let p = (r.file, r.range.lowerBound, r.range.upperBound, r.message)
            let q = (s.file, s.range.lowerBound, s.range.upperBound, s.message)
            if p != q { return p < q }
        }
        return a.related.count < b.related.count
    }
}
