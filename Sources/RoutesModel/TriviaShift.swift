import RoutesSyntax

extension Name {
    func shifted(_ e: TriviaEdit) -> Name { Name(text: text, range: e.map(range)) }
}

extension Diagnostic {
    /// The diagnostic with its ranges in `file` moved by an edit there.
    public func shifted(_ edit: TriviaEdit, in file: FileID) -> Diagnostic {
        var shifted = self
        if shifted.file == file { shifted.range = edit.map(shifted.range) }
        shifted.related = shifted.related.map { related in
            var related = related
            if related.file == file { related.range = edit.map(related.range) }
            return related
        }
        return shifted
    }
}

extension FileModel {
    /// The model with every position moved by a trivia edit (nothing else changes).
    func shifted(_ edit: TriviaEdit) -> FileModel {
        var model = self
        for i in model.imports.indices { model.imports[i].range = edit.map(model.imports[i].range) }
        for i in model.declarations.indices { model.declarations[i].move(edit, renumber: 0) }
        for i in model.nodes.indices { model.nodes[i].move(edit, renumber: 0) }
        for i in model.useNames.indices { model.useNames[i].range = edit.map(model.useNames[i].range) }
        model.diagnostics = model.diagnostics.map { $0.shifted(edit, in: $0.file) }
        return model
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
        var project = self
        let old = files[file]
        var model = old.model.shifted(edit)
        if let docToken = edit.docCommentToken {
            // A `///` line changed: the declaration it documents (the first after it) gets
            // its doc again; nothing else reads doc comments.
            var token = docToken
            while token < tree.tokens.count && (tree.tokens[token].kind.isTrivia) { token += 1 }
            // No declaration starts there (a doc comment before a builder, or at the end):
            // leave it to a full parse rather than guess.
            guard token < tree.tokens.count,
                  let documented = model.declarations.firstIndex(where: { $0.range.lowerBound == tree.tokens[token].start }) else { return nil }
            model.declarations[documented].doc = Lowerer.with(tree, file: file) { $0.docComment(beforeToken: token) }
        }
        project.files[file] = SourceFile(id: old.id, path: old.path, displayPath: old.displayPath, group: old.group,
                                         workspaceRoot: old.workspaceRoot, syntax: tree, model: model)
        var moved = ResolutionTable(capacity: resolutions[file].count)
        for (offset, symbol) in resolutions[file] { moved[edit.map(offset)] = symbol }
        project.resolutions[file] = moved
        if !guesses[file].isEmpty {
            project.guesses[file] = Dictionary(guesses[file].map { (edit.map($0.key), $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        project.diagnostics = diagnostics.map { $0.shifted(edit, in: file) }
        return (project, edit)
    }
}
