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
        var j = index + 1
        let end = Int(data.subtreeEnd)
        while j < end {
            result.append(SyntaxNode(tree: tree, index: j))
            j = Int(tree.nodes[j].subtreeEnd)
        }
        return result
    }

    /// Calls `body` with each child node, in order, without building an array.
    public func forEachChild(_ body: (SyntaxNode) -> Void) {
        var j = index + 1
        let end = Int(tree.nodes[index].subtreeEnd)
        while j < end {
            body(SyntaxNode(tree: tree, index: j))
            j = Int(tree.nodes[j].subtreeEnd)
        }
    }

    /// Child nodes and the tokens directly owned by this node, interleaved in source order.
    public var children: [Element] {
        var result: [Element] = []
        var t = Int(data.tokenStart)
        for child in childNodes {
            let cs = Int(child.data.tokenStart)
            while t < cs { result.append(.token(t)); t += 1 }
            result.append(.node(child))
            t = max(t, Int(child.data.tokenEnd))
        }
        while t < Int(data.tokenEnd) { result.append(.token(t)); t += 1 }
        return result
    }

    /// Calls `body` with each non-trivia token directly owned by this node; stops when it
    /// returns false.
    public func forEachDirectToken(_ body: (Int) -> Bool) {
        var t = Int(data.tokenStart)
        let end = Int(data.tokenEnd)
        var j = index + 1
        let subtreeEnd = Int(data.subtreeEnd)
        while t < end {
            if j < subtreeEnd && Int(tree.nodes[j].tokenStart) <= t && tree.nodes[j].tokenEnd > tree.nodes[j].tokenStart {
                t = Int(tree.nodes[j].tokenEnd)
                j = Int(tree.nodes[j].subtreeEnd)
                continue
            }
            if j < subtreeEnd && Int(tree.nodes[j].tokenStart) <= t {
                j = Int(tree.nodes[j].subtreeEnd)  // an empty child node
                continue
            }
            if !tree.tokens[t].kind.isSkipped && !body(t) { return }
            t += 1
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
        forEachDirectToken { t in
            if tree.tokens[t].kind == kind { found = t; return false }
            return true
        }
        return found
    }

    public func firstChild(_ kind: SyntaxKind) -> SyntaxNode? {
        var j = index + 1
        let end = Int(data.subtreeEnd)
        while j < end {
            if tree.nodes[j].kind == kind { return SyntaxNode(tree: tree, index: j) }
            j = Int(tree.nodes[j].subtreeEnd)
        }
        return nil
    }

    public var text: String { tree.source.text(range) }
}
