/// An edit inside one top-level declaration (typing a type name, a screen name, a builder's
/// body) that leaves it one declaration without errors: only that declaration is lexed and
/// parsed again; every other token and node is kept, shifted (see
/// ``SyntaxTree/applyingDeclarationEdit(_:_:newSource:)``).
public struct DeclarationEdit: Sendable {
    /// The tree of the new text.
    public var tree: SyntaxTree
    /// Where positions of the old text are in the new one: `shift.range` is the replaced
    /// range, `shift.delta` the change in length. Exact outside the edited declaration; inside
    /// it, for what lies before the edit and for whole tokens after it.
    public var shift: TriviaEdit
    /// The declaration's node index, in the old tree and in the new one (the nodes before it
    /// are unchanged).
    public var node: Int
    /// The declaration's byte range in the old text.
    public var oldRange: Range<Int>
}

extension SyntaxTree {
    /// The tree of `newSource` — this tree's source with `range` replaced by `replacement` —
    /// when this tree has no errors, the edit lies inside one top-level declaration (its first
    /// token through its last), and the declaration's new text parses, on its own, as exactly
    /// one declaration without errors that lexes the same in its place. Nil otherwise: the
    /// caller parses again.
    ///
    /// Why the declaration can be parsed on its own: the parser starts every top-level
    /// declaration afresh (no open block, no recovery state), a declaration keyword starts it,
    /// and no declaration production reads on past its last token into the next declaration
    /// keyword or the end of the file (its optional parts start with `(`, `push`, `sheet`,
    /// `.`, `?`, `from` or `{`). `DeclarationEditTests` (1,200 random edits of the example
    /// apps) and the `fuzz-analysis` oracle check the result against a full parse.
    public func applyingDeclarationEdit(_ range: Range<Int>, _ replacement: [UInt8], newSource: SourceText) -> DeclarationEdit? {
        guard diagnostics.isEmpty, newSource.invalidUTF8.isEmpty, tokens.count > 1,
              range.lowerBound >= 0, range.upperBound <= source.count,
              newSource.count == source.count - range.count + replacement.count else { return nil }
        guard let old = declaration(holding: range) else { return nil }
        let oldData = nodes[old]
        let oldRange = byteRange(tokens: Int(oldData.tokenStart), Int(oldData.tokenEnd))
        let delta = replacement.count - range.count
        let newRange = oldRange.lowerBound..<(oldRange.upperBound + delta)
        guard !newRange.isEmpty else { return nil }
        // The new text must hold the replacement where the edit was (the caller's edit and
        // this tree describe the same change; comparing the whole text would cost as much as
        // parsing it).
        guard newSource.bytes[range.lowerBound..<(range.lowerBound + replacement.count)].elementsEqual(replacement) else { return nil }
        guard let part = Self.declarationAlone(newSource.bytes[newRange]),
              !gluesToNextToken(part, at: newRange.lowerBound, after: old, newSource: newSource, delta: delta) else { return nil }

        let newTokens = splicingTokens(of: part, over: old, at: newRange.lowerBound, delta: delta)
        var newNodes = splicingNodes(of: part, over: old)
        newNodes[0].tokenEnd = Int32(newTokens.count)
        newNodes[0].subtreeEnd = Int32(newNodes.count)
        let tree = SyntaxTree(source: newSource, tokens: newTokens, nodes: newNodes, diagnostics: [])
        return DeclarationEdit(tree: tree, shift: TriviaEdit(range: range, delta: delta, isWhitespace: true),
                               node: old, oldRange: oldRange)
    }

    /// The top-level declaration whose tokens hold `range` (its node index).
    func declaration(holding range: Range<Int>) -> Int? {
        var found: Int? = nil
        root.forEachChild { child in
            guard found == nil else { return }
            let childRange = child.range
            if childRange.lowerBound <= range.lowerBound && range.upperBound <= childRange.upperBound && !childRange.isEmpty {
                found = child.index
            }
        }
        return found
    }

    /// The tree of `text` parsed alone, when it is one declaration without errors spanning all
    /// of it.
    static func declarationAlone(_ text: ArraySlice<UInt8>) -> SyntaxTree? {
        let part = Parser.parse(SourceText(bytes: Array(text)), file: 0, maxDepth: Parser.defaultMaxDepth)
        let count = part.tokens.count - 1  // without its end of file
        guard part.diagnostics.isEmpty, count > 0, part.nodes.count >= 2 else { return nil }
        let declaration = part.nodes[1]
        guard declaration.kind.isDeclaration, declaration.tokenStart == 0, Int(declaration.tokenEnd) == count,
              Int(declaration.subtreeEnd) == part.nodes.count else { return nil }
        return part
    }

    /// Whether the last token of `part` (the new text of declaration `old`, at byte `start` of
    /// `newSource`) and the token after the declaration, lexed together, are not those two
    /// tokens.
    func gluesToNextToken(_ part: SyntaxTree, at start: Int, after old: Int, newSource: SourceText, delta: Int) -> Bool {
        let following = tokens[Int(nodes[old].tokenEnd)]
        guard following.kind != .eof else { return false }
        let last = part.tokens[part.tokens.count - 2]
        let windowStart = start + last.start
        let window = SourceText(bytes: Array(newSource.bytes[windowStart..<(following.end + delta)]))
        let lexed = Lexer.tokenize(window).tokens
        return !(lexed.count == 3 && lexed[0].kind == last.kind && lexed[0].length == last.length
                 && lexed[1].kind == following.kind && lexed[1].length == following.length)
    }

    /// The tokens before declaration `old`, the tokens of `part` (its new text, at byte `start`)
    /// and the tokens after it shifted by `delta`. Tokens are plain values: copied and shifted in
    /// place, without a per-element append.
    func splicingTokens(of part: SyntaxTree, over old: Int, at start: Int, delta: Int) -> [Token] {
        let firstToken = Int(nodes[old].tokenStart)
        let oldTokenEnd = Int(nodes[old].tokenEnd)
        let count = part.tokens.count - 1  // without its end of file
        let tokenTotal = tokens.count + count - (oldTokenEnd - firstToken)
        let base = UInt32(start)
        let shift = UInt32(truncatingIfNeeded: delta)  // added with wrapping: offset + delta
        return [Token](unsafeUninitializedCapacity: tokenTotal) { out, written in
            let destination = out.baseAddress!
            tokens.withUnsafeBufferPointer { oldTokens in
                destination.initialize(from: oldTokens.baseAddress!, count: firstToken)
                part.tokens.withUnsafeBufferPointer { partTokens in
                    for index in 0..<count {
                        var token = partTokens[index]
                        token.offset &+= base
                        (destination + firstToken + index).initialize(to: token)
                    }
                }
                // Alone, the first token starts a line; in place it does what the old one did.
                destination[firstToken].startsLine = oldTokens[firstToken].startsLine
                var next = firstToken + count
                for index in oldTokenEnd..<oldTokens.count {
                    var token = oldTokens[index]
                    token.offset &+= shift
                    (destination + next).initialize(to: token)
                    next += 1
                }
            }
            written = tokenTotal
        }
    }

    /// The nodes before declaration `old`, the subtree of `part`'s declaration, and the nodes
    /// after it renumbered (the file's node is left for the caller to fix).
    func splicingNodes(of part: SyntaxTree, over old: Int) -> [NodeData] {
        let oldData = nodes[old]
        let firstToken = Int32(oldData.tokenStart)
        let tokenDelta = Int32(part.tokens.count - 1) - (oldData.tokenEnd - oldData.tokenStart)
        let oldSubtreeEnd = Int(oldData.subtreeEnd)
        let newSubtree = part.nodes.count - 1
        let nodeDelta = Int32(newSubtree - (oldSubtreeEnd - old))
        let nodeTotal = nodes.count + Int(nodeDelta)
        let partNodeShift = Int32(old - 1)
        return [NodeData](unsafeUninitializedCapacity: nodeTotal) { out, written in
            let destination = out.baseAddress!
            nodes.withUnsafeBufferPointer { oldNodes in
                destination.initialize(from: oldNodes.baseAddress!, count: old)
                part.nodes.withUnsafeBufferPointer { partNodes in
                    for index in 1..<partNodes.count {
                        var node = partNodes[index]
                        node.tokenStart &+= firstToken
                        node.tokenEnd &+= firstToken
                        node.subtreeEnd &+= partNodeShift
                        (destination + old + index - 1).initialize(to: node)
                    }
                }
                var next = old + newSubtree
                for index in oldSubtreeEnd..<oldNodes.count {
                    var node = oldNodes[index]
                    node.tokenStart &+= tokenDelta
                    node.tokenEnd &+= tokenDelta
                    node.subtreeEnd &+= nodeDelta
                    (destination + next).initialize(to: node)
                    next += 1
                }
            }
            written = nodeTotal
        }
    }
}
