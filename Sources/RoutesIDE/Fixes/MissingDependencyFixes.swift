import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `MissingDependency` (listed in `MissingDependency.fixes`): for an
/// optional, put the node inside `if let d { … }`; for a dependency `from P`, give the
/// dependency to the whole app (preferred: every path the tree builds stays as it is), or
/// nest the node in `screen P { … }` (which changes the paths that reach it).
enum MissingDependencyFixes: RuleFixes {
    static let rule = RuleID.missingDependency

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let detail = d.detail?.value(as: MissingDependency.Detail.self) else { return [] }
        let project = context.project
        let declaration = project.declaration(detail.declaration)
        let name = declaration.name.text
        let file = project.files[detail.node.file]
        guard file.model.nodes.indices.contains(detail.node.node) else { return [] }
        let node = file.model.nodes[detail.node.node]
        let head = project.quoted(file: file.id, node.head)
        // The provider as the node's file names it (it must mean the same screen there).
        let provider: String? = detail.providers.first.flatMap { s in
            let providerName = project.declaration(s).name.text
            return project.scopes[file.id][providerName] == s ? providerName : nil
        }
        // A person gives the dependency to the app rather than move the screen: nesting it in
        // `screen P` changes every path that reaches it (a link, a notification, the back
        // stack), where the app-wide dependency keeps the tree as it is.
        var out: [Fix] = removeFrom(d, detail, context).map { [$0] } ?? []
        var prefixes: [String] = []
        if !detail.providers.isEmpty {
            guard let provider else { return out }
            prefixes.append("screen \(provider)")
        }
        if detail.optional {
            // Only a screen's `uses` is in scope inside `if let`; the `if let` of an optional
            // `from P` needs the provider, not itself.
            if case .screen = node.kind { prefixes.append("if let \(name)") } else { return [] }
        }
        if !prefixes.isEmpty {
            let title: String
            switch (provider, detail.optional) {
            case (let providerName?, true):
                title = "Nest `\(head)` in `screen \(providerName) { if let \(name) { … } }`: it is then built one element later, after a \(providerName) (the paths to it change)"
            case (let providerName?, false):
                title = "Nest `\(head)` in `screen \(providerName) { … }`: it is then built one element later, after a \(providerName) (the paths to it change)"
            default:
                title = "Wrap `\(head)` in `if let \(name) { … }`"
            }
            // Clearly right for an optional: the one way to have it in scope.
            out.append(Fix(title: title, applicability: .unsafe, isPreferred: provider == nil, diagnostic: d,
                           edits: [file.id: FixSupport.wrapping(node.range, in: prefixes, file: file)]))
        }
        return out
    }

    /// Removes `from P` from the declaration of a dependency whose provider some way lacks (not
    /// for an optional that some way also has outside its `if let`: that would still be missing).
    static func removeFrom(_ d: Diagnostic, _ detail: MissingDependency.Detail, _ context: FixContext) -> Fix? {
        guard !detail.optional, !detail.providers.isEmpty else { return nil }
        let project = context.project
        let declaration = project.declaration(detail.declaration)
        guard let from = declaration.from else { return nil }
        let tree = project.files[detail.declaration.file].syntax
        // The `from` keyword, and the end of the token before it.
        var token = tree.tokenIndex(at: from.range.lowerBound) - 1
        while token >= 0 && tree.tokens[token].kind.isTrivia { token -= 1 }
        guard token >= 0, tree.tokens[token].kind == .kwFrom else { return nil }
        var before = token - 1
        while before >= 0 && tree.tokens[before].kind == .whitespace { before -= 1 }
        // Comments between the type and `from` stay.
        let start = before >= 0 && !tree.tokens[before].kind.isTrivia ? tree.tokens[before].end : tree.tokens[token].start
        return Fix(title: "Give `\(declaration.name.text)` to the whole app (remove `from \(from.text)` from its declaration)",
                   applicability: .unsafe, isPreferred: true, diagnostic: d,
                   edits: [detail.declaration.file: [TextEdit(range: start..<from.range.upperBound, newText: "")]])
    }
}
