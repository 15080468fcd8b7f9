import RoutesAnalysis
import RoutesModel
import RoutesSyntax

extension IDE {
    /// The edits that organize a file's imports (`source.organizeImports`): each run of
    /// imports on consecutive lines (comment lines may stand between them; a blank line or
    /// another declaration ends the run) sorted by path, and an import of a file already
    /// imported above removed. Comments travel with the import they stand above or beside
    /// (those above the run's first import stay at its top). Nothing is changed when an
    /// import shares its line with other code or has a malformed path; the runs are only
    /// deduplicated, not sorted, when a name is declared twice in the file's imports (their
    /// order decides which declaration the name means).
    public static func organizeImports(project: Project, file: FileID) -> [TextEdit] {
        guard project.files.indices.contains(file) else { return [] }
        let source = project.files[file]
        let text = FixText(source)
        var nodes: [SyntaxNode] = []
        source.syntax.root.forEachChild { if $0.kind == .importDecl { nodes.append($0) } }
        let imports = source.model.imports
        // Each import node must hold the model's import (a malformed string has none), stand
        // alone on its line, and have its keyword as written: one misspelt (`imporot
        // "x.routes"`) reads as an import only where the parser is at a declaration's start,
        // which a line of text skipped before it (a syntax error) may not be once it is moved.
        guard nodes.count == imports.count, !nodes.isEmpty,
              zip(nodes, imports).allSatisfy({ $0.range.contains($1.range.lowerBound) && text.standsAlone($0.range) }),
              nodes.allSatisfy({ $0.firstToken(.kwImport) != nil })
        else { return [] }
        let targets = project.importTargets[file]
        let organizer = ImportOrganizer(
            text: text, nodes: nodes, imports: imports,
            keys: imports.indices.map { index in
                targets[index].map { "#\($0)" } ?? PathUtil.normalize(PathUtil.join(PathUtil.directory(of: source.path), imports[index].path))
            },
            sorts: !declaresTwice(project, file))
        var seen = Set<String>()
        return organizer.runs().flatMap { organizer.edits(organizing: $0, seen: &seen) }
    }

    /// The imports of one file, organized run by run.
    private struct ImportOrganizer {
        let text: FixText
        /// The import declarations, in order, and the model's imports they hold.
        let nodes: [SyntaxNode]
        let imports: [Import]
        /// What each import imports: the file it resolves to, else its normalized path.
        let keys: [String]
        /// Whether the runs are sorted (else only deduplicated).
        let sorts: Bool

        /// Runs of imports on consecutive lines (indices of `nodes`).
        func runs() -> [[Int]] {
            var runs: [[Int]] = []
            for index in nodes.indices {
                if let last = runs.last?.last, IDE.consecutive(nodes[last].range, nodes[index].range, text) {
                    runs[runs.count - 1].append(index)
                } else {
                    runs.append([index])
                }
            }
            return runs
        }

        /// An item of a run: the import's lines, with the comment lines right above it (not for
        /// the run's first import, whose comments head the run).
        func span(_ index: Int, in run: [Int]) -> Range<Int> {
            let start = index == run[0]
                ? text.lineStart(nodes[index].range.lowerBound) : text.commentBlockStart(above: nodes[index].range.lowerBound)
            return start..<text.lineEnd(nodes[index].range.upperBound)
        }

        /// The edits that sort a run and drop its imports of files imported above (`seen`).
        func edits(organizing run: [Int], seen: inout Set<String>) -> [TextEdit] {
            var kept: [Int] = []
            var dropped = false
            for index in run {
                if seen.insert(keys[index]).inserted { kept.append(index) } else { dropped = true }
            }
            let ordered = sorts ? kept.sorted { (imports[$0].path, $0) < (imports[$1].path, $1) } : kept
            guard dropped || ordered != kept else { return [] }
            let whole = span(run[0], in: run).lowerBound..<span(run[run.count - 1], in: run).upperBound
            var parts = ordered.map { text.source.text(span($0, in: run)) }
            // A dropped import's comment lines are kept, above the run's end.
            for index in run where !kept.contains(index) {
                let comments = span(index, in: run).lowerBound..<text.lineStart(nodes[index].range.lowerBound)
                if index != run[0] && !comments.isEmpty {
                    var commentText = text.source.text(comments)
                    while commentText.hasSuffix("\n") || commentText.hasSuffix("\r") { commentText.removeLast() }
                    parts.append(commentText)
                }
                if let trailing = text.trailingComment(after: nodes[index].range.upperBound) {
                    parts.append(text.indentation(nodes[index].range.lowerBound) + text.source.text(trailing))
                }
            }
            if parts.isEmpty {
                // Every import of the run was imported above: its lines go.
                return text.deletion(of: nodes[run[0]].range.lowerBound..<nodes[run[run.count - 1]].range.upperBound)
            }
            return [TextEdit(range: whole, newText: parts.joined(separator: text.newline))]
        }
    }

    /// Whether two imports stand on consecutive lines, with only comment lines between them.
    private static func consecutive(_ a: Range<Int>, _ b: Range<Int>, _ text: FixText) -> Bool {
        var line = text.nextLineStart(a.upperBound)
        let target = text.lineStart(b.lowerBound)
        while line < target {
            if text.lineIsBlank(line) { return false }
            guard text.startsLine(line), text.trailingComment(after: line) != nil else { return false }
            line = text.nextLineStart(line)
        }
        return line == target
    }

    /// Whether a name is declared twice among the files `file` sees.
    private static func declaresTwice(_ project: Project, _ file: FileID) -> Bool {
        let closure = Set(project.closures[file])
        return project.diagnostics.contains { d in
            d.rule == .duplicateDeclaration && closure.contains(d.file)
        }
    }
}
