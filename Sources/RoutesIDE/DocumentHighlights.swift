import RoutesModel
import RoutesSyntax

/// One occurrence, in the current file, of the name under the cursor.
public struct DocumentHighlight: Sendable, Hashable {
    /// LSP's `DocumentHighlightKind`.
    public enum Kind: Int, Sendable, Hashable {
        /// An occurrence that neither declares nor uses a declaration (an undeclared name).
        case text = 1
        /// A use.
        case read = 2
        /// The declaration.
        case write = 3
    }
    public var range: Range<Int>
    public var kind: Kind

    public init(range: Range<Int>, kind: Kind) {
        self.range = range
        self.kind = kind
    }
}

extension IDE {
    /// Every occurrence in `file` of what the name at `offset` stands for, in source order:
    /// its declaration (`write`, when the file declares it) and its uses (`read`), resolved by
    /// symbol as references are; for an undeclared name, each use of the same undeclared name
    /// (`text`); for a parameter label, the label (`write`). Nothing on keywords, import
    /// strings and punctuation.
    public static func documentHighlights(project: Project, file: FileID, offset: Int) -> [DocumentHighlight] {
        guard let (target, _) = NameTarget.find(project: project, file: file, offset: offset) else { return [] }
        var out: [DocumentHighlight] = []
        switch target {
        case .symbol(let symbol, _, _):
            if symbol.file == file {
                out.append(DocumentHighlight(range: project.declaration(symbol).name.range, kind: .write))
            }
            for (name, _) in project.files[file].model.nameUses where project.resolutions[file][name.range.lowerBound] == symbol {
                out.append(DocumentHighlight(range: name.range, kind: .read))
            }
        case .unresolved(let name):
            for (use, _) in project.files[file].model.nameUses
            where use.text == name.text && project.resolutions[file][use.range.lowerBound] == nil {
                out.append(DocumentHighlight(range: use.range, kind: .text))
            }
        case .parameter(_, _, let range):
            out.append(DocumentHighlight(range: range, kind: .write))
        case .importString, .keyword:
            return []
        }
        var seen = Set<Range<Int>>()
        return out.filter { seen.insert($0.range).inserted }.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }
}
