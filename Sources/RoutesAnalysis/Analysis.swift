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
        let aKey = (a.file, a.range.lowerBound, a.range.upperBound, a.rule.rawValue, a.message)
        let bKey = (b.file, b.range.lowerBound, b.range.upperBound, b.rule.rawValue, b.message)
        if aKey != bKey { return aKey < bKey }
        if a.severity != b.severity { return a.severity == .error }
        for (aRelated, bRelated) in zip(a.related, b.related) {
            let aRelatedKey = (aRelated.file, aRelated.range.lowerBound, aRelated.range.upperBound, aRelated.message)
            let bRelatedKey = (bRelated.file, bRelated.range.lowerBound, bRelated.range.upperBound, bRelated.message)
            if aRelatedKey != bRelatedKey { return aRelatedKey < bRelatedKey }
        }
        return a.related.count < b.related.count
    }
}
