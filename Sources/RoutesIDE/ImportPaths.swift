import RoutesModel
import RoutesSyntax

/// Completion inside the string of an `import` (README.md, `routes lsp`): the `.routes` files
/// and the folders of the folder typed so far, relative to the importing file.
extension Completion {
    /// The import string the cursor is in, when the cursor is between its quotes: the byte
    /// range of the path segment typed so far (after the last `/`, up to the cursor), the
    /// whole segment (up to the next `/` or the closing quote), and the text before the
    /// segment (the folder part, `../Shared/`). Nil in a string with escapes.
    static func importPath(_ q: TreeQuery, _ offset: Int) -> (typed: Range<Int>, segment: Range<Int>, folder: String)? {
        guard !q.tokens.isEmpty else { return nil }
        let index = q.tree.tokenIndex(at: offset)
        for candidate in [index, index - 1] where candidate >= 0 && q.tokens[candidate].kind == .string {
            let token = q.tokens[candidate]
            let closed = token.length >= 2 && q.source.bytes[token.end - 1] == 0x22
            let contentEnd = closed ? token.end - 1 : token.end
            guard token.start < offset, offset <= contentEnd else { continue }
            let path = q.ancestors(ofToken: candidate)
            guard q.kind(path[path.count - 1]) == .importDecl else { return nil }
            let bytes = q.source.bytes
            let contentStart = token.start + 1
            if bytes[contentStart..<contentEnd].contains(0x5C) || bytes[contentStart..<contentEnd].contains(0x0A) { return nil }
            var segmentStart = offset
            while segmentStart > contentStart && bytes[segmentStart - 1] != 0x2F { segmentStart -= 1 }
            var segmentEnd = offset
            while segmentEnd < contentEnd && bytes[segmentEnd] != 0x2F { segmentEnd += 1 }
            let folder = String(decoding: bytes[contentStart..<segmentStart], as: UTF8.self)
            return (segmentStart..<offset, segmentStart..<segmentEnd, folder)
        }
        return nil
    }

    /// The items for the folder typed in an import string: its `.routes` files (the
    /// importing file left out), its folders (`Name/`; hidden ones left out), and `../`
    /// while the parent folder lies inside the workspace root. The folder is relative to the
    /// importing file; nothing is listed outside the file's workspace root unless the typed
    /// folder climbs out with `..` itself. Files the project holds (open and not saved yet)
    /// are listed too.
    static func importItems(project: Project, file: FileID, folder: String, filter: Filter,
                            directories: (any DirectoryLister)?) -> [CompletionItem] {
        let source = project.files[file]
        let base = PathUtil.join(PathUtil.directory(of: source.path), folder.isEmpty ? "." : folder)
        let root = source.workspaceRoot
        let climbs = folder.split(separator: "/").contains("..")
        guard PathUtil.isInside(base, root: root) || climbs else { return [] }
        var entries: [String: Bool] = [:]  // name → is a directory
        for entry in directories?.entries(of: base) ?? [] where !entry.name.hasPrefix(".") {
            if entry.isDirectory || entry.name.hasSuffix(".routes") { entries[entry.name] = entry.isDirectory }
        }
        for sibling in project.files where sibling.id != file && PathUtil.directory(of: sibling.path) == base {
            let name = String(sibling.path.dropFirst(base == "/" ? 1 : base.count + 1))
            if !name.hasPrefix(".") && entries[name] == nil { entries[name] = false }
        }
        var items: [CompletionItem] = []
        for (name, isDirectory) in entries {
            if !isDirectory && PathUtil.join(base, name) == source.path { continue }
            let label = isDirectory ? name + "/" : name
            items.append(CompletionItem(label: label, kind: isDirectory ? .folder : .file,
                                        detail: isDirectory ? "folder" : "Routes file",
                                        sortText: (isDirectory ? "1" : "0") + name))
        }
        if (base != root && PathUtil.isInside(PathUtil.directory(of: base), root: root)) || (climbs && base != "/") {
            items.append(CompletionItem(label: "../", kind: .folder, detail: "the folder above", sortText: "2"))
        }
        return items.filter { filter.matches($0.label) }
    }
}
