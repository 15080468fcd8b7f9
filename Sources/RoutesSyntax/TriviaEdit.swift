/// An edit inside one comment or one run of whitespace: the cheapest change an editor sends
/// (typing a comment, re-indenting). It changes no token but that one, so everything built on
/// the tree stays as it was, only shifted (see ``SyntaxTree/applyingTriviaEdit(_:_:newSource:)``).
public struct TriviaEdit: Sendable, Hashable {
    /// The replaced byte range, in the old text.
    public var range: Range<Int>
    /// The new text's length minus the old: what positions at or after `range.upperBound` move by.
    public var delta: Int
    /// Whether the edited token is whitespace (which may move later tokens to other lines and
    /// columns) rather than a comment (after which nothing follows on its line).
    public var isWhitespace: Bool
    /// The edited token's index, when it is a `///` doc comment (the declaration after it
    /// has another doc).
    public var docCommentToken: Int?

    public init(range: Range<Int>, delta: Int, isWhitespace: Bool, docCommentToken: Int? = nil) {
        self.range = range
        self.delta = delta
        self.isWhitespace = isWhitespace
        self.docCommentToken = docCommentToken
    }

    /// Where an offset of the old text is in the new one. Offsets inside the replaced range
    /// belong to the edited trivia token only, which nothing but the tree refers to.
    @inlinable public func map(_ offset: Int) -> Int {
        offset >= range.upperBound ? offset + delta : offset
    }

    /// Where a range of the old text is in the new one (empty when the edit removed it).
    @inlinable public func map(_ oldRange: Range<Int>) -> Range<Int> {
        map(oldRange.lowerBound)..<max(map(oldRange.lowerBound), map(oldRange.upperBound))
    }
}

extension SyntaxTree {
    /// The tree of `newSource` — this tree's source with `range` replaced by `replacement` —
    /// when the edit lies inside one whitespace, line-comment or doc-comment token and keeps it one
    /// token of the same kind (a comment stays a comment, a doc comment a doc comment; whitespace
    /// keeps or lacks a line break as before), in a tree without errors (whose parse does not depend on layout).
    /// Then every other token is unchanged but shifted, and so is every node. Nil otherwise:
    /// the caller parses again.
    public func applyingTriviaEdit(_ range: Range<Int>, _ replacement: [UInt8], newSource: SourceText) -> (tree: SyntaxTree, edit: TriviaEdit)? {
        guard diagnostics.isEmpty, newSource.invalidUTF8.isEmpty, !tokens.isEmpty,
              range.lowerBound >= 0, range.upperBound <= source.count,
              newSource.count == source.count - range.count + replacement.count else { return nil }
        // The token holding the edit: it starts before the edit and ends at or after it. Or,
        // for an edit at the end of a code token, the whitespace right after it (a space typed
        // after a word): the new text of that whitespace must then lex as whitespace again,
        // which nothing before it can join (comments, which could, are trivia themselves).
        func isTrivia(_ kind: TokenKind) -> Bool { kind == .whitespace || kind == .lineComment || kind == .docComment }
        var edited = tokenIndex(at: max(0, range.lowerBound - 1))
        var atStart = false
        if !isTrivia(tokens[edited].kind), tokens[edited].end == range.lowerBound, edited + 1 < tokens.count,
           tokens[edited + 1].kind == .whitespace, tokens[edited + 1].start == range.lowerBound {
            edited += 1
            atStart = true
        }
        let old = tokens[edited]
        guard isTrivia(old.kind), old.start < range.lowerBound || atStart, range.upperBound <= old.end else { return nil }
        var text = Array(source.bytes[old.start..<range.lowerBound])
        text += replacement
        text += source.bytes[range.upperBound..<old.end]
        let lexed = Lexer.tokenize(SourceText(bytes: text)).tokens.filter { $0.kind != .eof }
        guard lexed.count == 1, lexed[0].kind == old.kind, lexed[0].length == text.count else { return nil }
        func hasLineBreak<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
            bytes.contains(0x0A) || bytes.contains(0x0D)
        }
        if old.kind == .whitespace && hasLineBreak(source.bytes[old.range]) != hasLineBreak(text) { return nil }
        // The bytes around the token must be what the new text has there (the caller's edit
        // and this tree describe the same change).
        let delta = replacement.count - range.count
        guard newSource.bytes[(old.start)..<(old.end + delta)].elementsEqual(text) else { return nil }

        var shifted = tokens
        shifted[edited].length = UInt32(text.count)
        if delta != 0 {
            for later in (edited + 1)..<shifted.count {
                shifted[later].offset = UInt32(Int(shifted[later].offset) + delta)
            }
        }
        // An insertion where the code token before ends: described as replacing the first
        // byte of the whitespace too, so that the token before keeps its end (``TriviaEdit/map(_:)``
        // moves every offset at or after the replaced range's end).
        let replaced = atStart && range.isEmpty ? range.lowerBound..<(range.lowerBound + 1) : range
        let edit = TriviaEdit(range: replaced, delta: delta, isWhitespace: old.kind == .whitespace,
                              docCommentToken: old.kind == .docComment ? edited : nil)
        return (SyntaxTree(source: newSource, tokens: shifted, nodes: nodes, diagnostics: []), edit)
    }
}
