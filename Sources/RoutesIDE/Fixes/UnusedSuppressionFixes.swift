import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `UnusedSuppression` (listed in `UnusedSuppression.fixes`): remove the rule id (or the
/// comment), or correct a misspelt id.
enum UnusedSuppressionFixes: RuleFixes {
    static let rule = RuleID.unusedSuppression

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let finding = d.detail?.value(as: UnusedSuppression.Finding.self) else { return [] }
        let project = context.project
        let file = project.files[d.file]
        guard let comment = SuppressionComment.all(in: file).first(where: { $0.range.contains(d.range.lowerBound) }) else { return [] }
        let text = FixText(file)
        var out: [Fix] = []
        let bytes = text.bytes
        // A misspelt id whose rule reports something the comment then suppresses.
        if case .unknown(let word, let suggestion?) = finding, let info = Rules.info(RuleID(suggestion)), info.suppressible,
           context.session.diagnostics.contains(where: { $0.rule == info.id && $0.file == d.file
               && file.text.line(containing: $0.range.lowerBound) == comment.line }) {
            out.append(Fix(title: "Replace `\(word)` by `\(suggestion)`", applicability: .unsafe, isPreferred: true, diagnostic: d,
                           edits: [d.file: [TextEdit(range: d.range, newText: suggestion)]]))
        }
        let edit: TextEdit
        let title: String
        if let position = comment.entries.firstIndex(of: d.range), comment.entries.count > 1 {
            // One id of several: it and the comma beside it.
            let entries = comment.entries
            let range = position > 0 ? entries[position - 1].upperBound..<entries[position].upperBound : entries[0].lowerBound..<entries[1].lowerBound
            edit = TextEdit(range: range, newText: "")
            title = "Remove `\(text.source.text(d.range))` from the suppression"
        } else {
            // The whole comment: its line when it is alone on it, else with the spaces before it.
            if text.startsLine(comment.range.lowerBound) {
                edit = TextEdit(range: text.lineStart(comment.range.lowerBound)..<text.nextLineStart(comment.range.upperBound), newText: "")
            } else {
                var lo = comment.range.lowerBound
                while lo > 0 && (bytes[lo - 1] == 0x20 || bytes[lo - 1] == 0x09) { lo -= 1 }
                edit = TextEdit(range: lo..<comment.range.upperBound, newText: "")
            }
            title = "Remove the suppression comment"
        }
        out.append(Fix(title: title, applicability: .safe, isPreferred: out.isEmpty, diagnostic: d, edits: [d.file: [edit]]))
        return out
    }
}
