import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fix of the rule `ImportError` (listed in `ImportError.fixes`): point a path that finds no file at a file
/// of the workspace with the same name.
enum ImportErrorFixes: RuleFixes {
    static let rule = RuleID.importError

    /// At most this many files of the same name are offered.
    static let maxCandidates = 5

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard case .notFound(let path, _, let suggestion)? = d.detail?.value(as: ImportError.Problem.self) else { return [] }
        let project = context.project
        let importer = project.files[d.file]
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard !name.isEmpty else { return [] }
        let candidates = project.files.filter { f in
            f.id != d.file && f.workspaceRoot == importer.workspaceRoot && f.path.hasSuffix("/" + name)
        }.map { PathUtil.relativePath(from: importer.path, to: $0.path) }
            .sorted { ($0.count, $0) < ($1.count, $1) }
        var out = candidates.prefix(maxCandidates).map { relative in
            Fix(title: "Import \"\(relative)\"", applicability: .unsafe, isPreferred: candidates.count == 1, diagnostic: d,
                edits: [d.file: [TextEdit(range: d.range, newText: FixSupport.stringLiteral(relative))]])
        }
        // The file of that folder whose name is close to the one written.
        if let suggestion, !candidates.contains(suggestion) {
            out.append(Fix(title: "Import \"\(suggestion)\"", applicability: .unsafe, isPreferred: candidates.isEmpty, diagnostic: d,
                           edits: [d.file: [TextEdit(range: d.range, newText: FixSupport.stringLiteral(suggestion))]]))
        }
        return out
    }
}
