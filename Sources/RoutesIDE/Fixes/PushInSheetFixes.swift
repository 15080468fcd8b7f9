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
        let model = project.files[d.file].model
        // The pushed node (its head is the diagnostic's range), and its own presentation.
        let pushed = model.nodes.firstIndex { $0.head == d.range }
        let ownPresentation = pushed.flatMap { model.nodes[$0].presentation }
        if ownPresentation != nil {
            // `as push` at this placement: only this placement can change.
            if let pushed, let clause = placementClause(model.nodes[pushed].range, file: d.file, project) {
                out.append(Fix(title: "Present `\(screen.name.text)` as a sheet here", applicability: .unsafe, diagnostic: d,
                               edits: [d.file: [TextEdit(range: clause.range, newText: "as sheet")]]))
            }
        } else {
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
            if let pushed, let name = model.nodes[pushed].name {
                let end = name.range.upperBound
                out.append(Fix(title: "Present `\(screen.name.text)` as a sheet here (`as sheet`)", applicability: .unsafe, diagnostic: d,
                               edits: [d.file: [TextEdit(range: end..<end, newText: " as sheet")]]))
            }
        }
        // The sheet may allow pushes when its declaration is the one place of the programs
        // that forbids them.
        if let sheet = detail.sheet, let node = declarationNode(sheet, project), let presentation = node.firstChild(.presentation) {
            var forbidding = Set<Symbol>()
            var placementsForbid = false
            for program in project.programs where program.files.contains(d.file) {
                for programFile in program.files {
                    let fileModel = project.files[programFile].model
                    for (index, decl) in fileModel.declarations.enumerated()
                    where decl.kind == .screen && !decl.presentation.allowsPush {
                        forbidding.insert(Symbol(file: programFile, declaration: index))
                    }
                    if fileModel.nodes.contains(where: { $0.presentation.map { !$0.allowsPush } ?? false }) { placementsForbid = true }
                }
            }
            let tree = project.files[sheet.file].syntax
            let tokens = presentation.tokenRange
            let style = project.declaration(sheet).presentation.style
            // `sheet`, then `(allowsPush: false)` with nothing else in it (no comment to lose).
            if forbidding == [sheet], !placementsForbid, let style, let kw = tokens.first,
               tree.tokens[kw].kind == .kwSheet || tree.tokens[kw].kind == .identifier,
               tree.tokens[(kw + 1)..<tokens.upperBound].allSatisfy({ $0.kind != .lineComment && $0.kind != .docComment }) {
                out.append(Fix(title: "Let `\(project.declaration(sheet).name.text)` allow pushes (`\(style.rawValue)`)", applicability: .unsafe,
                               diagnostic: d, edits: [sheet.file: [TextEdit(range: tree.tokens[kw].end..<presentation.range.upperBound, newText: "")]]))
            }
        }
        return out
    }

    /// The `as …` clause of the screen node whose whole range is `range`.
    static func placementClause(_ range: Range<Int>, file: FileID, _ project: Project) -> SyntaxNode? {
        var found: SyntaxNode? = nil
        func visit(_ n: SyntaxNode) {
            guard found == nil, n.range.lowerBound <= range.lowerBound, range.upperBound <= n.range.upperBound else { return }
            if n.kind == .screenBuilder && n.range == range {
                found = n.firstChild(.presentation)
                return
            }
            n.forEachChild(visit)
        }
        visit(project.files[file].syntax.root)
        return found
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
