import RoutesModel
import RoutesSyntax

/// The checker: every diagnostic of a project, the name-level ones of `Project` and the
/// program analyses of SPEC §5, deduplicated (a file in several programs gets the union).
public enum Analysis {
    public static func check(_ project: Project) -> [Diagnostic] {
        // The program analyses land here (issue 3, in progress).
        Array(Set(project.diagnostics)).sorted(by: Analysis.order)
    }

    /// Output order within one file: position, then rule, then message.
    public static func order(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.file, a.range.lowerBound, a.range.upperBound, a.rule.rawValue, a.message)
            < (b.file, b.range.lowerBound, b.range.upperBound, b.rule.rawValue, b.message)
    }
}
