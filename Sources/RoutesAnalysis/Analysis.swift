import RoutesModel
import RoutesSyntax

/// The checker: every diagnostic of a project, the name-level ones of `Project` and the
/// program analyses of SPEC §5, deduplicated (a file in several programs gets the union of
/// its diagnostics over them).
public enum Analysis {
    public static func check(_ project: Project) -> [Diagnostic] {
        AnalysisSession(project: project, keepsAnalyses: false).diagnostics
    }

    /// The same within `limits` (tests run the analyses in each layout).
    static func check(_ project: Project, limits: AnalysisLimits) -> [Diagnostic] {
        AnalysisSession(project: project, keepsAnalyses: false, limits: limits).diagnostics
    }

    /// `builder-cycle`: one diagnostic per cycle, at its first reference in source order,
    /// related to the other references of the cycle. Checked for every builder, used or not.
    /// A cycle among builders of files that several programs share is found by each of them
    /// (with the elements of each): one diagnostic holds the references any of them found.
    static func builderCycles(_ found: [(builders: [Symbol], references: [NodeRef])], project: Project) -> [Diagnostic] {
        var merged: [[Symbol]: Set<NodeRef>] = [:]
        for cycle in found { merged[cycle.builders, default: []].formUnion(cycle.references) }
        func head(_ r: NodeRef) -> Range<Int> { project.files[r.file].model.nodes[r.node].head }
        return merged.values.map { refs in
            let ordered = refs.sorted { ($0.file, project.files[$0.file].model.nodes[$0.node].range.lowerBound) < ($1.file, project.files[$1.file].model.nodes[$1.node].range.lowerBound) }
            let first = ordered[0]
            let names = ordered.compactMap { r -> String? in
                guard case .reference(let name) = project.files[r.file].model.nodes[r.node].kind,
                      let s = project.resolve(name, in: r.file) else { return nil }
                return project.declaration(s).name.text
            }
            let chain = names.count == 1 ? "`\(names[0])` refers to itself" : names.map { "`\($0)`" }.joined(separator: ", ")
            return Diagnostic(
                .builderCycle, file: first.file, range: head(first),
                message: "builder cycle: evaluating this reference can reach it again before any element is built (\(chain))",
                related: ordered.dropFirst().map {
                    RelatedLocation(file: $0.file, range: head($0), message: "part of the cycle")
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
