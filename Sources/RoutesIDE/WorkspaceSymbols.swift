import RoutesModel

/// A declaration found by a workspace-wide symbol search.
public struct WorkspaceSymbol: Sendable, Hashable {
    public var name: String
    /// As in ``DocumentSymbol``: screen → struct, builder and root → function, dependency and
    /// optional → variable, flag → boolean.
    public var kind: DocumentSymbol.Kind
    /// The declared name.
    public var location: SourceLocation
    /// The file that declares it, relative to its workspace root (`Shop/Catalog.routes`).
    public var containerName: String

    public init(name: String, kind: DocumentSymbol.Kind, location: SourceLocation, containerName: String) {
        self.name = name
        self.kind = kind
        self.location = location
        self.containerName = containerName
    }
}

extension IDE {
    /// The most symbols one search returns.
    public static let maxWorkspaceSymbols = 100

    /// The declarations of every file of the project (open or not) whose name matches `query`
    /// as editors match: the query's letters, in order, case-insensitively, anywhere in the
    /// name (`sS` finds `settingsStore`). Best first: the name itself, then names that start
    /// with the query, then those where each run of matched letters starts a word (`detSt`
    /// in `detailStore`: `det` + `St`), then the rest; within each, by a score that favours
    /// word starts and runs, then shorter names, then name and file. An empty query lists
    /// everything, by name. At most `limit` symbols.
    public static func workspaceSymbols(project: Project, query: String, limit: Int = maxWorkspaceSymbols) -> [WorkspaceSymbol] {
        let matcher = FuzzyMatcher(query: query.filter { !$0.isWhitespace })
        var found: [(score: FuzzyMatcher.Score, name: String, symbol: Symbol)] = []
        for fileID in project.files.indices {
            let declarations = project.files[fileID].model.declarations
            for index in declarations.indices {
                let name = declarations[index].name.text
                guard let score = matcher.score(name) else { continue }
                found.append((score, name, Symbol(file: fileID, declaration: index)))
            }
        }
        found.sort { a, b in
            if a.score != b.score { return a.score < b.score }
            if a.name != b.name { return a.name < b.name }
            let pa = project.files[a.symbol.file].path, pb = project.files[b.symbol.file].path
            return pa != pb ? pa < pb : a.symbol.declaration < b.symbol.declaration
        }
        return found.prefix(max(0, limit)).map { entry in
            let decl = project.declaration(entry.symbol)
            let file = project.files[entry.symbol.file]
            return WorkspaceSymbol(name: decl.name.text, kind: DocumentSymbol.Kind(decl.kind),
                                   location: SourceLocation(file: file.id, range: decl.name.range),
                                   containerName: relativePath(file.path, root: file.workspaceRoot))
        }
    }

    /// `path` relative to `root` when it lies inside it, else `path`.
    static func relativePath(_ path: String, root: String) -> String {
        guard PathUtil.isInside(path, root: root), path != root else { return path }
        return String(path.dropFirst(root == "/" ? 1 : root.count + 1))
    }
}
