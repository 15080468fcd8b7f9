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
        // The top-level declaration whose tokens hold the edit.
        var old = -1
        root.forEachChild { c in
            guard old < 0 else { return }
            let r = c.range
            if r.lowerBound <= range.lowerBound && range.upperBound <= r.upperBound && !r.isEmpty { old = c.index }
        }
        guard old >= 0 else { return nil }
        let oldData = nodes[old]
        let oldRange = byteRange(tokens: Int(oldData.tokenStart), Int(oldData.tokenEnd))
        let delta = replacement.count - range.count
        let newRange = oldRange.lowerBound..<(oldRange.upperBound + delta)
        guard !newRange.isEmpty else { return nil }
        // The new text must hold the replacement where the edit was (the caller's edit and
        // this tree describe the same change; comparing the whole text would cost as much as
        // parsing it).
        guard newSource.bytes[range.lowerBound..<(range.lowerBound + replacement.count)].elementsEqual(replacement) else { return nil }

        // Parsed alone, the declaration's text is one declaration spanning all of it.
        let part = Parser.parse(SourceText(bytes: Array(newSource.bytes[newRange])), file: 0, maxDepth: Parser.defaultMaxDepth)
        let count = part.tokens.count - 1  // without its end of file
        guard part.diagnostics.isEmpty, count > 0, part.nodes.count >= 2 else { return nil }
        let decl = part.nodes[1]
        guard decl.kind.isDeclaration, decl.tokenStart == 0, Int(decl.tokenEnd) == count,
              Int(decl.subtreeEnd) == part.nodes.count else { return nil }
        // Nothing glues across its end: its last token and the token after it, lexed together,
        // stay those two tokens.
        let following = tokens[Int(oldData.tokenEnd)]
        if following.kind != .eof {
            let last = part.tokens[count - 1]
            let windowStart = newRange.lowerBound + last.start
            let window = SourceText(bytes: Array(newSource.bytes[windowStart..<(following.end + delta)]))
            let lexed = Lexer.tokenize(window).tokens
            guard lexed.count == 3, lexed[0].kind == last.kind, lexed[0].length == last.length,
                  lexed[1].kind == following.kind, lexed[1].length == following.length else { return nil }
        }

        // Splice: tokens before, the new declaration's, the rest shifted. Tokens and nodes
        // are plain values: copied and shifted in place, without a per-element append.
        let firstToken = Int(oldData.tokenStart)
        let oldTokenEnd = Int(oldData.tokenEnd)
        let tokenDelta = count - (oldTokenEnd - firstToken)
        let tokenTotal = tokens.count + tokenDelta
        let base = UInt32(newRange.lowerBound)
        let shift = UInt32(truncatingIfNeeded: delta)  // added with wrapping: offset + delta
        let newTokens = [Token](unsafeUninitializedCapacity: tokenTotal) { out, written in
            let o = out.baseAddress!
            tokens.withUnsafeBufferPointer { old in
                o.initialize(from: old.baseAddress!, count: firstToken)
                part.tokens.withUnsafeBufferPointer { p in
                    for i in 0..<count {
                        var t = p[i]
                        t.offset &+= base
                        (o + firstToken + i).initialize(to: t)
                    }
                }
                // Alone, the first token starts a line; in place it does what the old one did.
                o[firstToken].startsLine = old[firstToken].startsLine
                var w = firstToken + count
                for i in oldTokenEnd..<old.count {
                    var t = old[i]
                    t.offset &+= shift
                    (o + w).initialize(to: t)
                    w += 1
                }
            }
            written = tokenTotal
        }
        // Nodes: before, the new declaration's subtree, the rest renumbered.
        let oldSubtreeEnd = Int(oldData.subtreeEnd)
        let newSubtree = part.nodes.count - 1
        let nodeDelta = Int32(newSubtree - (oldSubtreeEnd - old))
        let nodeTotal = nodes.count + Int(nodeDelta)
        let td = Int32(firstToken)
        let nd = Int32(old - 1)
        let tdAfter = Int32(tokenDelta)
        var newNodes = [NodeData](unsafeUninitializedCapacity: nodeTotal) { out, written in
            let o = out.baseAddress!
            nodes.withUnsafeBufferPointer { oldNodes in
                o.initialize(from: oldNodes.baseAddress!, count: old)
                part.nodes.withUnsafeBufferPointer { p in
                    for i in 1..<p.count {
                        var n = p[i]
                        n.tokenStart &+= td
                        n.tokenEnd &+= td
                        n.subtreeEnd &+= nd
                        (o + old + i - 1).initialize(to: n)
                    }
                }
                var w = old + newSubtree
                for i in oldSubtreeEnd..<oldNodes.count {
                    var n = oldNodes[i]
                    n.tokenStart &+= tdAfter
                    n.tokenEnd &+= tdAfter
                    n.subtreeEnd &+= nodeDelta
                    (o + w).initialize(to: n)
                    w += 1
                }
            }
            written = nodeTotal
        }
        newNodes[0].tokenEnd = Int32(newTokens.count)
        newNodes[0].subtreeEnd = Int32(newNodes.count)
        let tree = SyntaxTree(source: newSource, tokens: newTokens, nodes: newNodes, diagnostics: [])
        return DeclarationEdit(tree: tree, shift: TriviaEdit(range: range, delta: delta, isWhitespace: true),
                               node: old, oldRange: oldRange)
    }
}

extension SyntaxKind {
    /// The kinds of top-level declarations.
    @inlinable public var isDeclaration: Bool {
        switch self {
        case .importDecl, .screenDecl, .dependencyDecl, .optionalDecl, .flagDecl, .builderDecl, .rootDecl: return true
        default: return false
        }
    }
}
