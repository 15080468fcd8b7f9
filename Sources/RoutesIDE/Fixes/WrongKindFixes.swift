import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `WrongKind` (listed in `WrongKind.fixes`): the construct of the
/// name's own kind, where the mistake has one clear reading. Safe: each writes what the
/// message says the language has instead, and is offered only when the program analysed
/// with it has no error it did not have (see `FixRegistry.needsCheck`).
enum WrongKindFixes: RuleFixes {
    static let rule = RuleID.wrongKind

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let finding = d.detail?.value(as: WrongKind.Finding.self) else { return [] }
        let file = context.project.files[d.file]
        guard !file.model.nodesLeftOut,
              let node = file.model.nodes.first(where: { $0.name?.range == d.range }) else { return [] }
        let name = finding.name
        func fix(_ title: String, _ edits: [TextEdit]) -> [Fix] {
            [Fix(title: title, applicability: .safe, isPreferred: true, diagnostic: d, edits: [d.file: edits])]
        }
        switch (finding.expected, finding.kind, node.kind) {
        case ([.optional], .flag, .ifLet(_, _, let otherwise)) where !node.anyCondition:
            // `if let f { A }` → `conditional f { A } else { empty }` (an `else` stays).
            var edits = [TextEdit(range: node.head, newText: "conditional \(name)")]
            if otherwise == nil { edits.append(TextEdit(range: node.range.upperBound..<node.range.upperBound, newText: " else { empty }")) }
            return fix("Test the flag with `conditional \(name)`", edits)
        case ([.flag], .optional, .conditional):
            return fix("Unwrap the optional with `if let \(name)`", [TextEdit(range: node.head, newText: "if let \(name)")])
        case ([.builder], .screen, .reference):
            if let builder = finding.builder {
                // Two readings: neither is safe, the builder's name first.
                return [Fix(title: "Use the builder `\(builder)`", applicability: .unsafe, isPreferred: true, diagnostic: d,
                            edits: [d.file: [TextEdit(range: d.range, newText: builder)]]),
                        Fix(title: "Write `screen \(name)`", applicability: .unsafe, isPreferred: false, diagnostic: d,
                            edits: [d.file: [TextEdit(range: d.range.lowerBound..<d.range.lowerBound, newText: "screen ")]])]
            }
            return fix("Write `screen \(name)`", [TextEdit(range: d.range.lowerBound..<d.range.lowerBound, newText: "screen ")])
        case ([.builder], .dependency, .reference), ([.builder], .optional, .reference):
            guard let end = endOfUsesListBefore(d.range.lowerBound, in: file.syntax) else { return [] }
            return fix("Insert the missing `,` before `\(name)`", [TextEdit(range: end..<end, newText: ",")])
        default:
            return []
        }
    }

    /// The end of the name just before `offset` on its line when that name ends a `uses`
    /// list (`uses a b`: the end of `a`).
    static func endOfUsesListBefore(_ offset: Int, in tree: SyntaxTree) -> Int? {
        let nameToken = tree.tokenIndex(at: offset)
        guard !tree.tokens[nameToken].startsLine else { return nil }
        var token = nameToken - 1
        func skipTrivia() -> Bool {
            while token >= 0 && tree.tokens[token].kind.isTrivia { token -= 1 }
            return token >= 0
        }
        guard skipTrivia(), tree.tokens[token].kind == .identifier else { return nil }
        let end = tree.tokens[token].end
        token -= 1
        guard skipTrivia(), tree.tokens[token].kind == .kwUses || tree.tokens[token].kind == .comma else { return nil }
        return end
    }
}
