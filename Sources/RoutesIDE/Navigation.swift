import RoutesAnalysis
import RoutesModel
import RoutesSyntax

extension IDE {
    static func definitionImpl(project: Project, file: FileID, offset: Int) -> [SourceLocation] {
        if let placeholder = LinkPlaceholder.find(project: project, file: file, offset: offset) {
            return placeholder.definition.map { [SourceLocation(file: file, range: $0)] } ?? []
        }
        guard let (target, _) = NameTarget.find(project: project, file: file, offset: offset) else { return [] }
        switch target {
        case .symbol(let symbol, _, _):
            return [SourceLocation(file: symbol.file, range: project.declaration(symbol).name.range)]
        case .parameter(_, _, let range):
            return [SourceLocation(file: file, range: range)]
        case .importString(let index, _):
            guard index < project.importTargets[file].count, let target = project.importTargets[file][index] else { return [] }
            return [SourceLocation(file: target, range: 0..<0)]
        case .unresolved, .keyword:
            return []
        }
    }

    static func referencesImpl(project: Project, file: FileID, offset: Int, includeDeclaration: Bool) -> [SourceLocation] {
        if let placeholder = LinkPlaceholder.find(project: project, file: file, offset: offset) {
            let places = includeDeclaration ? placeholder.occurrences : placeholder.uses
            return places.map { SourceLocation(file: file, range: $0) }
        }
        guard let (target, _) = NameTarget.find(project: project, file: file, offset: offset) else { return [] }
        switch target {
        case .symbol(let symbol, _, _):
            var out: [SourceLocation] = []
            if includeDeclaration {
                out.append(SourceLocation(file: symbol.file, range: project.declaration(symbol).name.range))
            }
            out.append(contentsOf: project.uses(of: symbol))
            return out
        case .parameter(_, _, let range):
            // Labels are used only in path literals, outside the sources.
            return includeDeclaration ? [SourceLocation(file: file, range: range)] : []
        case .importString, .unresolved, .keyword:
            return []
        }
    }

    static func prepareRenameImpl(project: Project, file: FileID, offset: Int) -> (range: Range<Int>, placeholder: String)? {
        if let placeholder = LinkPlaceholder.find(project: project, file: file, offset: offset) {
            guard placeholder.definition != nil,
                  let range = placeholder.occurrences.first(where: { $0.lowerBound <= offset && offset <= $0.upperBound }) else { return nil }
            return (range, placeholder.name)
        }
        guard let (target, _) = NameTarget.find(project: project, file: file, offset: offset),
              case .symbol(let symbol, let range, _) = target,
              project.declaration(symbol).kind != .root else { return nil }
        return (range, project.files[file].text.text(range))
    }

    static func renameImpl(project: Project, file: FileID, offset: Int, newName: String) throws(RenameError) -> [FileID: [TextEdit]] {
        if let placeholder = LinkPlaceholder.find(project: project, file: file, offset: offset) {
            return try renamePlaceholder(placeholder, file: file, newName: newName)
        }
        guard let found = NameTarget.find(project: project, file: file, offset: offset) else {
            throw RenameError("there is no name here to rename")
        }
        guard case .symbol(let symbol, _, _) = found.0 else {
            switch found.0 {
            case .unresolved(let name): throw RenameError("`\(name.text)` is not declared, so it cannot be renamed")
            case .parameter: throw RenameError("parameter labels cannot be renamed")
            case .importString: throw RenameError("an import path cannot be renamed")
            default: throw RenameError("a keyword cannot be renamed")
            }
        }
        let declaration = project.declaration(symbol)
        guard declaration.kind != .root else { throw RenameError("`root` is a keyword and cannot be renamed") }
        guard Identifier.isValid(newName) else {
            throw RenameError("`\(newName)` is not a valid name: a name is a letter or `_`, then letters, digits or `_`")
        }
        if Lexer.keyword(newName) != nil {
            throw RenameError("`\(newName)` is a keyword and cannot be a name")
        }
        // A name may be one of the words that are keywords in one place only, but a rename
        // must not put one there: a builder renamed `as` and used after a screen node
        // (`screen A as`) would be read as a presentation.
        if let place = Self.contextualKeywords[newName] {
            throw RenameError("`\(newName)` is read as a keyword in some places (\(place)); choose another name")
        }
        // Every file that sees the declaration must not see another `newName`.
        if newName != declaration.name.text {
            for fileID in project.files.indices where project.closures[fileID].contains(symbol.file) {
                if let other = project.scopes[fileID][newName], other != symbol {
                    let decl = project.declaration(other)
                    let at = project.locationText(file: other.file, offset: decl.name.range.lowerBound)
                    let whereSeen = fileID == symbol.file ? "" : " (visible in \(project.files[fileID].displayPath))"
                    throw RenameError("`\(newName)` is already declared as \(decl.kind.withArticle) at \(at)\(whereSeen)")
                }
            }
        }
        var edits: [FileID: [TextEdit]] = [:]
        edits[symbol.file, default: []].append(TextEdit(range: declaration.name.range, newText: newName))
        for use in project.uses(of: symbol) {
            edits[use.file, default: []].append(TextEdit(range: use.range, newText: newName))
        }
        for (fileID, list) in edits {
            var seen = Set<Range<Int>>()
            edits[fileID] = list.filter { seen.insert($0.range).inserted }.sorted { $0.range.lowerBound < $1.range.lowerBound }
        }
        return edits
    }

    /// The words that are keywords only in one place, where a rename could put a name, with
    /// that place.
    static let contextualKeywords: [String: String] = [
        "as": "right after a screen node's name", "cover": "where a presentation is expected",
        "popover": "where a presentation is expected", "link": "at the start of a line",
    ]

    /// A link's placeholder renamed: in the pattern and in the path, in that link only.
    static func renamePlaceholder(_ placeholder: LinkPlaceholder, file: FileID, newName: String) throws(RenameError) -> [FileID: [TextEdit]] {
        guard placeholder.definition != nil else {
            throw RenameError("`\(placeholder.name)` is not a placeholder of the link's pattern, so it cannot be renamed")
        }
        guard Identifier.isValid(newName) else {
            throw RenameError("`\(newName)` is not a valid name: a name is a letter or `_`, then letters, digits or `_`")
        }
        // In the path a keyword is no name (`true` and `false` are values there).
        if Lexer.keyword(newName) != nil {
            throw RenameError("`\(newName)` is a keyword and cannot be a name")
        }
        guard !placeholder.others.contains(newName) else {
            throw RenameError("the pattern has a placeholder `{\(newName)}` already")
        }
        return [file: placeholder.occurrences.sorted { $0.lowerBound < $1.lowerBound }.map { TextEdit(range: $0, newText: newName) }]
    }

    static func documentSymbolsImpl(project: Project, file: FileID) -> [DocumentSymbol] {
        guard project.files.indices.contains(file) else { return [] }
        return project.files[file].model.declarations.map { d in
            let kind: DocumentSymbol.Kind
            var detail: String? = nil
            switch d.kind {
            case .screen:
                kind = .struct
                detail = d.presentation.sourceText
            case .builder, .root:
                kind = .function
            case .dependency, .optional:
                kind = .variable
                detail = d.type
            case .flag:
                kind = .boolean
            case .link:
                kind = .constant
                detail = d.link?.pattern
            }
            return DocumentSymbol(name: d.name.text, kind: kind, detail: detail, range: d.range, selectionRange: d.name.range)
        }
    }
}

