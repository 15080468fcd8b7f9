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
        // Each import node must hold the model's import (a malformed string has none), and
        // stand alone on its line.
        guard nodes.count == imports.count, !nodes.isEmpty,
              zip(nodes, imports).allSatisfy({ $0.range.contains($1.range.lowerBound) && text.standsAlone($0.range) })
        else { return [] }
        let targets = project.importTargets[file]
        func key(_ i: Int) -> String {
            targets[i].map { "#\($0)" } ?? PathUtil.normalize(PathUtil.join(PathUtil.directory(of: source.path), imports[i].path))
        }
        let sorts = !declaresTwice(project, file)

        // Runs of imports on consecutive lines.
        var runs: [[Int]] = []
        for i in nodes.indices {
            if let last = runs.last?.last, consecutive(nodes[last].range, nodes[i].range, text) {
                runs[runs.count - 1].append(i)
            } else {
                runs.append([i])
            }
        }
        var seen = Set<String>()
        var edits: [TextEdit] = []
        for run in runs {
            // An item: the import's lines, with the comment lines right above it (not for the
            // run's first import, whose comments head the run).
            func span(_ i: Int) -> Range<Int> {
                let start = i == run[0] ? text.lineStart(nodes[i].range.lowerBound) : text.commentBlockStart(above: nodes[i].range.lowerBound)
                return start..<text.lineEnd(nodes[i].range.upperBound)
            }
            var kept: [Int] = []
            var dropped = false
            for i in run {
                if seen.insert(key(i)).inserted { kept.append(i) } else { dropped = true }
            }
            let ordered = sorts ? kept.sorted { (imports[$0].path, $0) < (imports[$1].path, $1) } : kept
            guard dropped || ordered != kept else { continue }
            let whole = span(run[0]).lowerBound..<span(run[run.count - 1]).upperBound
            var parts = ordered.map { text.source.text(span($0)) }
            // A dropped import's comment lines are kept, above the run's end.
            for i in run where !kept.contains(i) {
                let comments = span(i).lowerBound..<text.lineStart(nodes[i].range.lowerBound)
                if i != run[0] && !comments.isEmpty {
                    var c = text.source.text(comments)
                    while c.hasSuffix("\n") || c.hasSuffix("\r") { c.removeLast() }
                    parts.append(c)
                }
                if let trailing = text.trailingComment(after: nodes[i].range.upperBound) {
                    parts.append(text.indentation(nodes[i].range.lowerBound) + text.source.text(trailing))
                }
            }
            if parts.isEmpty {
                // Every import of the run was imported above: its lines go.
                edits += text.deletion(of: nodes[run[0]].range.lowerBound..<nodes[run[run.count - 1]].range.upperBound)
            } else {
                edits.append(TextEdit(range: whole, newText: parts.joined(separator: text.newline)))
            }
        }
        return edits
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
