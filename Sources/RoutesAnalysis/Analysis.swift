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
        // (Field by field: a tuple of the keys would copy both strings of both sides.)
        if a.file != b.file { return a.file < b.file }
        if a.range.lowerBound != b.range.lowerBound { return a.range.lowerBound < b.range.lowerBound }
        if a.range.upperBound != b.range.upperBound { return a.range.upperBound < b.range.upperBound }
        if a.rule.rawValue != b.rule.rawValue { return a.rule.rawValue < b.rule.rawValue }
        if a.message != b.message { return a.message < b.message }
        if a.severity != b.severity { return a.severity == .error }
        for (aRelated, bRelated) in zip(a.related, b.related) {
            let aRelatedKey = (aRelated.file, aRelated.range.lowerBound, aRelated.range.upperBound, aRelated.message)
            let bRelatedKey = (bRelated.file, bRelated.range.lowerBound, bRelated.range.upperBound, bRelated.message)
            if aRelatedKey != bRelatedKey { return aRelatedKey < bRelatedKey }
        }
        return a.related.count < b.related.count
    }

    /// `diagnostics` in `order`, as `sorted(by: order)` puts them (the sort is stable): the
    /// positions are sorted and each diagnostic is copied once, where sorting the diagnostics themselves moves
    /// each of them (a dozen references counted at every move) some log n times.
    public static func sortedInOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return [] }
            var positions = Array(all.indices)
            positions.sort { inOrder(base + $0, base + $1) }
            return positions.map { all[$0] }
        }
    }

    /// `order` of two diagnostics read in place: their places compared without a copy of
    /// either (what a sort of a million diagnostics spent most of its time on).
    private static func inOrder(_ a: UnsafePointer<Diagnostic>, _ b: UnsafePointer<Diagnostic>) -> Bool {
        if a.pointee.file != b.pointee.file { return a.pointee.file < b.pointee.file }
        let aRange = a.pointee.range, bRange = b.pointee.range
        if aRange.lowerBound != bRange.lowerBound { return aRange.lowerBound < bRange.lowerBound }
        if aRange.upperBound != bRange.upperBound { return aRange.upperBound < bRange.upperBound }
        return order(a.pointee, b.pointee)
    }
}
