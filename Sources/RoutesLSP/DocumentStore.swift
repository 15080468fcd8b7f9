import RoutesSyntax

/// The documents the editor has open: their text (the editor's, not the disk's), version
/// and path. Incremental changes are applied here.
struct DocumentStore {
    struct Document {
        var uri: String
        /// Canonical file-system path (symbolic links resolved when the file exists).
        var path: String
        var version: Int
        var text: SourceText
    }

    private(set) var documents: [String: Document] = [:]
    /// Canonical path → uri.
    private(set) var uriByPath: [String: String] = [:]
    /// The limit on open documents; past it `didOpen` is refused (logged) rather than
    /// letting a hostile client exhaust memory.
    let maxDocuments = 10_000

    func document(_ uri: String) -> Document? { documents[uri] }

    @discardableResult
    mutating func open(uri: String, path: String, version: Int, text: String) -> Bool {
        if documents[uri] == nil && documents.count >= maxDocuments { return false }
        if let old = documents[uri] { uriByPath[old.path] = nil }
        documents[uri] = Document(uri: uri, path: path, version: version, text: SourceText(text))
        uriByPath[path] = uri
        return true
    }

    mutating func close(uri: String) {
        if let old = documents.removeValue(forKey: uri) { uriByPath[old.path] = nil }
    }

    /// One content change: a range in the encoding the client speaks (clamped as LSP says)
    /// and its replacement, or the whole text when `range` is nil.
    struct Change {
        var range: (start: LineColumn, end: LineColumn)?
        var text: String
    }

    /// One applied change in bytes: `range` of the text as it was just before it, replaced by
    /// `replacement` (a whole-text change replaces everything).
    struct ByteEdit {
        var range: Range<Int>
        var replacement: [UInt8]
    }

    /// Applies changes in order. Returns them in bytes, or nil when the document is not open.
    mutating func change(uri: String, version: Int, changes: [Change], encoding: PositionEncoding) -> [ByteEdit]? {
        guard var doc = documents[uri] else { return nil }
        var text = doc.text
        var applied: [ByteEdit] = []
        for change in changes {
            let replacement = Array(change.text.utf8)
            guard let range = change.range else {
                applied.append(ByteEdit(range: 0..<text.count, replacement: replacement))
                text = SourceText(bytes: replacement)
                continue
            }
            var start = text.offset(of: range.start, encoding: encoding)
            var end = text.offset(of: range.end, encoding: encoding)
            if end < start { swap(&start, &end) }
            applied.append(ByteEdit(range: start..<end, replacement: replacement))
            text = text.replacing(start..<end, with: replacement)
        }
        doc.text = text
        doc.version = version
        documents[uri] = doc
        return applied
    }
}
