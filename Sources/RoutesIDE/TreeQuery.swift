import RoutesSyntax

/// Questions about one syntax tree around a byte offset, answered from the token stream and
/// the flat node array (so they work on half-written text, whatever the parser made of it).
/// Node indices are indices into `tree.nodes`.
struct TreeQuery {
    let tree: SyntaxTree

    init(_ tree: SyntaxTree) { self.tree = tree }

    var tokens: [Token] { tree.tokens }
    var source: SourceText { tree.source }

    func clamp(_ offset: Int) -> Int { max(0, min(offset, source.count)) }

    func kind(_ node: Int) -> SyntaxKind { tree.nodes[node].kind }

    /// The node indices from the file node (0) down to the innermost node whose token range
    /// holds token `t`.
    func ancestors(ofToken t: Int) -> [Int] {
        var path = [0]
        var i = 0
        let nodes = tree.nodes
        outer: while true {
            var j = i + 1
            let end = Int(nodes[i].subtreeEnd)
            while j < end {
                let n = nodes[j]
                if Int(n.tokenStart) <= t && t < Int(n.tokenEnd) {
                    path.append(j)
                    i = j
                    continue outer
                }
                if Int(n.tokenStart) > t { break }
                j = Int(n.subtreeEnd)
            }
            break
        }
        return path
    }

    /// Direct children of a node, in order.
    func children(_ node: Int) -> [Int] {
        var out: [Int] = []
        var j = node + 1
        let end = Int(tree.nodes[node].subtreeEnd)
        while j < end {
            out.append(j)
            j = Int(tree.nodes[j].subtreeEnd)
        }
        return out
    }

    /// The significant (non-skipped, non-eof) tokens directly owned by a node.
    func directTokens(_ node: Int) -> [Int] {
        let n = tree.nodes[node]
        var out: [Int] = []
        var t = Int(n.tokenStart)
        let end = Int(n.tokenEnd)
        var j = node + 1
        let subtreeEnd = Int(n.subtreeEnd)
        while t < end {
            if j < subtreeEnd && Int(tree.nodes[j].tokenStart) <= t {
                if tree.nodes[j].tokenEnd > tree.nodes[j].tokenStart { t = max(t, Int(tree.nodes[j].tokenEnd)) }
                j = Int(tree.nodes[j].subtreeEnd)
                continue
            }
            if !tokens[t].kind.isSkipped && tokens[t].kind != .eof { out.append(t) }
            t += 1
        }
        return out
    }

    /// The last significant token inside a node (at any depth), if any.
    func lastToken(_ node: Int) -> Int? {
        let n = tree.nodes[node]
        var t = Int(n.tokenEnd) - 1
        while t >= Int(n.tokenStart) {
            let k = tokens[t].kind
            if !k.isSkipped && k != .eof { return t }
            t -= 1
        }
        return nil
    }

    /// The first significant token inside a node, if any.
    func firstToken(_ node: Int) -> Int? {
        let n = tree.nodes[node]
        var t = Int(n.tokenStart)
        while t < Int(n.tokenEnd) {
            let k = tokens[t].kind
            if !k.isSkipped && k != .eof { return t }
            t += 1
        }
        return nil
    }

    /// The byte range a node covers.
    func range(_ node: Int) -> Range<Int> {
        tree.byteRange(tokens: Int(tree.nodes[node].tokenStart), Int(tree.nodes[node].tokenEnd))
    }

    /// The last significant token that ends at or before `offset`.
    func previousToken(before offset: Int) -> Int? {
        guard !tokens.isEmpty else { return nil }
        var j = tree.tokenIndex(at: offset)
        while j >= 0 {
            let t = tokens[j]
            if t.end <= offset && !t.kind.isSkipped && t.kind != .eof { return j }
            j -= 1
        }
        return nil
    }

    /// The token whose text holds `offset`, or ends there, that is a name-like token
    /// (identifier, keyword or string). Identifiers win over keywords and strings; the token
    /// right of the cursor wins a tie.
    func nameToken(at offset: Int) -> Int? {
        guard !tokens.isEmpty else { return nil }
        let i = tree.tokenIndex(at: offset)
        var candidates: [Int] = []
        if tokens[i].start <= offset && offset < tokens[i].end { candidates.append(i) }
        if tokens[i].start == offset && i > 0 && tokens[i - 1].end == offset { candidates.append(i - 1) }
        if tokens[i].end == offset && tokens[i].length > 0 { candidates.append(i) }
        if let id = candidates.first(where: { tokens[$0].kind == .identifier }) { return id }
        return candidates.first { tokens[$0].kind.isKeyword || tokens[$0].kind == .string }
    }

    /// True when `offset` lies inside a comment or a string literal (where an editor offers
    /// nothing): strictly inside a string, or after `//` up to the end of its line.
    func isInsideCommentOrString(_ offset: Int) -> Bool {
        guard !tokens.isEmpty else { return false }
        let i = tree.tokenIndex(at: offset)
        for j in [i - 1, i] where j >= 0 && j < tokens.count {
            let t = tokens[j]
            switch t.kind {
            case .lineComment, .docComment:
                if t.start < offset && offset <= t.end { return true }
            case .string:
                if t.start < offset && offset < t.end { return true }
                // An unterminated string runs to the end of its line.
                if offset == t.end && !isClosedString(t) { return true }
            default:
                break
            }
        }
        return false
    }

    /// True when a string token ends with its closing quote.
    private func isClosedString(_ t: Token) -> Bool {
        guard t.length >= 2, source.bytes[t.end - 1] == 0x22 else { return false }
        // Count the backslashes before the last quote: an odd number escapes it.
        var k = t.end - 2
        var slashes = 0
        while k > t.start && source.bytes[k] == 0x5C {
            slashes += 1
            k -= 1
        }
        return slashes % 2 == 0
    }

    /// True when a line break lies between the end of token `t` and `offset`.
    func lineBreak(after t: Int, before offset: Int) -> Bool {
        source.line(containing: tokens[t].end) != source.line(containing: offset)
    }

    /// For a block or an `anyOf` node: its closing `}` (a direct token), if written.
    func closingBrace(_ node: Int) -> Int? {
        directTokens(node).last { tokens[$0].kind == .rBrace }
    }

    /// For a block or an `anyOf` node: its opening `{`, if written.
    func openingBrace(_ node: Int) -> Int? {
        directTokens(node).first { tokens[$0].kind == .lBrace }
    }

    static let builderKinds: Set<SyntaxKind> = [
        .screenBuilder, .anyOfBuilder, .conditionalBuilder, .ifLetBuilder, .ifScreenBuilder,
        .wildcardBuilder, .emptyBuilder, .referenceBuilder,
    ]
}

extension TokenKind {
    /// Identifiers and keywords: what a cursor can be "in the middle of".
    var isWord: Bool { self == .identifier || isKeyword }
}
