import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fix of the rule `DuplicateDeclaration` (listed in `DuplicateDeclaration.fixes`): rename the later
/// declaration, and the uses that mean it, to a name nothing else has.
enum DuplicateDeclarationFixes: RuleFixes {
    static let rule = RuleID.duplicateDeclaration

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let finding = d.detail?.value(as: DuplicateDeclaration.Finding.self) else { return [] }
        let project = context.project
        switch finding {
        case .root:
            return []
        case .name(let name, _):
            // Not when the first is on a line with a syntax error: that one may be what the
            // parser made of something else (`  screen Detail uses appStore`, a placement
            // pasted at the top level), and the later one the real declaration.
            if let first = d.related.first, onLineWithSyntaxError(first.range, of: first.file, context) { return [] }
            // Nor when the later one is indented after a syntax error of its file: a node of
            // a block that a stray `}` closed early, read as a declaration (`    screen Login`).
            if isIndented(d.range, of: d.file, context),
               context.session.diagnostics.contains(where: { $0.file == d.file && $0.rule == .syntaxError && $0.range.lowerBound < d.range.lowerBound }) {
                return []
            }
            // The later declaration is the one at the diagnostic; the uses that resolve to it
            // (in a file that sees it first) are renamed with it, so that each still means what
            // it meant.
            guard let index = project.files[d.file].model.declarations.firstIndex(where: { $0.name.range == d.range }) else { return [] }
            let symbol = Symbol(file: d.file, declaration: index)
            let fresh = FixSupport.freshName(name, in: project)
            var edits: [FileID: [TextEdit]] = [d.file: [TextEdit(range: d.range, newText: fresh)]]
            for use in project.uses(of: symbol) where !(use.file == d.file && use.range == d.range) {
                edits[use.file, default: []].append(TextEdit(range: use.range, newText: fresh))
            }
            return [Fix(title: "Rename the later `\(name)` to `\(fresh)`", applicability: .unsafe, diagnostic: d, edits: edits)]
        case .parameter(let label, let screen):
            if onLineWithSyntaxError(d.range, of: d.file, context) { return [] }
            // A label is unique within its screen only.
            let labels = Set(project.files[d.file].model.declarations.filter { $0.kind == .screen && $0.name.text == screen }
                .flatMap { $0.parameters.map(\.label.text) })
            var suffix = 2
            while labels.contains(label + String(suffix)) { suffix += 1 }
            let fresh = label + String(suffix)
            return [Fix(title: "Rename the second parameter `\(label)` to `\(fresh)`", applicability: .unsafe, diagnostic: d,
                        edits: [d.file: [TextEdit(range: d.range, newText: fresh)]])]
        }
    }

    /// Whether the line of `range` starts with blanks (a declaration starts its line).
    static func isIndented(_ range: Range<Int>, of file: FileID, _ context: FixContext) -> Bool {
        let bytes = context.project.files[file].text.bytes
        let start = FixText(context.project.files[file]).lineStart(range.lowerBound)
        return start < bytes.count && (bytes[start] == 0x20 || bytes[start] == 0x09)
    }

    /// Whether a syntax error of `file` starts or ends on the lines of `range`.
    static func onLineWithSyntaxError(_ range: Range<Int>, of file: FileID, _ context: FixContext) -> Bool {
        let text = FixText(context.project.files[file])
        let lines = text.lineStart(range.lowerBound)...text.lineEnd(range.upperBound)
        return context.session.diagnostics.contains {
            $0.file == file && $0.rule == .syntaxError && (lines.contains($0.range.lowerBound) || lines.contains($0.range.upperBound))
        }
    }
}
