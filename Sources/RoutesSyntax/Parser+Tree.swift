/// The flat lossless tree, built from the events the parse recorded.
extension Parser {
    func buildTree() -> SyntaxTree {
        SyntaxTree(source: source, tokens: tokens, nodes: nodesFromEvents(), diagnostics: keptDiagnostics())
    }

    /// The nodes in pre-order, each with its token range: a node starts at the first token
    /// consumed inside it (an empty one where the next token would be), and the file's node
    /// covers every token.
    func nodesFromEvents() -> [SyntaxTree.NodeData] {
        var nodes: [SyntaxTree.NodeData] = []
        nodes.reserveCapacity(events.count / 3 + 1)
        var openNodes: [Int] = []
        var nextSignificant = 0
        var cursor: Int32 = 0  // token index just after the last consumed token
        for event in events {
            switch event {
            case .open(let kind):
                openNodes.append(nodes.count)
                nodes.append(.init(kind: kind, tokenStart: -1, tokenEnd: -1, subtreeEnd: -1))
            case .advance:
                let token = significant[nextSignificant]
                nextSignificant += 1
                var level = openNodes.count - 1
                while level >= 0 && nodes[openNodes[level]].tokenStart == -1 {
                    nodes[openNodes[level]].tokenStart = token
                    level -= 1
                }
                cursor = token + 1
            case .close:
                let closed = openNodes.removeLast()
                if nodes[closed].tokenStart == -1 {
                    // An empty node: it and its still-empty ancestors start here.
                    var level = openNodes.count
                    var node = closed
                    while true {
                        nodes[node].tokenStart = cursor
                        level -= 1
                        if level < 0 || nodes[openNodes[level]].tokenStart != -1 { break }
                        node = openNodes[level]
                    }
                }
                nodes[closed].tokenEnd = max(cursor, nodes[closed].tokenStart)
                nodes[closed].subtreeEnd = Int32(nodes.count)
            }
        }
        if !nodes.isEmpty {
            nodes[0].tokenStart = 0
            nodes[0].tokenEnd = Int32(tokens.count)
        }
        return nodes
    }

    /// The lexical and syntax errors in source order (in the order found, at one place). An
    /// unexpected character inside a run the parser already reported is the same mistake, and
    /// is left out.
    func keptDiagnostics() -> [Diagnostic] {
        var kept = diagnostics
        if !garbage.isEmpty {
            // (Unknown tokens are unexpected characters, or invalid UTF-8, a mistake of its own.)
            let invalid = Set(source.invalidUTF8.map(\.lowerBound))
            let unexpected = Set(tokens.lazy.filter { $0.kind == .unknown && !invalid.contains($0.start) && !explained.contains($0.start) }.map(\.start))
            kept = diagnostics.filter { diagnostic in
                !(unexpected.contains(diagnostic.range.lowerBound) && garbage.contains { $0.contains(diagnostic.range.lowerBound) })
            }
        }
        return kept.enumerated().sorted {
            ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
        }.map(\.element)
    }
}
