import RoutesModel
import RoutesSyntax

/// The checker: every diagnostic of a project, the name-level ones of `Project` and the
/// program analyses of SPEC §5, deduplicated (a file in several programs gets the union of
/// its diagnostics over them).
public enum Analysis {
    public static func check(_ project: Project) -> [Diagnostic] {
        AnalysisSession(project: project).diagnostics
    }

    /// `builder-cycle`: one diagnostic per cycle, at its first reference in source order,
    /// related to the other references of the cycle. Checked for every builder, used or not.
    static func builderCycles(_ semantics: Semantics) -> [Diagnostic] {
        let graph = semantics.graph
        return semantics.cycles.map { refs in
            let first = refs[0]
            let names = refs.compactMap { r -> String? in
                if case .reference(let b?) = graph.nodes[r].kind { return graph.builders[b].name }
                return nil
            }
            let chain = names.count == 1 ? "`\(names[0])` refers to itself" : names.map { "`\($0)`" }.joined(separator: ", ")
            return Diagnostic(
                .builderCycle, file: graph.nodes[first].file, range: graph.model(first).head,
                message: "builder cycle: evaluating this reference can reach it again before any element is built (\(chain))",
                related: refs.dropFirst().map {
                    RelatedLocation(file: graph.nodes[$0].file, range: graph.model($0).head, message: "part of the cycle")
                })
        }
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
