/// A view of one node of a `SyntaxTree`.
public struct SyntaxNode: Sendable {
    public let tree: SyntaxTree
    public let index: Int

    public enum Element: Sendable {
        case node(SyntaxNode)
        /// A token index into `tree.tokens`.
        case token(Int)
    }

    var data: SyntaxTree.NodeData { tree.nodes[index] }
    public var kind: SyntaxKind { data.kind }
    public var tokenRange: Range<Int> { Int(data.tokenStart)..<Int(data.tokenEnd) }
    public var range: Range<Int> { tree.byteRange(tokens: Int(data.tokenStart), Int(data.tokenEnd)) }

    /// Child nodes, in order.
    public var childNodes: [SyntaxNode] {
        var result: [SyntaxNode] = []
        var child = index + 1
        let end = Int(data.subtreeEnd)
        while child < end {
            result.append(SyntaxNode(tree: tree, index: child))
            child = Int(tree.nodes[child].subtreeEnd)
        }
        return result
    }

    /// Calls `body` with each child node, in order, without building an array.
    public func forEachChild(_ body: (SyntaxNode) -> Void) {
        var child = index + 1
        let end = Int(tree.nodes[index].subtreeEnd)
        while child < end {
            body(SyntaxNode(tree: tree, index: child))
            child = Int(tree.nodes[child].subtreeEnd)
        }
    }

    /// Child nodes and the tokens directly owned by this node, interleaved in source order.
    public var children: [Element] {
        var result: [Element] = []
        var token = Int(data.tokenStart)
        for child in childNodes {
            let childStart = Int(child.data.tokenStart)
            while token < childStart { result.append(.token(token)); token += 1 }
            result.append(.node(child))
            token = max(token, Int(child.data.tokenEnd))
        }
        while token < Int(data.tokenEnd) { result.append(.token(token)); token += 1 }
        return result
    }

    /// Calls `body` with each non-trivia token directly owned by this node; stops when it
    /// returns false.
    public func forEachDirectToken(_ body: (Int) -> Bool) {
        var token = Int(data.tokenStart)
        let end = Int(data.tokenEnd)
        var child = index + 1
        let subtreeEnd = Int(data.subtreeEnd)
        while token < end {
            if child < subtreeEnd && Int(tree.nodes[child].tokenStart) <= token && tree.nodes[child].tokenEnd > tree.nodes[child].tokenStart {
                token = Int(tree.nodes[child].tokenEnd)
                child = Int(tree.nodes[child].subtreeEnd)
                continue
            }
            if child < subtreeEnd && Int(tree.nodes[child].tokenStart) <= token {
                child = Int(tree.nodes[child].subtreeEnd)  // an empty child node
                continue
            }
            if !tree.tokens[token].kind.isSkipped && !body(token) { return }
            token += 1
        }
    }

    /// The first non-trivia token directly owned by this node.
    public var firstDirectToken: Int? {
        var first: Int? = nil
        forEachDirectToken { first = $0; return false }
        return first
    }

    /// Indices of the non-trivia tokens directly owned by this node.
    public var directTokens: [Int] {
        var out: [Int] = []
        forEachDirectToken { out.append($0); return true }
        return out
    }

    /// The first direct token of a kind.
    public func firstToken(_ kind: TokenKind) -> Int? {
        var found: Int? = nil
        forEachDirectToken { token in
            if tree.tokens[token].kind == kind { found = token; return false }
            return true
        }
        return found
    }

    public func firstChild(_ kind: SyntaxKind) -> SyntaxNode? {
        var child = index + 1
        let end = Int(data.subtreeEnd)
        while child < end {
            if tree.nodes[child].kind == kind { return SyntaxNode(tree: tree, index: child) }
            child = Int(tree.nodes[child].subtreeEnd)
        }
        return nil
    }

    public var text: String { tree.source.text(range) }
}
