import RoutesModel
import RoutesSyntax

/// What the name-like token at an offset stands for: the shared first step of hover,
/// definition, references and rename.
enum NameTarget {
    /// A declared name (or `root`), written at its declaration (`isDeclaration`) or at a use
    /// that resolves to it (whatever kind the use expected).
    case symbol(Symbol, range: Range<Int>, isDeclaration: Bool)
    /// A use whose name is not declared.
    case unresolved(Name)
    /// A screen parameter's label.
    case parameter(Symbol, index: Int, range: Range<Int>)
    /// An `import` string: index into the file's `model.imports`.
    case importString(index: Int, range: Range<Int>)
    /// A keyword that is none of the above.
    case keyword(token: Int)

    var range: Range<Int> {
        switch self {
        case .symbol(_, let range, _), .parameter(_, _, let range), .importString(_, let range): return range
        case .unresolved(let name): return name.range
        case .keyword: return 0..<0
        }
    }

    static func find(project: Project, file: FileID, offset: Int) -> (NameTarget, token: Int)? {
        guard project.files.indices.contains(file) else { return nil }
        let source = project.files[file]
        let query = TreeQuery(source.syntax)
        let offset = query.clamp(offset)
        guard let tokenIndex = query.nameToken(at: offset) else { return nil }
        let token = query.tokens[tokenIndex]
        let model = source.model

        if token.kind == .string {
            if let index = model.imports.firstIndex(where: { $0.range == token.range }) {
                return (.importString(index: index, range: token.range), tokenIndex)
            }
            return nil
        }
        for (index, decl) in model.declarations.enumerated() {
            if decl.name.range == token.range {
                return (.symbol(Symbol(file: file, declaration: index), range: token.range, isDeclaration: true), tokenIndex)
            }
            if decl.kind == .screen, decl.range.contains(token.start),
               let parameter = decl.parameters.firstIndex(where: { $0.label.range == token.range }) {
                return (.parameter(Symbol(file: file, declaration: index), index: parameter, range: token.range), tokenIndex)
            }
        }
        if token.kind == .identifier {
            if let symbol = project.resolutions[file][token.start] {
                return (.symbol(symbol, range: token.range, isDeclaration: false), tokenIndex)
            }
            if let use = model.nameUses.first(where: { $0.name.range == token.range }) {
                return (.unresolved(use.name), tokenIndex)
            }
            // The contextual keywords of a presentation: `as`, `cover`, `popover`.
            let path = query.ancestors(ofToken: tokenIndex)
            if query.kind(path[path.count - 1]) == .presentation, Keywords.isContextual(source.text.text(token.range)) {
                return (.keyword(token: tokenIndex), tokenIndex)
            }
            return nil
        }
        return (.keyword(token: tokenIndex), tokenIndex)
    }
}

extension Project {
    /// Every use of a symbol in the project, by file, in source order.
    func uses(of symbol: Symbol) -> [SourceLocation] {
        let name = declaration(symbol).name.text
        var out: [SourceLocation] = []
        for fileID in files.indices where scopes[fileID][name] != nil || fileID == symbol.file {
            var here: [Range<Int>] = []
            for (use, _) in files[fileID].model.nameUses where resolutions[fileID][use.range.lowerBound] == symbol {
                here.append(use.range)
            }
            here.sort { $0.lowerBound < $1.lowerBound }
            out.append(contentsOf: here.map { SourceLocation(file: fileID, range: $0) })
        }
        return out
    }

    /// The screen declaration a builder node of a file names, if it resolves to one.
    func screenSymbol(_ name: Name?, in file: FileID) -> Symbol? {
        guard let name, let screen = resolve(name, in: file), declaration(screen).kind == .screen else { return nil }
        return screen
    }
}

extension FileModel {
    /// The builder node that `name` (a range) is the name of.
    func node(namedAt range: Range<Int>) -> NodeID? {
        nodes.firstIndex { $0.name?.range == range }
    }

    /// The builder node that starts at a byte offset and has the given syntax kind.
    func node(startingAt offset: Int, kind: SyntaxKind) -> NodeID? {
        nodes.firstIndex { n in
            guard n.range.lowerBound == offset else { return false }
            switch (n.kind, kind) {
            case (.screen, .screenBuilder), (.anyOf, .anyOfBuilder), (.conditional, .conditionalBuilder),
                 (.ifLet, .ifLetBuilder), (.ifScreen, .ifScreenBuilder), (.wildcard, .wildcardBuilder),
                 (.empty, .emptyBuilder), (.reference, .referenceBuilder):
                return true
            default:
                return false
            }
        }
    }
}
