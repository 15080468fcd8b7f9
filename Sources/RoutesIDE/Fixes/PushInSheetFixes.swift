import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// The fixes of the rule `PushInSheet` (listed in `PushInSheet.fixes`): present the pushed screen as a sheet,
/// or let the sheet before it allow pushes.
enum PushInSheetFixes: RuleFixes {
    static let rule = RuleID.pushInSheet

    static func fixes(_ d: Diagnostic, _ context: FixContext) -> [Fix] {
        guard let detail = d.detail?.value(as: PushInSheet.Detail.self) else { return [] }
        let project = context.project
        var out: [Fix] = []
        let screen = project.declaration(detail.screen)
        if let node = declarationNode(detail.screen, project) {
            let edit: TextEdit
            if let presentation = node.firstChild(.presentation) {
                edit = TextEdit(range: presentation.range, newText: "sheet")
            } else {
                let end = node.firstChild(.parameterList)?.range.upperBound ?? screen.name.range.upperBound
                edit = TextEdit(range: end..<end, newText: " sheet")
            }
            out.append(Fix(title: "Present `\(screen.name.text)` as a sheet", applicability: .unsafe, diagnostic: d,
                           edits: [detail.screen.file: [edit]]))
        }
        // The sheet may allow pushes when it is the one screen of the programs that forbids them.
        if let sheet = detail.sheet, let node = declarationNode(sheet, project), let presentation = node.firstChild(.presentation) {
            var forbidding = Set<Symbol>()
            for program in project.programs where program.files.contains(d.file) {
                for programFile in program.files {
                    for (index, decl) in project.files[programFile].model.declarations.enumerated()
                    where decl.kind == .screen && decl.presentation == .sheetNoPush {
                        forbidding.insert(Symbol(file: programFile, declaration: index))
                    }
                }
            }
            let tree = project.files[sheet.file].syntax
            let tokens = presentation.tokenRange
            // `sheet`, then `(allowsPush: false)` with nothing else in it (no comment to lose).
            if forbidding == [sheet], let kw = tokens.first, tree.tokens[kw].kind == .kwSheet,
               tree.tokens[(kw + 1)..<tokens.upperBound].allSatisfy({ $0.kind != .lineComment && $0.kind != .docComment }) {
                out.append(Fix(title: "Let `\(project.declaration(sheet).name.text)` allow pushes (`sheet`)", applicability: .unsafe,
                               diagnostic: d, edits: [sheet.file: [TextEdit(range: tree.tokens[kw].end..<presentation.range.upperBound, newText: "")]]))
            }
        }
        return out
    }

    /// The syntax node of a declaration.
    static func declarationNode(_ s: Symbol, _ project: Project) -> SyntaxNode? {
        let range = project.declaration(s).range
        var found: SyntaxNode? = nil
        project.files[s.file].syntax.root.forEachChild { n in
            if found == nil && n.range == range { found = n }
        }
        return found
    }
}
