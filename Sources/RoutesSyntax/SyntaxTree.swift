/// A lossless syntax tree: every token of the source, trivia and errors included, lies in
/// exactly one node, so the concatenated token texts give back the source byte for byte.
///
/// Stored flat for speed: nodes in pre-order, each covering a contiguous token range. A
/// token belongs to the innermost node whose range covers it. A class, so that node views
/// share it without copying its arrays.
public final class SyntaxTree: Sendable {
    public struct NodeData: Sendable, Hashable {
        public var kind: SyntaxKind
        /// First token index (inclusive) and last (exclusive).
        public var tokenStart: Int32
        public var tokenEnd: Int32
        /// Index, in `nodes`, just after this node's last descendant.
        public var subtreeEnd: Int32
    }

    public let source: SourceText
    public let tokens: [Token]
    public let nodes: [NodeData]
    /// Lexical and syntax errors, in source order.
    public let diagnostics: [Diagnostic]
    /// The parts of each `linkLine` token, as the lexer read them (see
    /// `LinkLine.replay(_:from:lineStart:_:)`): empty but in a tree parsed with
    /// `readingLinkLines` that has such tokens.
    public let linkLineParts: [Int32]

    init(source: SourceText, tokens: [Token], nodes: [NodeData], diagnostics: [Diagnostic], linkLineParts: [Int32] = []) {
        self.source = source
        self.tokens = tokens
        self.nodes = nodes
        self.diagnostics = diagnostics
        self.linkLineParts = linkLineParts
    }

    /// The same tree with its tokens and nodes in storage of their own size (they are reserved
    /// at upper bounds while they are made): for a tree kept as long as its file is.
    func inExactStorage() -> SyntaxTree {
        var tokens = self.tokens, nodes = self.nodes
        tokens.dropUnusedCapacity()
        nodes.dropUnusedCapacity()
        return SyntaxTree(source: source, tokens: tokens, nodes: nodes, diagnostics: diagnostics, linkLineParts: linkLineParts)
    }

    /// The same file without its tokens and nodes: its text and its errors, for a caller that
    /// needs the syntax only to lower the file (`routes lint`). ``tokens(coveringLinesOf:)``
    /// lexes a part of it again when needed.
    public func droppingTokens() -> SyntaxTree {
        SyntaxTree(source: source, tokens: [], nodes: [], diagnostics: diagnostics)
    }

    /// The same file with its errors only: no tokens, no nodes, and an empty text, for a
    /// caller that can read the text again when it is asked for (`routes lint`, see `Project`).
    public func droppingText() -> SyntaxTree {
        SyntaxTree(source: SourceText(bytes: []), tokens: [], nodes: [], diagnostics: diagnostics)
    }

    /// Whether the tree holds its tokens and nodes (see ``droppingTokens()``; a parsed tree
    /// always has at least its end-of-file token).
    public var hasTokens: Bool { !tokens.isEmpty }

    /// The tokens that overlap `range`, in order, with their offsets in the file (and maybe
    /// others of the lines it touches): the tree's own, or, when the tree dropped them, those
    /// of the lines `range` touches, lexed again from the start of the first. Lexing from a
    /// line start gives the same tokens as the whole file does there, since no token but
    /// whitespace spans a line break (whitespace may be split differently, and is trivia).
    public func tokens(coveringLinesOf range: Range<Int>) -> ArraySlice<Token> {
        guard !range.isEmpty else { return [] }
        if hasTokens {
            // The tree's own, without a copy (messages quote heads at every analysis).
            let first = tokenIndex(at: range.lowerBound)
            var end = first
            while end < tokens.count, tokens[end].start < range.upperBound { end += 1 }
            return tokens[first..<end]
        }
        return Self.tokens(of: source, coveringLinesOf: range)
    }

    /// The tokens of the lines `range` touches in `source`, lexed from the start of the first
    /// (see ``tokens(coveringLinesOf:)``).
    public static func tokens(of source: SourceText, coveringLinesOf range: Range<Int>) -> ArraySlice<Token> {
        guard !range.isEmpty, range.lowerBound < source.count else { return [] }
        let start = source.lineStart(containing: range.lowerBound)
        let end = source.lineRange(source.line(containing: max(range.lowerBound, range.upperBound - 1))).upperBound
        guard start < end else { return [] }
        let lexed = Lexer.tokenize(SourceText(part: start..<end, of: source)).tokens
        return ArraySlice(lexed.compactMap { token in
            guard token.kind != .eof else { return nil }
            var moved = token
            moved.offset += UInt32(truncatingIfNeeded: start)
            return moved
        })
    }

    /// Parses a text.
    public static func parse(_ source: SourceText, file: FileID = 0, maxDepth: Int = Parser.defaultMaxDepth) -> SyntaxTree {
        Parser.parse(source, file: file, maxDepth: maxDepth)
    }

    /// Parses a text for a caller that lowers the tree and then lets it go (`routes lint`):
    /// with `readingLinkLines`, each `link` declaration written on one line in the plain form
    /// (`LinkLine`) is one `linkLine` token in one `linkDecl` node, which the model reads
    /// again from the bytes. Its errors are those of ``parse(_:file:maxDepth:)``, and so is
    /// everything lowered from it; but the tree is not the lossless one, for no editor, the
    /// formatter, or anything that walks its tokens.
    public static func parse(_ source: SourceText, file: FileID = 0, maxDepth: Int = Parser.defaultMaxDepth,
                             readingLinkLines: Bool) -> SyntaxTree {
        Parser.parse(source, file: file, maxDepth: maxDepth, readingLinkLines: readingLinkLines)
    }

    public var root: SyntaxNode { SyntaxNode(tree: self, index: 0) }

    /// The view of node `index` (an index into `nodes`).
    public func node(_ index: Int) -> SyntaxNode { SyntaxNode(tree: self, index: index) }

    public func text(of token: Token) -> String { source.text(token.range) }

    /// The byte range covered by tokens `start..<end`; for no tokens, the empty range where
    /// token `start` begins.
    public func byteRange(tokens start: Int, _ end: Int) -> Range<Int> {
        if start >= end {
            let at = start < tokens.count ? tokens[start].start : source.count
            return at..<at
        }
        return tokens[start].start..<tokens[end - 1].end
    }

    /// The source rebuilt from the tree's tokens: equal to `source.bytes` (a test checks it).
    public func reconstructedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        for token in tokens { out.append(contentsOf: source.bytes[token.range]) }
        return out
    }

    /// The token index whose range contains `offset`, or the one starting there.
    public func tokenIndex(at offset: Int) -> Int {
        var lo = 0
        var hi = tokens.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if tokens[mid].start <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// An indented outline of the tree, for tests and debugging.
    public func debugDump() -> String {
        var out = ""
        func dump(_ node: SyntaxNode, _ depth: Int) {
            out += String(repeating: "  ", count: depth) + "\(node.kind) \(node.range)\n"
            for child in node.children {
                switch child {
                case .node(let childNode): dump(childNode, depth + 1)
                case .token(let index):
                    let token = tokens[index]
                    if token.kind == .whitespace { continue }
                    out += String(repeating: "  ", count: depth + 1) + "\(token.kind) \(text(of: token).debugDescription)\n"
                }
            }
        }
        dump(root, 0)
        return out
    }
}

extension SyntaxTree {
    /// The same tree for a file with another id (its diagnostics name the file): for a tree
    /// kept from an earlier project in which the file had another id.
    public func withFileID(_ id: FileID) -> SyntaxTree {
        guard diagnostics.contains(where: { $0.file != id || $0.related.contains { $0.file != id } }) else { return self }
        return SyntaxTree(source: source, tokens: tokens, nodes: nodes, diagnostics: diagnostics.map { $0.inFile(id) })
    }
}
