import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `ShadowedBranch` (listed in `ShadowedBranch.fixes`): move the branch before the first
/// branch that takes its elements, or remove it.
enum ShadowedBranchFixes: RuleFixes {
    static let rule = RuleID.shadowedBranch

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let detail = d.detail?.value(as: ShadowedBranch.Detail.self) else { return [] }
        let project = context.project
        let fileID = detail.branch.file
        let file = project.files[fileID]
        let model = file.model
        guard model.nodes.indices.contains(detail.branch.node),
              let (anyOf, index) = FixSupport.anyOfHolding(detail.branch.node, in: model),
              case .anyOf(let span) = model.nodes[anyOf].kind else { return [] }
        let list = model.branches(span)
        let branch = model.nodes[detail.branch.node]
        let text = FixText(file)
        let head = project.quoted(file: fileID, branch.head)
        var out: [Fix] = []
        let first = detail.takenBy.filter { $0.file == fileID }.compactMap { list.firstIndex(of: $0.node) }.min()
        if let firstIndex = first, firstIndex < index {
            let target = model.nodes[list[firstIndex]]
            let move = moving(branch.range, before: target.range, text, fileID)
            out.append(Fix(title: "Move `\(head)` before `\(project.quoted(file: fileID, target.head))`", applicability: .unsafe,
                           diagnostic: d, edits: [fileID: move.edits], moves: [move.move]))
        }
        out.append(Fix(title: "Remove the shadowed branch `\(head)`", applicability: .unsafe, diagnostic: d,
                       edits: [fileID: text.deletion(of: branch.range)]))
        return out
    }

    /// The edits that move the builder at `source` before the one at `target` (an earlier
    /// sibling): whole lines, with the comment lines right above each, when the builder
    /// stands alone on its lines and the target starts its line (other branches may follow
    /// it there: `screen Detail sues store`, read as three); else the builder's text alone,
    /// followed by a space (its line removed with it when it stood alone there).
    static func moving(_ source: Range<Int>, before target: Range<Int>, _ text: FixText, _ f: FileID)
        -> (edits: [TextEdit], move: TextMove) {
        let sourceAlone = text.standsAlone(source)
        if sourceAlone && text.startsLine(target.lowerBound) {
            let start = text.commentBlockStart(above: source.lowerBound)
            let end = text.nextLineStart(source.upperBound)
            let destination = text.commentBlockStart(above: target.lowerBound)
            var moved = text.source.text(start..<end)
            if end == text.bytes.count && !moved.hasSuffix("\n") && !moved.hasSuffix("\r") { moved += text.newline }
            return ([TextEdit(range: destination..<destination, newText: moved), TextEdit(range: start..<end, newText: "")],
                    TextMove(file: f, source: source, destination: destination, offset: source.lowerBound - start))
        }
        var lo = source.lowerBound
        while lo > 0 && (text.bytes[lo - 1] == 0x20 || text.bytes[lo - 1] == 0x09) { lo -= 1 }
        let moved = text.source.text(source) + " "
        // (Its line goes with it only when nothing follows it there: a comment after it stays.)
        var after = source.upperBound
        while after < text.bytes.count && (text.bytes[after] == 0x20 || text.bytes[after] == 0x09) { after += 1 }
        let nothingAfter = after == text.lineEnd(source.upperBound)
        let removed = sourceAlone && nothingAfter && text.nextLineStart(source.upperBound) < text.bytes.count
            ? text.lineStart(source.lowerBound)..<text.nextLineStart(source.upperBound) : lo..<source.upperBound
        return ([TextEdit(range: target.lowerBound..<target.lowerBound, newText: moved),
                 TextEdit(range: removed, newText: "")],
                TextMove(file: f, source: source, destination: target.lowerBound, offset: 0))
    }
}
