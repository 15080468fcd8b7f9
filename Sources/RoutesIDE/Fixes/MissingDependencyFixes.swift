import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `MissingDependency` (listed in `MissingDependency.fixes`): put the node where the name
/// is in scope (inside `if let d { … }` for an optional, inside `screen P { … }` for a
/// dependency `from P`), or give the dependency to the whole app.
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
            let n = project.declaration(s).name.text
            return project.scopes[file.id][n] == s ? n : nil
        }
        var out: [Fix] = []
        var prefixes: [String] = []
        if !detail.providers.isEmpty {
            guard let provider else { return removeFrom(d, detail, context).map { [$0] } ?? [] }
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
            case (let p?, true):
                title = "Nest `\(head)` in `screen \(p) { if let \(name) { … } }`: it is then built one element later, after a \(p)"
            case (let p?, false):
                title = "Nest `\(head)` in `screen \(p) { … }`: it is then built one element later, after a \(p)"
            default:
                title = "Wrap `\(head)` in `if let \(name) { … }`"
            }
            // Clearly right for an optional: the one way to have it in scope.
            out.append(Fix(title: title, applicability: .unsafe, isPreferred: provider == nil, diagnostic: d,
                           edits: [file.id: FixSupport.wrapping(node.range, in: prefixes, file: file)]))
        }
        if let remove = removeFrom(d, detail, context) { out.append(remove) }
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
        var k = tree.tokenIndex(at: from.range.lowerBound) - 1
        while k >= 0 && tree.tokens[k].kind.isTrivia { k -= 1 }
        guard k >= 0, tree.tokens[k].kind == .kwFrom else { return nil }
        var before = k - 1
        while before >= 0 && tree.tokens[before].kind == .whitespace { before -= 1 }
        // Comments between the type and `from` stay.
        let start = before >= 0 && !tree.tokens[before].kind.isTrivia ? tree.tokens[before].end : tree.tokens[k].start
        return Fix(title: "Give `\(declaration.name.text)` to the whole app (remove `from \(from.text)` from its declaration)",
                   applicability: .unsafe, diagnostic: d,
                   edits: [detail.declaration.file: [TextEdit(range: start..<from.range.upperBound, newText: "")]])
    }
}
