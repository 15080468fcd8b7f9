import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fix of the rule `UnusedDeclaration` (listed in `UnusedDeclaration.fixes`): remove the declaration. Safe
/// when nothing in the workspace mentions its name; unsafe when only text the parser skipped
/// does (which may be a use half-written), when comments stand inside the declaration
/// (a person's notes, deleted with it), or while a name at a place that takes its kind is
/// undefined or of the wrong kind (it may have been meant for the declaration); not offered when another declaration or node uses
/// it (an unused builder that mentions an unused flag: removing the flag alone would leave the
/// builder naming nothing).
enum UnusedDeclarationFixes: RuleFixes {
    static let rule = RuleID.unusedDeclaration

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let symbol = d.detail?.value(as: Symbol.self) else { return [] }
        let project = context.project
        let declaration = project.declaration(symbol)
        let name = declaration.name.text
        // A use that means it, or a misspelling that suggests it, outside its own declaration
        // (a builder that builds itself mentions itself).
        if context.mentionedElsewhere.contains(symbol) { return [] }
        var skipped = false
        for fileID in project.files.indices {
            if project.scopes[fileID][name] == symbol && project.files[fileID].model.skippedNames.contains(name) { skipped = true }
        }
        let text = FixText(project.files[symbol.file])
        let start = text.docCommentStart(before: declaration.range.lowerBound)
        let what = declaration.kind == .builder ? "builder" : declaration.kind.rawValue
        let unsafe = skipped || text.holdsComments(declaration.range) || context.kindsMeantByWrongNames.contains(declaration.kind)
        return [Fix(title: "Remove the unused \(what) `\(name)`", applicability: unsafe ? .unsafe : .safe, isPreferred: true,
                    diagnostic: d, edits: [symbol.file: text.deletion(of: start..<declaration.range.upperBound)])]
    }
}
