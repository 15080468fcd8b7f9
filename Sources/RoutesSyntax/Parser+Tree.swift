/// The flat lossless tree, built from the events the parse recorded.
extension Parser {
    func buildTree() -> SyntaxTree {
        var nodes: [SyntaxTree.NodeData] = []
        nodes.reserveCapacity(events.count / 3 + 1)
        var stack: [Int] = []
        var sigPos = 0
        var cursor: Int32 = 0  // token index just after the last consumed token
        for event in events {
            switch event {
            case .open(let k):
                stack.append(nodes.count)
                nodes.append(.init(kind: k, tokenStart: -1, tokenEnd: -1, subtreeEnd: -1))
            case .advance:
                let s = sig[sigPos]
                sigPos += 1
                var j = stack.count - 1
                while j >= 0 && nodes[stack[j]].tokenStart == -1 {
                    nodes[stack[j]].tokenStart = s
                    j -= 1
                }
                cursor = s + 1
            case .close:
                let idx = stack.removeLast()
                if nodes[idx].tokenStart == -1 {
                    // An empty node: it and its still-empty ancestors start here.
                    var j = stack.count
                    var k = idx
                    while true {
                        nodes[k].tokenStart = cursor
                        j -= 1
                        if j < 0 || nodes[stack[j]].tokenStart != -1 { break }
                        k = stack[j]
                    }
                }
                nodes[idx].tokenEnd = max(cursor, nodes[idx].tokenStart)
                nodes[idx].subtreeEnd = Int32(nodes.count)
            }
        }
        if !nodes.isEmpty {
            nodes[0].tokenStart = 0
            nodes[0].tokenEnd = Int32(tokens.count)
        }
        // An unexpected character inside a run the parser already reported is the same mistake.
        var kept = diagnostics
        if !garbage.isEmpty {
            // (Unknown tokens are unexpected characters, or invalid UTF-8, a mistake of its own.)
            let invalid = Set(source.invalidUTF8.map(\.lowerBound))
            let unexpected = Set(tokens.lazy.filter { $0.kind == .unknown && !invalid.contains($0.start) && !explained.contains($0.start) }.map(\.start))
            kept = diagnostics.filter { d in
                !(unexpected.contains(d.range.lowerBound) && garbage.contains { $0.contains(d.range.lowerBound) })
            }
        }
        let sorted = kept.enumerated().sorted {
            ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
        }.map(\.element)
        // Reserved at a bound from the events; kept with the tree for as long as the file is.
        nodes.dropUnusedCapacity()
        return SyntaxTree(source: source, tokens: tokens, nodes: nodes, diagnostics: sorted)
    }
}
