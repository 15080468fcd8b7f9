import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `UnbuildableLink` (listed in `UnbuildableLink.fixes`): write before
/// the path the screens without parameters that make it buildable.
enum UnbuildableLinkFixes: RuleFixes {
    static let rule = UnbuildableLink.id

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let detail = d.detail?.value(as: UnbuildableLink.Detail.self), !detail.prefix.isEmpty else { return [] }
        let prefix = detail.prefix.joined(separator: "/") + "/"
        return [Fix(title: "Start the path with `\(prefix)`", applicability: .safe, isPreferred: true, diagnostic: d,
                    edits: [d.file: [TextEdit(range: detail.pathStart..<detail.pathStart, newText: prefix)]])]
    }
}
