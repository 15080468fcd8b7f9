import RoutesSyntax

extension Name {
    func shifted(_ e: TriviaEdit) -> Name { Name(text: text, range: e.map(range)) }
}

extension Diagnostic {
    /// The diagnostic with its ranges in `file` moved by an edit there.
    public func shifted(_ e: TriviaEdit, in file: FileID) -> Diagnostic {
        var d = self
        if d.file == file { d.range = e.map(d.range) }
        d.related = d.related.map { r in
            var r = r
            if r.file == file { r.range = e.map(r.range) }
            return r
        }
        return d
    }
}

extension FileModel {
    /// The model with every position moved by a trivia edit (nothing else changes).
    func shifted(_ e: TriviaEdit) -> FileModel {
        var m = self
        for i in m.imports.indices { m.imports[i].range = e.map(m.imports[i].range) }
        for i in m.declarations.indices { m.declarations[i].move(e, renumber: 0) }
        for i in m.nodes.indices { m.nodes[i].move(e, renumber: 0) }
        m.diagnostics = m.diagnostics.map { $0.shifted(e, in: $0.file) }
        return m
    }
}

extension Project {
    /// The project after an edit inside one comment or whitespace run of `file` (see
    /// ``SyntaxTree/applyingTriviaEdit(_:_:newSource:)``): the same files, declarations,
    /// resolutions and diagnostics, with the positions in `file` moved. Nil when the edit is
    /// not such an edit; then the caller builds the project again.
    public func applyingTriviaEdit(file: FileID, range: Range<Int>, replacement: [UInt8], newSource: SourceText) -> (project: Project, edit: TriviaEdit)? {
        guard files.indices.contains(file),
              let (tree, edit) = files[file].syntax.applyingTriviaEdit(range, replacement, newSource: newSource) else { return nil }
        var p = self
        let old = files[file]
        var model = old.model.shifted(edit)
        if let t = edit.docCommentToken {
            // A `///` line changed: the declaration it documents (the first after it) gets
            // its doc again; nothing else reads doc comments.
            var k = t
            while k < tree.tokens.count && (tree.tokens[k].kind.isTrivia) { k += 1 }
            // No declaration starts there (a doc comment before a builder, or at the end):
            // leave it to a full parse rather than guess.
            guard k < tree.tokens.count,
                  let d = model.declarations.firstIndex(where: { $0.range.lowerBound == tree.tokens[k].start }) else { return nil }
            model.declarations[d].doc = Lowerer.with(tree, file: file) { $0.docComment(beforeToken: k) }
        }
        p.files[file] = SourceFile(id: old.id, path: old.path, displayPath: old.displayPath, group: old.group,
                                   workspaceRoot: old.workspaceRoot, syntax: tree, model: model)
        var moved = ResolutionTable(capacity: resolutions[file].count)
        for (offset, symbol) in resolutions[file] { moved[edit.map(offset)] = symbol }
        p.resolutions[file] = moved
        if !guesses[file].isEmpty {
            p.guesses[file] = Dictionary(guesses[file].map { (edit.map($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        p.diagnostics = diagnostics.map { $0.shifted(edit, in: file) }
        return (p, edit)
    }
}
