import Synchronization
import RoutesSyntax

/// Parsed and lowered files kept from one project to the next (the language server keeps
/// one): when a file's bytes have not changed, its tree and model are reused instead of
/// parsing and lowering it again, so an edit to one file of a large workspace parses one file.
public final class ParseCache: @unchecked Sendable {
    // Used by one project construction at a time (the server's loop); lookups happen before
    // the parallel parse starts.
    private var entries: [String: (tree: SyntaxTree, model: FileModel)] = [:]
    /// Files reused so far (for tests and logs).
    public private(set) var hits = 0

    public init() {}

    func lookup(_ path: String, bytes: [UInt8], id: FileID) -> (SyntaxTree, FileModel)? {
        guard let entry = entries[path], entry.tree.source.bytes == bytes else { return nil }
        hits += 1
        return (entry.tree.withFileID(id), entry.model.withFileID(id))
    }

    /// Keeps a file's tree and model, made by an edit (see
    /// ``Project/applyingDeclarationEdit(file:range:replacement:newSource:)``) or read ahead
    /// from disk, for the next project: it finds them when the file's bytes are the tree's.
    public func remember(_ path: String, tree: SyntaxTree, model: FileModel) {
        entries[path] = (tree, model)
    }

    func replace(with files: [SourceFile]) {
        var next: [String: (tree: SyntaxTree, model: FileModel)] = [:]
        for file in files { next[file.path] = (file.keptSyntax, file.model) }
        entries = next
    }
}

extension Project {
    /// The code in a range of a file as messages quote it: its tokens without comments, one
    /// space between them (`screen  Home` and `screen // why\n Home` read `screen Home`). So a
    /// message never depends on layout, and an edit in a comment or in whitespace leaves every
    /// message as it was. Unexpected characters are quoted too (`if nil == draft`, whose `==`
    /// is a syntax error, is not `if nil draft`).
    public func quoted(file: FileID, _ range: Range<Int>) -> String {
        let tree = files[file].keptSyntax, text = files[file].text
        var parts: [String] = []
        let tokens = tree.hasTokens ? tree.tokens(coveringLinesOf: range) : SyntaxTree.tokens(of: text, coveringLinesOf: range)
        for token in tokens where token.start < range.upperBound {
            if (!token.kind.isSkipped || token.kind == .unknown) && token.kind != .eof && token.end > range.lowerBound {
                parts.append(text.text(max(token.start, range.lowerBound)..<min(token.end, range.upperBound)))
            }
        }
        return parts.joined(separator: " ")
    }
}

extension FileModel {
    /// The same model for a file with another id (its diagnostics name the file).
    func withFileID(_ id: FileID) -> FileModel {
        guard diagnostics.contains(where: { $0.file != id || $0.related.contains { $0.file != id } }) else { return self }
        var model = self
        model.diagnostics = model.diagnostics.map { $0.inFile(id) }
        return model
    }
}
