/// Whether a formatted text reads as its original: the check every formatted text passes
/// before `Formatter` gives it out (docs/formatting.md, "Never a change of meaning").
///
/// Whitespace aside, the two must have the same tokens in the same order (comments compared
/// without trailing spaces), the same syntax tree, the same syntax errors (rule, message with
/// its numbers left out, and place among the tokens), and each `// routes:ignore` comment
/// must apply to a line holding the same tokens. The model, the names and every analysis are
/// functions of these, so they agree too (the property tests check that on every fixture,
/// example and generated program).
enum FormatCheck {
    /// nil when `after` reads as `before`; else what differs first, in words.
    static func difference(_ before: SyntaxTree, _ after: SyntaxTree) -> String? {
        let a = Words(before), b = Words(after)
        if before.source.contentStart != after.source.contentStart { return "the byte-order mark" }
        guard a.list.count == b.list.count else {
            return "\(a.list.count) tokens and comments before, \(b.list.count) after"
        }
        for k in a.list.indices {
            let x = before.tokens[a.list[k]], y = after.tokens[b.list[k]]
            guard x.kind == y.kind else { return "token \(k + 1) is \(x.kind.display) before and \(y.kind.display) after" }
            if x.kind == .lineComment || x.kind == .docComment {
                guard a.trimmed(x).elementsEqual(b.trimmed(y)) else { return "comment \(k + 1) differs" }
            } else {
                guard before.source.bytes[x.range].elementsEqual(after.source.bytes[y.range]) else {
                    return "token \(k + 1) differs"
                }
            }
        }
        guard before.nodes.count == after.nodes.count else {
            return "\(before.nodes.count) syntax nodes before, \(after.nodes.count) after"
        }
        for (i, (x, y)) in zip(before.nodes, after.nodes).enumerated() {
            guard x.kind == y.kind, x.subtreeEnd == y.subtreeEnd,
                  a.ordinal(Int(x.tokenStart)) == b.ordinal(Int(y.tokenStart)),
                  a.ordinal(Int(x.tokenEnd)) == b.ordinal(Int(y.tokenEnd)) else {
                return "syntax node \(i) (\(x.kind)) differs"
            }
        }
        guard before.diagnostics.count == after.diagnostics.count else {
            return "\(before.diagnostics.count) syntax errors before, \(after.diagnostics.count) after"
        }
        for (x, y) in zip(before.diagnostics, after.diagnostics) {
            guard x.rule == y.rule, withoutNumbers(x.message) == withoutNumbers(y.message),
                  a.place(x.range.lowerBound) == b.place(y.range.lowerBound),
                  a.place(x.range.upperBound) == b.place(y.range.upperBound),
                  x.related.count == y.related.count,
                  zip(x.related, y.related).allSatisfy({ withoutNumbers($0.message) == withoutNumbers($1.message)
                      && a.place($0.range.lowerBound) == b.place($1.range.lowerBound) }) else {
                return "the syntax error “\(x.message)” differs"
            }
        }
        let sa = a.suppressionTargets(), sb = b.suppressionTargets()
        guard sa == sb else { return "a `// routes:ignore` comment would apply to another line" }
        return nil
    }

    /// A message with its runs of digits replaced (line and column numbers move).
    static func withoutNumbers(_ message: String) -> String {
        var out = ""
        var inNumber = false
        for c in message.unicodeScalars {
            if c.value >= 0x30 && c.value <= 0x39 {
                if !inNumber { out.append("#") }
                inNumber = true
            } else {
                out.unicodeScalars.append(c)
                inNumber = false
            }
        }
        return out
    }

    /// The tokens of a tree that are not whitespace, in order.
    struct Words {
        let tree: SyntaxTree
        /// Token indices.
        var list: [Int] = []
        /// For each token index, how many of `list` come before it (one more entry for the end).
        var before: [Int32]

        init(_ tree: SyntaxTree) {
            self.tree = tree
            before = []
            before.reserveCapacity(tree.tokens.count + 1)
            list.reserveCapacity(tree.tokens.count / 2 + 1)
            for (i, t) in tree.tokens.enumerated() {
                before.append(Int32(list.count))
                if t.kind != .whitespace && t.kind != .byteOrderMark && t.kind != .eof { list.append(i) }
            }
            before.append(Int32(list.count))
        }

        func ordinal(_ tokenIndex: Int) -> Int32 {
            before[max(0, min(tokenIndex, before.count - 1))]
        }

        func trimmed(_ t: Token) -> ArraySlice<UInt8> {
            let bytes = tree.source.bytes
            var end = t.end
            while end > t.start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
            return bytes[t.start..<end]
        }

        /// A byte offset as a place among the words: the first word that ends after it, and
        /// how far into that word (0 in the whitespace before it).
        func place(_ offset: Int) -> [Int] {
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if tree.tokens[list[mid]].end <= offset { lo = mid + 1 } else { hi = mid }
            }
            guard lo < list.count else { return [lo, 0] }
            return [lo, max(0, offset - tree.tokens[list[lo]].start)]
        }

        /// For each `// routes:ignore` comment, the words of the line it applies to.
        func suppressionTargets() -> [[Int]] {
            let marker = Array("routes:ignore".utf8)
            let source = tree.source
            let bytes = source.bytes
            var out: [[Int]] = []
            for (k, index) in list.enumerated() where tree.tokens[index].kind == .lineComment {
                let token = tree.tokens[index]
                var i = token.start + 2
                while i < token.end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
                guard token.end - i >= marker.count, bytes[i..<(i + marker.count)].elementsEqual(marker) else { continue }
                var s = token.start
                while s > 0 && (bytes[s - 1] == 0x20 || bytes[s - 1] == 0x09) { s -= 1 }
                let alone = s == source.lineStart(containing: token.start)
                let target = source.line(containing: token.start) + (alone ? 1 : 0)
                var words: [Int] = [k]
                if target < source.lineCount {
                    let range = source.lineRange(target)
                    var j = place(range.lowerBound)[0]
                    while j < list.count && tree.tokens[list[j]].start < range.upperBound {
                        if tree.tokens[list[j]].start >= range.lowerBound { words.append(j) }
                        j += 1
                    }
                }
                out.append(words)
            }
            return out
        }
    }
}
