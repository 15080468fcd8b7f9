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
        func breakAt(_ offset: Int) -> [UInt8] {
            bytes[offset] == 0x0D && offset + 1 < bytes.count && bytes[offset + 1] == 0x0A ? [0x0D, 0x0A] : [0x0A]
        }
        var first: [UInt8]? = nil
        var blank = true
        var offset = source.contentStart
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0x0A || byte == 0x0D {
                if !blank { return breakAt(offset) }
                if first == nil { first = breakAt(offset) }
                if byte == 0x0D && offset + 1 < bytes.count && bytes[offset + 1] == 0x0A { offset += 1 }
            } else if byte != 0x20 && byte != 0x09 {
                blank = false
            }
            offset += 1
        }
        return first ?? [0x0A]
    }

    /// The number of line breaks (`\n`, `\r\n`, a lone `\r`) in `range` of the source.
    func lineBreaks(_ range: Range<Int>) -> Int {
        let bytes = source.bytes
        var breaks = 0
        var offset = range.lowerBound
        while offset < range.upperBound {
            let byte = bytes[offset]
            if byte == 0x0A {
                breaks += 1
            } else if byte == 0x0D && !(offset + 1 < bytes.count && bytes[offset + 1] == 0x0A) {
                breaks += 1
            }
            offset += 1
        }
        return breaks
    }

    /// A comment's text without trailing spaces and tabs.
    func commentText(_ token: Int) -> ArraySlice<UInt8> {
        let range = tokens[token].range
        return source.bytes[range.lowerBound..<source.endWithoutTrailingSpaces(range)]
    }

    /// Writes the formatted text: the tokens with the separators the walk chose, the comments
    /// where they were, and the regions kept as written (see the comment at the top).
    func realize() -> Output {
        var realization = Realization(self)
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.kind == .whitespace || token.kind == .byteOrderMark {
                index += 1
            } else if realization.atRegion(token) {
                index = realization.writeRegion(from: index)
            } else if token.kind == .lineComment || token.kind == .docComment {
                realization.holdComment(index)
                index += 1
            } else if token.kind == .eof {
                _ = realization.writeHeldComments(before: Next(isLine: true, commentIndent: 0))
                break
            } else {
                // A significant token (or an unknown character outside every region: none is known).
                realization.writeToken(index)
                index += 1
            }
        }
        return realization.finish()
    }

    /// One pass of `realize`: the writer, where each item's lines went, and the comments read
    /// but not yet written.
    struct Realization {
        let engine: FormatEngine
        var writer: Writer
        /// For each item, its lines in the output and in the source (see `Output`).
        var itemOutput: [Range<Int>]
        var itemSource: [Range<Int>]
        /// The item each token begins or ends (-1: none).
        let itemStartingAt: [Int32]
        let itemEndingAt: [Int32]
        /// The items of each region.
        let regionItems: [[Int]]
        /// The comments read since the last token written: whether each is on a line of its
        /// own, and whether a blank line comes before it.
        var heldComments: [(token: Int, ownLine: Bool, blankBefore: Bool)] = []
        /// Where the last token, comment or region read ends in the source.
        var previousEnd: Int
        /// The next region kept as written.
        var region = 0
        /// The item whose last line is being written (a trailing comment extends it).
        var endingItem: Int? = nil
        /// The end of the source line last found by `endItem`, from where it was looked for:
        /// every offset between them has the same line end.
        var lineEndFrom = 0, lineEnd = -1

        init(_ engine: FormatEngine) {
            self.engine = engine
            let source = engine.source
            writer = Writer(newline: engine.newline, capacity: source.count + source.count / 8 + 16)
            let content = source.contentStart
            if content > 0 { writer.out.append(contentsOf: source.bytes[0..<content]) }
            previousEnd = content
            let items = engine.items
            itemOutput = Array(repeating: 0..<0, count: items.count)
            itemSource = Array(repeating: 0..<0, count: items.count)
            var startingAt = [Int32](repeating: -1, count: engine.tokens.count), endingAt = startingAt
            var regionItems = Array(repeating: [Int](), count: engine.regions.count)
            for (index, item) in items.enumerated() {
                if let region = item.region {
                    regionItems[region].append(index)
                } else {
                    startingAt[item.first] = Int32(index)
                    endingAt[item.last] = Int32(index)
                }
            }
            itemStartingAt = startingAt
            itemEndingAt = endingAt
            self.regionItems = regionItems
        }

        /// The text written, ended by a line break.
        mutating func finish() -> Output {
            if writer.started { writer.out.append(contentsOf: writer.newline) }
            return Output(bytes: writer.out, itemOutput: itemOutput, itemSource: itemSource)
        }

        /// Whether the next region kept as written starts at or before `token`.
        func atRegion(_ token: Token) -> Bool {
            region < engine.regions.count && engine.regions[region].bytes.lowerBound <= token.start
        }

        /// Writes the next region as it is, after the comments before it. Returns the index of
        /// the first token after it.
        mutating func writeRegion(from index: Int) -> Int {
            let regionBytes = engine.regions[region].bytes
            let breaks = engine.lineBreaks(previousEnd..<regionBytes.lowerBound)
            let (commentOutput, commentSource) = writeHeldComments(before: Next(isLine: true, commentIndent: 0))
            endingItem = nil
            // (The region's first line keeps its own indentation: it is in its bytes.)
            writer.startLine(blank: writer.forceBlank || breaks >= 2, indent: 0)
            let outputStart = commentOutput ?? writer.lineStart
            writer.out.append(contentsOf: engine.source.bytes[regionBytes])
            writer.closed = true
            writer.afterOpener = false
            writer.forceBlank = false
            for item in regionItems[region] {
                itemOutput[item] = outputStart..<writer.out.count
                itemSource[item] = (commentSource ?? regionBytes.lowerBound)..<regionBytes.upperBound
            }
            previousEnd = regionBytes.upperBound
            region += 1
            let tokens = engine.tokens
            var next = index
            while next < tokens.count && tokens[next].start < regionBytes.upperBound && tokens[next].kind != .eof { next += 1 }
            return next
        }

        /// Reads a comment, to be written before what comes next.
        mutating func holdComment(_ index: Int) {
            let token = engine.tokens[index]
            let breaks = engine.lineBreaks(previousEnd..<token.start)
            let first = previousEnd == engine.source.contentStart && !writer.started && heldComments.isEmpty
            heldComments.append((index, breaks > 0 || first, breaks >= 2 && !first))
            previousEnd = token.end
        }

        /// Writes the comments held before `next`. Returns where the first own-line one starts
        /// in the output and where its line starts in the source, if there is one.
        mutating func writeHeldComments(before next: Next) -> (output: Int?, source: Int?) {
            if heldComments.isEmpty { return (nil, nil) }
            var outputStart: Int? = nil, sourceStart: Int? = nil
            for comment in heldComments {
                if !comment.ownLine && writer.hasContent && !writer.closed {
                    writer.out.append(0x20)
                    writer.out.append(contentsOf: engine.commentText(comment.token))
                    writer.closed = true
                    if let item = endingItem { itemOutput[item] = itemOutput[item].lowerBound..<writer.out.count }
                } else {
                    endingItem = nil
                    let allowed = next.isLine && !writer.afterOpener
                    writer.startLine(blank: writer.forceBlank || (comment.blankBefore && allowed), indent: next.commentIndent)
                    if outputStart == nil {
                        outputStart = writer.lineStart
                        sourceStart = engine.source.lineStart(containing: engine.tokens[comment.token].start)
                    }
                    writer.out.append(contentsOf: engine.commentText(comment.token))
                    writer.closed = true
                    writer.afterOpener = false
                }
                writer.forceBlank = !engine.keepBlankAfter.isEmpty && engine.keepBlankAfter.contains(comment.token)
            }
            heldComments.removeAll(keepingCapacity: true)
            return (outputStart, sourceStart)
        }

        /// Writes a significant token: the comments before it, its separator, its text.
        mutating func writeToken(_ index: Int) {
            let token = engine.tokens[index]
            let breaks = engine.lineBreaks(previousEnd..<token.start)
            let hadComments = !heldComments.isEmpty
            let separator = engine.seps[index]
            let isLine = separator.kind == .line && !separator.noBreak
            let next = Next(isLine: isLine, commentIndent: Int(isLine ? separator.commentIndent : separator.breakIndent))
            let (commentOutput, commentSource) = writeHeldComments(before: next)
            endingItem = nil
            writeSeparator(separator, before: token.kind, breaks: breaks, afterComments: hadComments)
            if itemStartingAt[index] >= 0 {
                let item = Int(itemStartingAt[index])
                itemOutput[item] = (commentOutput ?? writer.lineStart)..<writer.out.count
                itemSource[item] = (commentSource ?? engine.source.lineStart(containing: token.start))..<token.end
            }
            writer.out.append(contentsOf: engine.source.bytes[token.range])
            writer.hasContent = true
            writer.closed = false
            writer.forceBlank = false
            writer.afterOpener = token.kind == .lBrace || token.kind == .lParen
            previousEnd = token.end
            if itemEndingAt[index] >= 0 { endItem(Int(itemEndingAt[index]), at: token) }
        }

        /// Starts a line (after a blank one where one is kept), or writes a space, before a
        /// token of `kind` that `breaks` line breaks separated from what came before it.
        mutating func writeSeparator(_ separator: Sep, before kind: TokenKind, breaks: Int, afterComments: Bool) {
            let isLine = separator.kind == .line && !separator.noBreak
            if isLine || writer.closed || separator.mustBreak || !writer.started {
                var blank = false
                if writer.forceBlank {
                    blank = true
                } else if isLine && breaks >= 2 && !writer.afterOpener && kind != .rBrace && kind != .rParen {
                    blank = separator.blank || afterComments
                }
                writer.startLine(blank: blank, indent: Int(isLine ? separator.indent : separator.breakIndent))
            } else if separator.kind == .space || separator.kind == .line {
                writer.out.append(0x20)
            }
        }

        /// Ends `item` at its last token: its lines reach the end of the token's line.
        mutating func endItem(_ item: Int, at token: Token) {
            itemOutput[item] = itemOutput[item].lowerBound..<writer.out.count
            // (Items that share a long line share its end: found once, not once per item.)
            if token.end < lineEndFrom || token.end > lineEnd {
                let bytes = engine.source.bytes
                var end = token.end
                while end < bytes.count && bytes[end] != 0x0A && bytes[end] != 0x0D { end += 1 }
                lineEndFrom = token.end
                lineEnd = end
            }
            itemSource[item] = itemSource[item].lowerBound..<lineEnd
            endingItem = item
        }
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
        var firstItem: Int? = nil, lastItem: Int? = nil
        for item in items.indices {
            let lines = output.itemSource[item]
            if lines.lowerBound <= range.upperBound && range.lowerBound <= lines.upperBound {
                if firstItem == nil { firstItem = item }
                lastItem = item
            }
        }
        guard var firstItem, var lastItem else { return nil }
        // Items that share a line with a selected one come along.
        while firstItem > 0 && output.itemSource[firstItem - 1].upperBound >= output.itemSource[firstItem].lowerBound {
            firstItem -= 1
        }
        while lastItem + 1 < items.count && output.itemSource[lastItem + 1].lowerBound <= output.itemSource[lastItem].upperBound {
            lastItem += 1
        }
        let sourceLines = output.itemSource[firstItem].lowerBound..<output.itemSource[lastItem].upperBound
        let outputLines = output.itemOutput[firstItem].lowerBound..<output.itemOutput[lastItem].upperBound
        var bytes = Array(source.bytes[..<sourceLines.lowerBound])
        bytes.append(contentsOf: output.bytes[outputLines])
        // The last line's break is the text's (as in the whole format: the first line break
        // decides them all, and it may be this one).
        var rest = sourceLines.upperBound
        if rest < source.count && source.bytes[rest] == 0x0D { rest += 1 }
        if rest < source.count && source.bytes[rest] == 0x0A { rest += 1 }
        bytes.append(contentsOf: newline)
        bytes.append(contentsOf: source.bytes[rest...])
        return bytes
    }
}
