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
        var current = 0
        let nodes = tree.nodes
        outer: while true {
            var child = current + 1
            let end = Int(nodes[current].subtreeEnd)
            while child < end {
                let childNode = nodes[child]
                if Int(childNode.tokenStart) <= t && t < Int(childNode.tokenEnd) {
                    path.append(child)
                    current = child
                    continue outer
                }
                if Int(childNode.tokenStart) > t { break }
                child = Int(childNode.subtreeEnd)
            }
            break
        }
        return path
    }

    /// Direct children of a node, in order.
    func children(_ node: Int) -> [Int] {
        var out: [Int] = []
        var child = node + 1
        let end = Int(tree.nodes[node].subtreeEnd)
        while child < end {
            out.append(child)
            child = Int(tree.nodes[child].subtreeEnd)
        }
        return out
    }

    /// The significant (non-skipped, non-eof) tokens directly owned by a node.
    func directTokens(_ node: Int) -> [Int] {
        let record = tree.nodes[node]
        var out: [Int] = []
        var token = Int(record.tokenStart)
        let end = Int(record.tokenEnd)
        var child = node + 1
        let subtreeEnd = Int(record.subtreeEnd)
        while token < end {
            if child < subtreeEnd && Int(tree.nodes[child].tokenStart) <= token {
                if tree.nodes[child].tokenEnd > tree.nodes[child].tokenStart { token = max(token, Int(tree.nodes[child].tokenEnd)) }
                child = Int(tree.nodes[child].subtreeEnd)
                continue
            }
            if !tokens[token].kind.isSkipped && tokens[token].kind != .eof { out.append(token) }
            token += 1
        }
        return out
    }

    /// The last significant token inside a node (at any depth), if any.
    func lastToken(_ node: Int) -> Int? {
        let record = tree.nodes[node]
        var token = Int(record.tokenEnd) - 1
        while token >= Int(record.tokenStart) {
            let kind = tokens[token].kind
            if !kind.isSkipped && kind != .eof { return token }
            token -= 1
        }
        return nil
    }

    /// The first significant token inside a node, if any.
    func firstToken(_ node: Int) -> Int? {
        let record = tree.nodes[node]
        var token = Int(record.tokenStart)
        while token < Int(record.tokenEnd) {
            let kind = tokens[token].kind
            if !kind.isSkipped && kind != .eof { return token }
            token += 1
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
        var index = tree.tokenIndex(at: offset)
        while index >= 0 {
            let token = tokens[index]
            if token.end <= offset && !token.kind.isSkipped && token.kind != .eof { return index }
            index -= 1
        }
        return nil
    }

    /// The token whose text holds `offset`, or ends there, that is a name-like token
    /// (identifier, keyword or string). Identifiers win over keywords and strings; the token
    /// right of the cursor wins a tie.
    func nameToken(at offset: Int) -> Int? {
        guard !tokens.isEmpty else { return nil }
        let index = tree.tokenIndex(at: offset)
        var candidates: [Int] = []
        if tokens[index].start <= offset && offset < tokens[index].end { candidates.append(index) }
        if tokens[index].start == offset && index > 0 && tokens[index - 1].end == offset { candidates.append(index - 1) }
        if tokens[index].end == offset && tokens[index].length > 0 { candidates.append(index) }
        if let id = candidates.first(where: { tokens[$0].kind == .identifier }) { return id }
        return candidates.first { tokens[$0].kind.isKeyword || tokens[$0].kind == .string }
    }

    /// True when `offset` lies inside a comment or a string literal (where an editor offers
    /// nothing): strictly inside a string, or after `//` up to the end of its line.
    func isInsideCommentOrString(_ offset: Int) -> Bool {
        guard !tokens.isEmpty else { return false }
        let index = tree.tokenIndex(at: offset)
        for candidate in [index - 1, index] where candidate >= 0 && candidate < tokens.count {
            let token = tokens[candidate]
            switch token.kind {
            case .lineComment, .docComment:
                if token.start < offset && offset <= token.end { return true }
            case .string:
                if token.start < offset && offset < token.end { return true }
                // An unterminated string runs to the end of its line.
                if offset == token.end && !isClosedString(token) { return true }
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
        var cursor = t.end - 2
        var slashes = 0
        while cursor > t.start && source.bytes[cursor] == 0x5C {
            slashes += 1
            cursor -= 1
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
