extension Formatted {
    /// The edits that turn `original` (the tree this text was formatted from) into it: one
    /// per run of whitespace between two tokens that changed (a comment's trailing spaces
    /// belong to the run after it), each cut to the bytes that differ. In order, none
    /// overlapping. Every token is untouched, so an editor keeps its marks and folds.
    public func edits(from original: SyntaxTree) -> [ByteEdit] {
        guard changed else { return [] }
        let a = EditWords(original), b = EditWords(tree)
        let old = original.source.bytes, new = tree.source.bytes
        guard a.starts.count == b.starts.count else {
            // (Cannot be: the formatter checked that the tokens correspond.)
            return [ByteEdit(range: 0..<old.count, replacement: new)]
        }
        var edits: [ByteEdit] = []
        func gap(_ x: Range<Int>, _ y: Range<Int>) {
            guard !old[x].elementsEqual(new[y]) else { return }
            var lo1 = x.lowerBound, lo2 = y.lowerBound, hi1 = x.upperBound, hi2 = y.upperBound
            while lo1 < hi1 && lo2 < hi2 && old[lo1] == new[lo2] { lo1 += 1; lo2 += 1 }
            while hi1 > lo1 && hi2 > lo2 && old[hi1 - 1] == new[hi2 - 1] { hi1 -= 1; hi2 -= 1 }
            // Never inside a character (comments may hold any).
            while lo1 > x.lowerBound && old[lo1] & 0xC0 == 0x80 { lo1 -= 1; lo2 -= 1 }
            while hi1 < x.upperBound && hi1 < old.count && old[hi1] & 0xC0 == 0x80 { hi1 += 1; hi2 += 1 }
            edits.append(ByteEdit(range: lo1..<hi1, replacement: Array(new[lo2..<hi2])))
        }
        var previousA = 0, previousB = 0
        for k in a.starts.indices {
            gap(previousA..<a.starts[k], previousB..<b.starts[k])
            previousA = a.ends[k]
            previousB = b.ends[k]
        }
        gap(previousA..<old.count, previousB..<new.count)
        return edits
    }
}

/// The tokens of a tree that are not whitespace, comments without their trailing spaces.
struct EditWords {
    var starts: [Int] = []
    var ends: [Int] = []
    init(_ tree: SyntaxTree) {
        let bytes = tree.source.bytes
        starts.reserveCapacity(tree.tokens.count / 2)
        ends.reserveCapacity(tree.tokens.count / 2)
        for t in tree.tokens where t.kind != .whitespace && t.kind != .eof {
            var end = t.end
            if t.kind == .lineComment || t.kind == .docComment {
                while end > t.start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            }
            starts.append(t.start)
            ends.append(end)
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
        var t = tree.tokenIndex(at: at)
        while t >= 0 && (tokens[t].end > at || tokens[t].kind == .whitespace || tokens[t].kind == .eof) { t -= 1 }
        guard t >= 0, tokens[t].kind == .rBrace,
              source.bytes[tokens[t].end..<at].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { return [] }
        // The innermost block (or `anyOf`) that the `}` closes, and the node that owns it.
        var owner: Int? = nil
        for (i, n) in tree.nodes.enumerated() where Int(n.tokenStart) <= t && t < Int(n.tokenEnd) {
            guard n.kind == .block || n.kind == .anyOfBuilder else { continue }
            var last = Int(n.tokenEnd) - 1
            while last > t && tokens[last].kind.isTrivia { last -= 1 }
            guard last == t else { continue }
            if n.kind == .anyOfBuilder {
                owner = i
            } else if let parent = tree.parent(of: i) {
                // An `else` block belongs to its `conditional`, `if let` or `if screen`.
                owner = tree.nodes[parent].kind == .elseClause ? tree.parent(of: parent) ?? parent : parent
            }
        }
        guard let owner else { return [] }
        let node = tree.node(owner)
        var first = node.tokenRange.lowerBound
        while first < t && tokens[first].kind.isTrivia { first += 1 }
        let lineStart = source.lineStart(containing: tokens[first].start)
        guard let formatted = try? format(tree, range: tokens[first].start..<tokens[t].end), formatted.changed else { return [] }
        let edits = formatted.edits(from: tree).filter { $0.range.lowerBound >= lineStart && $0.range.lowerBound < tokens[t].end && $0.range.upperBound <= tokens[t].end }
        guard !edits.isEmpty else { return [] }
        // The block alone must read as the whole text did.
        var bytes = source.bytes
        for e in edits.reversed() { bytes.replaceSubrange(e.range, with: e.replacement) }
        guard FormatCheck.difference(tree, SyntaxTree.parse(SourceText(bytes: bytes))) == nil else { return [] }
        return edits
    }
}

extension SyntaxTree {
    /// The index of the node that holds node `index` (nil for the file's node).
    func parent(of index: Int) -> Int? {
        var i = index - 1
        while i >= 0 {
            if Int(nodes[i].subtreeEnd) > index { return i }
            i -= 1
        }
        return nil
    }
}
