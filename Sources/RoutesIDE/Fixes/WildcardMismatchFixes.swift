import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fix of the rule `WildcardMismatch` (listed in `WildcardMismatch.fixes`): name a screen the wildcard's
/// builder starts with.
enum WildcardMismatchFixes: RuleFixes {
    static let rule = RuleID.wildcardMismatch

    /// At most this many screens are offered.
    static let maxCandidates = 5

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let detail = d.detail?.value(as: WildcardMismatch.Detail.self) else { return [] }
        let project = context.project
        let fileID = detail.wildcard.file
        let model = project.files[fileID].model
        guard model.nodes.indices.contains(detail.wildcard.node),
              case .wildcard(let name?, let body) = model.nodes[detail.wildcard.node].kind else { return [] }
        // The screens the builder starts with (its first element's `screen` nodes, through
        // decisions, `anyOf` and references), without parameters (a wildcard makes its screen
        // with none) and named here as themselves. Whether it builds one is for `FixCheck`.
        var candidates: [String] = []
        for screen in firstScreens(of: body, in: fileID, project) where screen != project.resolve(name, in: fileID) {
            let declaration = project.declaration(screen)
            guard declaration.parameters.isEmpty, project.scopes[fileID][declaration.name.text] == screen,
                  !candidates.contains(declaration.name.text) else { continue }
            candidates.append(declaration.name.text)
        }
        return candidates.prefix(maxCandidates).map { screen in
            Fix(title: "Use `wildcard \(screen)`", applicability: .unsafe, isPreferred: candidates.count == 1, diagnostic: d,
                edits: [fileID: [TextEdit(range: name.range, newText: screen)]])
        }
    }

    /// The screens the `screen` nodes that can build a path's element at `node` name, in
    /// source order: through `anyOf`, `conditional`, `if let`, `if screen` and references, not
    /// into nestings (later elements) or another wildcard.
    static func firstScreens(of node: NodeID, in file: FileID, _ project: Project) -> [Symbol] {
        var out: [Symbol] = []
        var seen = Set<Symbol>()
        func walk(_ n: NodeID, _ f: FileID) {
            let model = project.files[f].model
            guard model.nodes.indices.contains(n) else { return }
            switch model.nodes[n].kind {
            case .screen(let screenName?, _, _):
                if let symbol = project.resolve(screenName, in: f), project.kind(of: symbol) == .screen { out.append(symbol) }
            case .anyOf, .conditional, .ifLet, .ifScreen:
                for child in model.children(of: n) { walk(child, f) }
            case .reference(let builderName):
                if let symbol = project.resolve(builderName, in: f), project.kind(of: symbol) == .builder, seen.insert(symbol).inserted,
                   let body = project.declaration(symbol).body {
                    walk(body, symbol.file)
                }
            case .screen(nil, _, _), .wildcard, .empty, .missing:
                break
            }
        }
        walk(node, file)
        return out
    }
}
