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
    /// What differs first: in words, and where in the original text (a byte offset).
    struct Difference {
        var what: String
        var offset: Int
    }

    /// nil when `after` reads as `before`; else what differs first.
    static func difference(_ before: SyntaxTree, _ after: SyntaxTree) -> Difference? {
        let wordsBefore = Words(before), wordsAfter = Words(after)
        if before.source.contentStart != after.source.contentStart { return Difference(what: "the byte-order mark", offset: 0) }
        return tokenDifference(wordsBefore, wordsAfter)
            ?? nodeDifference(wordsBefore, wordsAfter)
            ?? errorDifference(wordsBefore, wordsAfter)
            ?? suppressionDifference(wordsBefore, wordsAfter)
    }

    /// The first token or comment that differs (comments compared without trailing spaces).
    static func tokenDifference(_ wordsBefore: Words, _ wordsAfter: Words) -> Difference? {
        let before = wordsBefore.tree, after = wordsAfter.tree
        for word in 0..<min(wordsBefore.list.count, wordsAfter.list.count) {
            let tokenBefore = before.tokens[wordsBefore.list[word]], tokenAfter = after.tokens[wordsAfter.list[word]]
            guard tokenBefore.kind == tokenAfter.kind else {
                return Difference(what: "\(tokenBefore.kind.display) would be read as \(tokenAfter.kind.display)", offset: tokenBefore.start)
            }
            if tokenBefore.kind == .lineComment || tokenBefore.kind == .docComment {
                guard wordsBefore.trimmed(tokenBefore).elementsEqual(wordsAfter.trimmed(tokenAfter)) else {
                    return Difference(what: "a comment would change", offset: tokenBefore.start)
                }
            } else {
                guard before.source.bytes[tokenBefore.range].elementsEqual(after.source.bytes[tokenAfter.range]) else {
                    return Difference(what: "\(tokenBefore.kind.display) would change", offset: tokenBefore.start)
                }
            }
        }
        guard wordsBefore.list.count == wordsAfter.list.count else {
            let shorter = min(wordsBefore.list.count, wordsAfter.list.count)
            let offset = shorter < wordsBefore.list.count ? before.tokens[wordsBefore.list[shorter]].start : before.source.bytes.count
            return Difference(what: "the text would be read as \(wordsAfter.list.count) tokens and comments, not \(wordsBefore.list.count)", offset: offset)
        }
        return nil
    }

    /// The first syntax node that differs in kind, size or place among the words.
    static func nodeDifference(_ wordsBefore: Words, _ wordsAfter: Words) -> Difference? {
        let before = wordsBefore.tree, after = wordsAfter.tree
        for (nodeBefore, nodeAfter) in zip(before.nodes, after.nodes) {
            guard nodeBefore.kind == nodeAfter.kind, nodeBefore.subtreeEnd == nodeAfter.subtreeEnd,
                  wordsBefore.ordinal(Int(nodeBefore.tokenStart)) == wordsAfter.ordinal(Int(nodeAfter.tokenStart)),
                  wordsBefore.ordinal(Int(nodeBefore.tokenEnd)) == wordsAfter.ordinal(Int(nodeAfter.tokenEnd)) else {
                return Difference(what: "what starts here would be read otherwise", offset: wordsBefore.offset(ofToken: Int(nodeBefore.tokenStart)))
            }
        }
        guard before.nodes.count == after.nodes.count else {
            let offset = after.nodes.count < before.nodes.count
                ? wordsBefore.offset(ofToken: Int(before.nodes[after.nodes.count].tokenStart)) : before.source.bytes.count
            return Difference(what: "what starts here would be read otherwise", offset: offset)
        }
        return nil
    }

    /// The first syntax error that differs in rule, message (its numbers aside), place among
    /// the words, or related locations.
    static func errorDifference(_ wordsBefore: Words, _ wordsAfter: Words) -> Difference? {
        let before = wordsBefore.tree, after = wordsAfter.tree
        for (errorBefore, errorAfter) in zip(before.diagnostics, after.diagnostics) {
            guard errorBefore.rule == errorAfter.rule, withoutNumbers(errorBefore.message) == withoutNumbers(errorAfter.message),
                  wordsBefore.place(errorBefore.range.lowerBound) == wordsAfter.place(errorAfter.range.lowerBound),
                  wordsBefore.place(errorBefore.range.upperBound) == wordsAfter.place(errorAfter.range.upperBound),
                  errorBefore.related.count == errorAfter.related.count,
                  zip(errorBefore.related, errorAfter.related).allSatisfy({ withoutNumbers($0.message) == withoutNumbers($1.message)
                      && wordsBefore.place($0.range.lowerBound) == wordsAfter.place($1.range.lowerBound) }) else {
                return Difference(what: "the syntax error “\(errorBefore.message)” would change", offset: errorBefore.range.lowerBound)
            }
        }
        // The same errors as far as both go: the first one that one of them has more.
        if before.diagnostics.count > after.diagnostics.count {
            let extra = before.diagnostics[after.diagnostics.count]
            return Difference(what: "the syntax error “\(extra.message)” would go", offset: extra.range.lowerBound)
        }
        if after.diagnostics.count > before.diagnostics.count {
            // (Placed among the original's words as the new error is among the formatted text's.)
            let extra = after.diagnostics[before.diagnostics.count]
            let word = wordsAfter.place(extra.range.lowerBound)[0]
            let offset = word < wordsBefore.list.count ? before.tokens[wordsBefore.list[word]].start : before.source.bytes.count
            return Difference(what: "a syntax error would appear: “\(extra.message)”", offset: offset)
        }
        return nil
    }

    /// Whether a `// routes:ignore` comment applies to a line of other words.
    static func suppressionDifference(_ wordsBefore: Words, _ wordsAfter: Words) -> Difference? {
        let targetsBefore = wordsBefore.suppressionTargets(), targetsAfter = wordsAfter.suppressionTargets()
        guard targetsBefore != targetsAfter else { return nil }
        let index = (0..<min(targetsBefore.count, targetsAfter.count)).first { targetsBefore[$0] != targetsAfter[$0] } ?? min(targetsBefore.count, targetsAfter.count)
        let comment = index < targetsBefore.count ? targetsBefore[index][0] : nil
        let offset = comment.map { wordsBefore.tree.tokens[wordsBefore.list[$0]].start } ?? 0
        return Difference(what: "a `// routes:ignore` comment would apply to another line", offset: offset)
    }

    static func withoutNumbers(_ message: String) -> String { Diagnostic.withoutNumbers(message) }

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
            for (index, token) in tree.tokens.enumerated() {
                before.append(Int32(list.count))
                if token.kind != .whitespace && token.kind != .byteOrderMark && token.kind != .eof { list.append(index) }
            }
            before.append(Int32(list.count))
        }

        func ordinal(_ tokenIndex: Int) -> Int32 {
            before[max(0, min(tokenIndex, before.count - 1))]
        }

        /// Where the token at `tokenIndex` starts (the end of the text past the last).
        func offset(ofToken tokenIndex: Int) -> Int {
            tokenIndex < tree.tokens.count ? tree.tokens[tokenIndex].start : tree.source.bytes.count
        }

        func trimmed(_ token: Token) -> ArraySlice<UInt8> {
            tree.source.bytes[token.start..<tree.source.endWithoutTrailingSpaces(token.range)]
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
            let source = tree.source
            var out: [[Int]] = []
            for (comment, index) in list.enumerated() where tree.tokens[index].kind == .lineComment {
                guard let (target, _) = SuppressionMarker.targetLine(of: tree.tokens[index], in: source) else { continue }
                var words: [Int] = [comment]
                if target < source.lineCount {
                    let range = source.lineRange(target)
                    var word = place(range.lowerBound)[0]
                    while word < list.count && tree.tokens[list[word]].start < range.upperBound {
                        if tree.tokens[list[word]].start >= range.lowerBound { words.append(word) }
                        word += 1
                    }
                }
                out.append(words)
            }
            return out
        }
    }
}
