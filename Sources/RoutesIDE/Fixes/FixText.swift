import RoutesModel
import RoutesSyntax

/// The text around what a fix edits, so that edits keep what the user wrote: lines, their
/// indentation, comments on them, and the file's line breaks.
struct FixText {
    let tree: SyntaxTree
    var source: SourceText { tree.source }
    var bytes: [UInt8] { tree.source.bytes }

    init(_ file: SourceFile) { tree = file.syntax }

    /// The file's line break: `\r\n` when its first line ends so, else `\n`.
    var newline: String {
        guard let lf = bytes.firstIndex(of: 0x0A) else { return "\n" }
        return lf > 0 && bytes[lf - 1] == 0x0D ? "\r\n" : "\n"
    }

    /// The start of the line holding `offset`.
    func lineStart(_ offset: Int) -> Int {
        var cursor = min(offset, bytes.count)
        while cursor > 0 && bytes[cursor - 1] != 0x0A && bytes[cursor - 1] != 0x0D { cursor -= 1 }
        return cursor
    }

    /// Where the line holding `offset` ends: its line break (or the end of the text).
    func lineEnd(_ offset: Int) -> Int {
        var cursor = min(offset, bytes.count)
        while cursor < bytes.count && bytes[cursor] != 0x0A && bytes[cursor] != 0x0D { cursor += 1 }
        return cursor
    }

    /// Just after the line break of the line holding `offset` (the end of the text when the
    /// line has none).
    func nextLineStart(_ offset: Int) -> Int {
        var cursor = lineEnd(offset)
        if cursor < bytes.count && bytes[cursor] == 0x0D { cursor += 1 }
        if cursor < bytes.count && bytes[cursor] == 0x0A { cursor += 1 }
        return cursor
    }

    /// The spaces and tabs that start the line holding `offset`.
    func indentation(_ offset: Int) -> String {
        let start = lineStart(offset)
        var cursor = start
        while cursor < bytes.count && (bytes[cursor] == 0x20 || bytes[cursor] == 0x09) { cursor += 1 }
        return source.text(start..<cursor)
    }

    /// Whether only spaces and tabs stand between the start of its line and `offset`.
    func startsLine(_ offset: Int) -> Bool {
        var cursor = offset
        while cursor > 0 && (bytes[cursor - 1] == 0x20 || bytes[cursor - 1] == 0x09) { cursor -= 1 }
        return cursor == 0 || bytes[cursor - 1] == 0x0A || bytes[cursor - 1] == 0x0D
    }

    /// Whether only spaces, tabs and a comment stand between `offset` and the end of its line.
    func endsLine(_ offset: Int) -> Bool {
        trailingComment(after: offset) != nil || restIsBlank(offset)
    }

    private func restIsBlank(_ offset: Int) -> Bool {
        var cursor = offset
        while cursor < bytes.count && (bytes[cursor] == 0x20 || bytes[cursor] == 0x09) { cursor += 1 }
        return cursor == bytes.count || bytes[cursor] == 0x0A || bytes[cursor] == 0x0D
    }

    /// The comment after `offset` on its line, when only spaces and tabs come before it.
    func trailingComment(after offset: Int) -> Range<Int>? {
        var cursor = offset
        while cursor < bytes.count && (bytes[cursor] == 0x20 || bytes[cursor] == 0x09) { cursor += 1 }
        guard cursor < bytes.count else { return nil }
        let token = tree.tokenIndex(at: cursor)
        guard token < tree.tokens.count, tree.tokens[token].start == cursor,
              tree.tokens[token].kind == .lineComment || tree.tokens[token].kind == .docComment else { return nil }
        return tree.tokens[token].range
    }

    /// Whether the line holding `offset` is blank (spaces and tabs only).
    func lineIsBlank(_ offset: Int) -> Bool {
        let start = lineStart(offset)
        return startsLine(start) && restIsBlank(start)
    }

    /// Whether the text in `range` stands alone on its lines: nothing but indentation before
    /// it, and nothing but a comment after it.
    func standsAlone(_ range: Range<Int>) -> Bool { startsLine(range.lowerBound) && endsLine(range.upperBound) }

    /// Whether a comment (`//` or `///`) stands inside `range`.
    func holdsComments(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        var token = tree.tokenIndex(at: range.lowerBound)
        while token < tree.tokens.count && tree.tokens[token].start < range.upperBound {
            let kind = tree.tokens[token].kind
            if (kind == .lineComment || kind == .docComment) && tree.tokens[token].start >= range.lowerBound { return true }
            token += 1
        }
        return false
    }

    /// The start of the `///` lines right before `offset` (blank lines between them allowed,
    /// as a declaration's doc comment is found), or `offset` when there are none.
    func docCommentStart(before offset: Int) -> Int {
        var token = tree.tokenIndex(at: offset) - 1
        var earliest = offset
        while token >= 0 {
            let kind = tree.tokens[token].kind
            if kind == .docComment { earliest = tree.tokens[token].start }
            else if kind != .whitespace && kind != .byteOrderMark { break }
            token -= 1
        }
        return earliest
    }

    /// The start of the comment lines right above the line holding `offset` (no blank line
    /// between them and it), or that line's start when there are none.
    func commentBlockStart(above offset: Int) -> Int {
        linesStart(above: offset) { $0.starts(with: Array("//".utf8)) }
    }

    /// The start of the `///` lines right above the line holding `offset` (no blank line
    /// between them and it), or that line's start when there are none.
    func docLinesStart(above offset: Int) -> Int {
        linesStart(above: offset) { $0.starts(with: Array("///".utf8)) && !$0.starts(with: Array("////".utf8)) }
    }

    /// The start of the `// routes:ignore` lines right above the line holding `offset` (a
    /// suppression alone on its line is for the next line: nothing may come between), or that
    /// line's start when there are none.
    func suppressionLinesStart(above offset: Int) -> Int {
        linesStart(above: offset) { line in
            line.starts(with: Array("//".utf8)) && Array(line.dropFirst(2).drop { $0 == 0x20 || $0 == 0x09 }).starts(with: SuppressionMarker.word)
        }
    }

    /// The start of the run of lines right above the line holding `offset` whose text after
    /// their indentation each satisfies `holds`, or that line's start when there are none.
    private func linesStart(above offset: Int, where holds: (ArraySlice<UInt8>) -> Bool) -> Int {
        var start = lineStart(offset)
        while start > 0 {
            let previous = lineStart(start - 1)
            var cursor = previous
            while cursor < bytes.count && (bytes[cursor] == 0x20 || bytes[cursor] == 0x09) { cursor += 1 }
            guard holds(bytes[cursor..<lineEnd(previous)]) else { break }
            start = previous
        }
        return start
    }

    /// The edits that delete `range` (which holds whole tokens): its lines when it stands
    /// alone on them (a comment after it on its last line stays, on a line of its own; a
    /// blank line it leaves beside another blank line goes too), else the range and the
    /// spaces before it.
    func deletion(of range: Range<Int>) -> [TextEdit] {
        guard standsAlone(range) else {
            if startsLine(range.lowerBound) {
                // First on its line: the blanks after it go, and the line keeps its
                // indentation (`flag a flag b // two` becomes `flag b // two`).
                var hi = range.upperBound
                while hi < bytes.count && (bytes[hi] == 0x20 || bytes[hi] == 0x09) { hi += 1 }
                return [TextEdit(range: range.lowerBound..<hi, newText: "")]
            }
            var lo = range.lowerBound
            while lo > 0 && (bytes[lo - 1] == 0x20 || bytes[lo - 1] == 0x09) { lo -= 1 }
            // Keep one space between the tokens on either side.
            if lo > 0 && !startsLine(lo) && !restIsBlank(range.upperBound)
                && range.upperBound < bytes.count && bytes[range.upperBound] != 0x20 && bytes[range.upperBound] != 0x09 {
                return [TextEdit(range: lo..<range.upperBound, newText: " ")]
            }
            return [TextEdit(range: lo..<range.upperBound, newText: "")]
        }
        let start = lineStart(range.lowerBound)
        if let comment = trailingComment(after: range.upperBound) {
            // The comment stays, where the deleted text began.
            return [TextEdit(range: range.lowerBound..<comment.lowerBound, newText: "")]
        }
        var end = nextLineStart(range.upperBound)
        let blankBefore = start == 0 || lineIsBlank(start - 1)
        if blankBefore && end < bytes.count && lineIsBlank(end) { end = nextLineStart(end) }
        return [TextEdit(range: start..<end, newText: "")]
    }

    /// The lines from `start`'s line through `end`'s, without the last line break.
    func lines(_ start: Int, _ end: Int) -> Range<Int> { lineStart(start)..<lineEnd(end) }
}
