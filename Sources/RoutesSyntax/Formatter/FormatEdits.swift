extension Formatted {
    /// The edits that turn `original` (the tree this text was formatted from) into it: one
    /// per run of whitespace between two tokens that changed (a comment's trailing spaces
    /// belong to the run after it), each cut to the bytes that differ. In order, none
    /// overlapping. Every token is untouched, so an editor keeps its marks and folds.
    public func edits(from original: SyntaxTree) -> [ByteEdit] {
        guard changed else { return [] }
        let oldWords = EditWords(original), newWords = EditWords(tree)
        let old = original.source.bytes, new = tree.source.bytes
        guard oldWords.starts.count == newWords.starts.count else {
            // (Cannot be: the formatter checked that the tokens correspond.)
            return [ByteEdit(range: 0..<old.count, replacement: new)]
        }
        var edits: [ByteEdit] = []
        func gap(_ oldGap: Range<Int>, _ newGap: Range<Int>) {
            guard !old[oldGap].elementsEqual(new[newGap]) else { return }
            var oldStart = oldGap.lowerBound, newStart = newGap.lowerBound, oldEnd = oldGap.upperBound, newEnd = newGap.upperBound
            while oldStart < oldEnd && newStart < newEnd && old[oldStart] == new[newStart] { oldStart += 1; newStart += 1 }
            while oldEnd > oldStart && newEnd > newStart && old[oldEnd - 1] == new[newEnd - 1] { oldEnd -= 1; newEnd -= 1 }
            // Never inside a character (comments may hold any).
            // (The common part may run to the text's end: `root { ` gets its last line break.)
            while oldStart > oldGap.lowerBound && oldStart < old.count && old[oldStart] & 0xC0 == 0x80 { oldStart -= 1; newStart -= 1 }
            while oldEnd < oldGap.upperBound && oldEnd < old.count && old[oldEnd] & 0xC0 == 0x80 { oldEnd += 1; newEnd += 1 }
            edits.append(ByteEdit(range: oldStart..<oldEnd, replacement: Array(new[newStart..<newEnd])))
        }
        var previousOld = 0, previousNew = 0
        for word in oldWords.starts.indices {
            gap(previousOld..<oldWords.starts[word], previousNew..<newWords.starts[word])
            previousOld = oldWords.ends[word]
            previousNew = newWords.ends[word]
        }
        gap(previousOld..<old.count, previousNew..<new.count)
        return edits
    }
}

/// The tokens of a tree that are not whitespace, comments without their trailing spaces.
struct EditWords {
    var starts: [Int] = []
    var ends: [Int] = []
    init(_ tree: SyntaxTree) {
        starts.reserveCapacity(tree.tokens.count / 2)
        ends.reserveCapacity(tree.tokens.count / 2)
        for token in tree.tokens where token.kind != .whitespace && token.kind != .eof {
            let isComment = token.kind == .lineComment || token.kind == .docComment
            starts.append(token.start)
            ends.append(isComment ? tree.source.endWithoutTrailingSpaces(token.range) : token.end)
        }
    }
}

extension Formatter {
    /// The edits formatting the block that the `}` just before `offset` closes (an editor's
    /// `onTypeFormatting` when `}` is typed): the lines from the one where the block's builder
    /// (`screen`, `anyOf`, `conditional`, …, `builder`, `root`) starts to the `}`, laid out as
    /// the whole format lays them out. None when there is no such `}`, when the block is in
    /// lines with syntax errors, or when nothing changes.
    public static func formatBlock(_ tree: SyntaxTree, closedBefore offset: Int) -> [ByteEdit] {
        let tokens = tree.tokens
        guard !tokens.isEmpty else { return [] }
        let source = tree.source
        // The `}`: the last token before the offset, with at most spaces between them.
        let at = max(0, min(offset, source.count))
        var brace = tree.tokenIndex(at: at)
        while brace >= 0 && (tokens[brace].end > at || tokens[brace].kind == .whitespace || tokens[brace].kind == .eof) { brace -= 1 }
        guard brace >= 0, tokens[brace].kind == .rBrace,
              source.bytes[tokens[brace].end..<at].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return [] }
        // The innermost block (or `anyOf`) that the `}` closes, and the node that owns it.
        var owner: Int? = nil
        for (index, node) in tree.nodes.enumerated() where Int(node.tokenStart) <= brace && brace < Int(node.tokenEnd) {
            guard node.kind == .block || node.kind == .anyOfBuilder else { continue }
            var last = Int(node.tokenEnd) - 1
            while last > brace && tokens[last].kind.isTrivia { last -= 1 }
            guard last == brace else { continue }
            if node.kind == .anyOfBuilder {
                owner = index
            } else if let parent = tree.parent(of: index) {
                // An `else` block belongs to its `conditional`, `if let` or `if screen`.
                owner = tree.nodes[parent].kind == .elseClause ? tree.parent(of: parent) ?? parent : parent
            }
        }
        guard let owner else { return [] }
        var first = tree.node(owner).tokenRange.lowerBound
        while first < brace && tokens[first].kind.isTrivia { first += 1 }
        let lineStart = source.lineStart(containing: tokens[first].start)
        let blockEnd = tokens[brace].end
        guard let formatted = try? format(tree, range: tokens[first].start..<blockEnd), formatted.changed else { return [] }
        let edits = formatted.edits(from: tree).filter {
            $0.range.lowerBound >= lineStart && $0.range.lowerBound < blockEnd && $0.range.upperBound <= blockEnd
        }
        guard !edits.isEmpty else { return [] }
        // The block alone must read as the whole text did.
        var bytes = source.bytes
        for edit in edits.reversed() { bytes.replaceSubrange(edit.range, with: edit.replacement) }
        guard FormatCheck.difference(tree, SyntaxTree.parse(SourceText(bytes: bytes))) == nil else { return [] }
        return edits
    }
}

extension SyntaxTree {
    /// The index of the node that holds node `index` (nil for the file's node).
    func parent(of index: Int) -> Int? {
        var candidate = index - 1
        while candidate >= 0 {
            if Int(nodes[candidate].subtreeEnd) > index { return candidate }
            candidate -= 1
        }
        return nil
    }
}
