/// Writing the formatted text: the tokens with the separators the walk chose, the comments
/// where they were, blank lines, and the lines kept as written (docs/formatting.md).
///
/// - A comment that ended a line of code ends the line of that code, after one space; a
///   comment on a line of its own stays on a line of its own, indented as the code after it
///   (inside a block, before its `}`, as the block's builder). Its text loses its trailing
///   spaces.
/// - A blank line (several count as one) is kept between declarations, between `anyOf`
///   branches, and around comments; not after a `{` or `(`, before a `}` or `)`, within a
///   line that a comment broke, or at the start or end of the file.
/// - A comment, or a `// routes:ignore` comment's line, may break a line the walk kept
///   whole: what follows goes on the next line, indented one level more (a `{`, `else` or
///   `}` at the level of the line it belongs to).
/// - Lines end as the file's first line that is not blank ends (`\r\n` or `\n`), and the
///   text with a line break; a byte-order mark stays.
extension FormatEngine {
    struct Output {
        var bytes: [UInt8]
        /// For each item: the bytes of its lines in the output (from its first own-line
        /// comment, else its first token, to the end of its last line, its line break excluded)…
        var itemOutput: [Range<Int>]
        /// …and in the source.
        var itemSource: [Range<Int>]
    }

    /// The line break of the text: that of its first line that is not blank, which is the
    /// output's first line (blank lines at the start are dropped), so that formatting the
    /// output again chooses the same; else that of its first line; `\n` when it has none.
    var newline: [UInt8] {
        let bytes = source.bytes
        func breakAt(_ i: Int) -> [UInt8] { bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? [0x0D, 0x0A] : [0x0A] }
        var first: [UInt8]? = nil
        var blank = true
        var i = source.contentStart
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                if !blank { return breakAt(i) }
                if first == nil { first = breakAt(i) }
                if b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            } else if b != 0x20 && b != 0x09 {
                blank = false
            }
            i += 1
        }
        return first ?? [0x0A]
    }

    /// The number of line breaks (`\n`, `\r\n`, a lone `\r`) in `range` of the source.
    func lineBreaks(_ range: Range<Int>) -> Int {
        let bytes = source.bytes
        var n = 0
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            if b == 0x0A {
                n += 1
            } else if b == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A) {
                n += 1
            }
            i += 1
        }
        return n
    }

    /// A comment's text without trailing spaces and tabs.
    func commentText(_ t: Int) -> ArraySlice<UInt8> {
        var end = tokens[t].end
        let start = tokens[t].start
        while end > start && (source.bytes[end - 1] == 0x20 || source.bytes[end - 1] == 0x09) { end -= 1 }
        return source.bytes[start..<end]
    }

    mutating func realize() -> Output {
        var w = Writer(newline: newline, capacity: source.count + source.count / 8 + 16)
        let bytes = source.bytes
        let content = source.contentStart
        if content > 0 { w.out.append(contentsOf: bytes[0..<content]) }

        var itemOutput = Array(repeating: 0..<0, count: items.count)
        var itemSource = Array(repeating: 0..<0, count: items.count)
        // The item each token begins or ends (-1: none).
        var firstOf = [Int32](repeating: -1, count: tokens.count), lastOf = firstOf
        var regionItems = Array(repeating: [Int](), count: regions.count)
        for (i, item) in items.enumerated() {
            if let r = item.region {
                regionItems[r].append(i)
            } else {
                firstOf[item.first] = Int32(i)
                lastOf[item.last] = Int32(i)
            }
        }

        var gap: [(token: Int, ownLine: Bool, blankBefore: Bool)] = []
        var previousEnd = content
        var region = 0
        /// The item whose last line is being written (a trailing comment extends it).
        var ending: Int? = nil

        /// Writes the comments of the gap before `next`.
        func flushComments(next: Next, into w: inout Writer) -> (outStart: Int?, srcStart: Int?) {
            if gap.isEmpty { return (nil, nil) }
            var outStart: Int? = nil, srcStart: Int? = nil
            for c in gap {
                if !c.ownLine && w.hasContent && !w.closed {
                    w.out.append(0x20)
                    w.out.append(contentsOf: commentText(c.token))
                    w.closed = true
                    if let e = ending { itemOutput[e] = itemOutput[e].lowerBound..<w.out.count }
                } else {
                    ending = nil
                    let allowed = next.isLine && !w.afterOpener
                    w.startLine(blank: w.forceBlank || (c.blankBefore && allowed), indent: next.commentIndent)
                    if outStart == nil {
                        outStart = w.lineStart
                        srcStart = source.lineStart(containing: tokens[c.token].start)
                    }
                    w.out.append(contentsOf: commentText(c.token))
                    w.closed = true
                    w.afterOpener = false
                }
                w.forceBlank = !keepBlankAfter.isEmpty && keepBlankAfter.contains(c.token)
            }
            if !gap.isEmpty { gap.removeAll(keepingCapacity: true) }
            return (outStart, srcStart)
        }

        var t = 0
        while t < tokens.count {
            let token = tokens[t]
            let kind = token.kind
            if kind == .whitespace || kind == .byteOrderMark { t += 1; continue }
            // Lines kept as written.
            if region < regions.count && regions[region].bytes.lowerBound <= token.start {
                let r = regions[region]
                let breaks = lineBreaks(previousEnd..<r.bytes.lowerBound)
                let (commentStart, commentSource) = flushComments(next: Next(isLine: true, commentIndent: 0), into: &w)
                ending = nil
                // (The region's first line keeps its own indentation: it is in its bytes.)
                w.startLine(blank: w.forceBlank || breaks >= 2, indent: 0)
                let outStart = commentStart ?? w.lineStart
                w.out.append(contentsOf: bytes[r.bytes])
                w.closed = true
                w.afterOpener = false
                w.forceBlank = false
                for i in regionItems[region] {
                    itemOutput[i] = outStart..<w.out.count
                    itemSource[i] = (commentSource ?? r.bytes.lowerBound)..<r.bytes.upperBound
                }
                previousEnd = r.bytes.upperBound
                region += 1
                while t < tokens.count && tokens[t].start < r.bytes.upperBound && tokens[t].kind != .eof { t += 1 }
                continue
            }
            if kind == .lineComment || kind == .docComment {
                let breaks = lineBreaks(previousEnd..<token.start)
                let first = previousEnd == content && !w.started && gap.isEmpty
                gap.append((t, breaks > 0 || first, breaks >= 2 && !first))
                previousEnd = token.end
                t += 1
                continue
            }
            if kind == .eof {
                _ = flushComments(next: Next(isLine: true, commentIndent: 0), into: &w)
                break
            }
            // A significant token (or an unknown character outside every region: none is known).
            let breaks = lineBreaks(previousEnd..<token.start)
            let hadComments = !gap.isEmpty
            let sep = seps[t]
            let isLine = sep.kind == .line && !sep.noBreak
            let next = Next(isLine: isLine, commentIndent: Int(isLine ? sep.commentIndent : sep.breakIndent))
            let (commentStart, commentSource) = flushComments(next: next, into: &w)
            ending = nil
            if isLine || w.closed || sep.mustBreak || !w.started {
                var blank = false
                if w.forceBlank {
                    blank = true
                } else if isLine && breaks >= 2 && !w.afterOpener && kind != .rBrace && kind != .rParen {
                    blank = sep.blank || hadComments
                }
                w.startLine(blank: blank, indent: Int(isLine ? sep.indent : sep.breakIndent))
            } else if sep.kind == .space || sep.kind == .line {
                w.out.append(0x20)
            }
            if firstOf[t] >= 0 {
                let i = Int(firstOf[t])
                itemOutput[i] = (commentStart ?? w.lineStart)..<w.out.count
                itemSource[i] = (commentSource ?? source.lineStart(containing: token.start))..<token.end
            }
            w.out.append(contentsOf: bytes[token.range])
            w.hasContent = true
            w.closed = false
            w.forceBlank = false
            w.afterOpener = kind == .lBrace || kind == .lParen
            previousEnd = token.end
            if lastOf[t] >= 0 {
                let i = Int(lastOf[t])
                itemOutput[i] = itemOutput[i].lowerBound..<w.out.count
                var end = token.end
                while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
                itemSource[i] = itemSource[i].lowerBound..<end
                ending = i
            }
            t += 1
        }
        if w.started { w.out.append(contentsOf: w.newline) }
        return Output(bytes: w.out, itemOutput: itemOutput, itemSource: itemSource)
    }

    /// What follows a run of comments.
    struct Next {
        /// Whether it starts a line of its own in the layout (a blank line may come before it).
        var isLine: Bool
        /// The indentation of own-line comments before it.
        var commentIndent: Int
    }

    /// The output, line by line.
    struct Writer {
        var out: [UInt8] = []
        let newline: [UInt8]
        /// Where the current line starts in `out`.
        var lineStart = 0
        /// Something was written (a byte-order mark aside).
        var started = false
        /// The current line holds something.
        var hasContent = false
        /// The current line is finished (by a comment, or a region kept as written).
        var closed = false
        /// The last thing written is a `{` or `(`.
        var afterOpener = false
        /// A blank line must come next (after a suppression comment whose line is blank).
        var forceBlank = false

        init(newline: [UInt8], capacity: Int) {
            self.newline = newline
            out.reserveCapacity(capacity)
        }

        /// Ends the current line (unless nothing was written yet) and starts an indented one.
        mutating func startLine(blank: Bool, indent: Int) {
            if started {
                out.append(contentsOf: newline)
                if blank { out.append(contentsOf: newline) }
            }
            lineStart = out.count
            if indent > 0 { out.append(contentsOf: repeatElement(0x20, count: indent)) }
            started = true
            hasContent = false
            closed = false
        }
    }

    /// The text with only the lines of the items intersecting `range` formatted (see
    /// `Formatter.format(_:range:)`); nil when the range touches no item.
    func splice(_ output: Output, selecting range: Range<Int>) -> [UInt8]? {
        var a: Int? = nil, b: Int? = nil
        for i in items.indices {
            let s = output.itemSource[i]
            if s.lowerBound <= range.upperBound && range.lowerBound <= s.upperBound {
                if a == nil { a = i }
                b = i
            }
        }
        guard var a, var b else { return nil }
        // Items that share a line with a selected one come along.
        while a > 0 && output.itemSource[a - 1].upperBound >= output.itemSource[a].lowerBound { a -= 1 }
        while b + 1 < items.count && output.itemSource[b + 1].lowerBound <= output.itemSource[b].upperBound { b += 1 }
        let src = output.itemSource[a].lowerBound..<output.itemSource[b].upperBound
        let out = output.itemOutput[a].lowerBound..<output.itemOutput[b].upperBound
        var bytes = Array(source.bytes[..<src.lowerBound])
        bytes.append(contentsOf: output.bytes[out])
        // The last line's break is the text's (as in the whole format: the first line break
        // decides them all, and it may be this one).
        var rest = src.upperBound
        if rest < source.count && source.bytes[rest] == 0x0D { rest += 1 }
        if rest < source.count && source.bytes[rest] == 0x0A { rest += 1 }
        bytes.append(contentsOf: newline)
        bytes.append(contentsOf: source.bytes[rest...])
        return bytes
    }
}
