import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fix of `wildcard-mismatch` (`WildcardMismatch.fixes`): name a screen the wildcard's
/// builder can build.
enum WildcardMismatchFixes: RuleFixes {
    static let rule = RuleID.wildcardMismatch

    /// At most this many screens are offered.
    static let maxCandidates = 5

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let detail = d.detail?.value(as: WildcardMismatch.Detail.self) else { return [] }
        let project = context.project
        let f = detail.wildcard.file
        let model = project.files[f].model
        guard model.nodes.indices.contains(detail.wildcard.node),
              case .wildcard(let name?, _) = model.nodes[detail.wildcard.node].kind else { return [] }
        // Screens without parameters (a wildcard makes its screen with none), named here as
        // themselves.
        let candidates = detail.buildable.compactMap { s -> String? in
            let declaration = project.declaration(s)
            guard declaration.parameters.isEmpty, project.scopes[f][declaration.name.text] == s else { return nil }
            return declaration.name.text
        }
        return candidates.prefix(maxCandidates).map { screen in
            Fix(title: "Use `wildcard \(screen)`", applicability: .unsafe, isPreferred: candidates.count == 1, diagnostic: d,
                edits: [f: [TextEdit(range: name.range, newText: screen)]])
        }
    }
}
