/// Where the formatter breaks lines (docs/formatting.md): the separator before each significant
/// token of the declarations it formats, found by a walk over their syntax nodes.
///
/// - Each top-level declaration starts a line, at column 0.
/// - A block `{ … }` (with `anyOf`'s and the two blocks of a `conditional`, `if let` or
///   `if screen` with its `else`, decided together) stays on one line when it was written on
///   one line, holds no comment, and the line fits in `Formatter.lineWidth` columns; otherwise
///   its builder (each `anyOf` branch) goes on lines of its own, indented one level more, and
///   its `}` on a line of its own. A screen's parameter list likewise: on one line, or one
///   parameter per line.
/// - Within a line, tokens are separated as Swift writes them: `screen Detail(id: String)`,
///   `uses a, b`, `[String: Int]`, `(Item) -> Void`, `any Store & Sendable`.
struct FormatEngine {
    enum SepKind: UInt8 {
        /// Glued to the previous token.
        case none
        /// One space after the previous token.
        case space
        /// On a new line, indented `indent` columns.
        case line
    }

    /// What comes before a significant token.
    struct Sep {
        var kind: SepKind = .space
        /// A blank line written before it (or before the comments above it) is kept.
        var blank = false
        /// The indentation of its line, for `.line`.
        var indent: Int32 = 0
        /// The indentation of a line a comment or a suppression forces it onto.
        var breakIndent: Int32 = 0
        /// The indentation of own-line comments just before it (inside a block before its `}`).
        var commentIndent: Int32 = 0
        /// A `// routes:ignore` comment needs it to start a line, or to stay on the line of the
        /// token before it (see `freezeSuppressedLines`).
        var mustBreak = false
        var noBreak = false
    }

    /// A top-level declaration (or a run of text the parser skipped, or an unknown character).
    struct Item {
        /// Token indices of its first and last non-trivia tokens.
        var first: Int
        var last: Int
        /// The node, when it is one.
        var node: Int?
        var erroneous: Bool
        /// Source lines of its first and last tokens.
        var firstLine: Int
        var lastLine: Int
        /// Index of the verbatim region holding it, if any.
        var region: Int?
    }

    /// Whole lines kept as written: the lines of declarations with syntax errors.
    struct Region {
        /// Bytes from the start of the first line to the end of the last (its line break excluded).
        var bytes: Range<Int>
        var firstLine: Int
        var lastLine: Int
    }

    let tree: SyntaxTree
    let source: SourceText
    let tokens: [Token]
    let nodes: [SyntaxTree.NodeData]
    var seps: [Sep]
    var items: [Item] = []
    var regions: [Region] = []
    /// Own-line suppression comments whose target line is blank: the blank line stays.
    var keepBlankAfter = Set<Int>()
    /// The previous significant token of the walk.
    var prev = -1
    let width = Formatter.lineWidth
    let step = Formatter.indentWidth

    init(_ tree: SyntaxTree) throws(FormatRefusal) {
        guard tree.source.invalidUTF8.isEmpty else {
            throw FormatRefusal(reason: .invalidUTF8, message: "the file is not valid UTF-8: routes fmt does not rewrite bytes it cannot read")
        }
        self.tree = tree
        source = tree.source
        tokens = tree.tokens
        nodes = tree.nodes
        seps = Array(repeating: Sep(), count: tokens.count)
        findItems()
        findRegions()
        for i in items.indices where items[i].region == nil {
            guard let n = items[i].node else { continue }
            prev = -1
            walk(n, line: 0, flat: false)
            seps[items[i].first] = Sep(kind: .line, blank: true, indent: 0, breakIndent: 0, commentIndent: 0)
        }
        freezeSuppressedLines()
    }

    // MARK: Items and regions

    @inline(__always) func isSignificant(_ t: Int) -> Bool {
        !tokens[t].kind.isTrivia && tokens[t].kind != .eof
    }

    mutating func findItems() {
        let root = tree.root
        let diagnostics = tree.diagnostics
        let hasErrors = !diagnostics.isEmpty || nodes.contains { $0.kind == .error } || tokens.contains { $0.kind == .unknown }
        var d = 0
        var t = root.tokenRange.lowerBound
        var child = 1
        let end = tree.nodes.isEmpty ? 0 : Int(tree.nodes[0].subtreeEnd)
        func add(_ first: Int, _ last: Int, node: Int?, erroneous: Bool) {
            let lo = tokens[first].start, hi = tokens[last].end
            var bad = erroneous
            // Diagnostics are sorted by start: skip those that end before this item.
            while d < diagnostics.count && diagnostics[d].range.upperBound < lo { d += 1 }
            var k = d
            while !bad && k < diagnostics.count && diagnostics[k].range.lowerBound <= hi {
                if diagnostics[k].range.upperBound >= lo { bad = true }
                k += 1
            }
            // (Lines matter only to the regions kept as written: a file with diagnostics.)
            let lines = hasErrors ? (source.line(containing: lo), source.line(containing: hi)) : (0, 0)
            items.append(Item(first: first, last: last, node: node, erroneous: bad,
                              firstLine: lines.0, lastLine: lines.1, region: nil))
        }
        while t < tokens.count {
            if child < end, Int(tree.nodes[child].tokenStart) <= t {
                let n = tree.nodes[child]
                var first = Int(n.tokenStart), last = Int(n.tokenEnd) - 1
                while first <= last && !isSignificant(first) { first += 1 }
                while last >= first && !isSignificant(last) { last -= 1 }
                if first <= last {
                    var bad = n.kind == .error
                    if !bad {
                        var j = child + 1
                        while j < Int(n.subtreeEnd) {
                            if tree.nodes[j].kind == .error { bad = true; break }
                            j += 1
                        }
                    }
                    add(first, last, node: child, erroneous: bad)
                }
                t = max(t, Int(n.tokenEnd))
                child = Int(n.subtreeEnd)
                continue
            }
            // A token of the file node itself: trivia, the end, or an unknown character.
            if tokens[t].kind == .unknown || (isSignificant(t)) {
                add(t, t, node: nil, erroneous: true)
            }
            t += 1
        }
        // A diagnostic outside every item (none is known): its lines are kept too.
        var covered = 0
        for diagnostic in diagnostics {
            let lo = diagnostic.range.lowerBound, hi = diagnostic.range.upperBound
            while covered < items.count && tokens[items[covered].last].end < lo { covered += 1 }
            let inside = covered < items.count && tokens[items[covered].first].start <= hi
            if !inside {
                let line = source.line(containing: lo)
                let t = tree.tokenIndex(at: lo)
                items.append(Item(first: t, last: t, node: nil, erroneous: true, firstLine: line,
                                  lastLine: source.line(containing: hi), region: nil))
            }
        }
        if items.count > 1 && !diagnostics.isEmpty {
            items.sort { ($0.firstLine, $0.first) < ($1.firstLine, $1.first) }
        }
    }

    /// Every erroneous item's lines, with every item that shares one of them, in one region.
    mutating func findRegions() {
        guard items.contains(where: \.erroneous) else { return }
        var i = 0
        while i < items.count {
            guard items[i].erroneous else { i += 1; continue }
            var lo = items[i].firstLine, hi = items[i].lastLine
            var a = i, b = i
            // Earlier items on these lines.
            while a > 0 && items[a - 1].lastLine >= lo {
                a -= 1
                lo = min(lo, items[a].firstLine)
            }
            // Later ones, and the lines they reach.
            while b + 1 < items.count && items[b + 1].firstLine <= hi {
                b += 1
                hi = max(hi, items[b].lastLine)
            }
            if let last = regions.last, last.lastLine >= lo {
                // Overlaps the region before: merge.
                let merged = Region(bytes: last.bytes.lowerBound..<lineEnd(max(hi, last.lastLine)),
                                    firstLine: last.firstLine, lastLine: max(hi, last.lastLine))
                regions[regions.count - 1] = merged
            } else {
                regions.append(Region(bytes: lineStart(lo)..<lineEnd(hi), firstLine: lo, lastLine: hi))
            }
            for k in a...b { items[k].region = regions.count - 1 }
            i = b + 1
        }
    }

    func lineStart(_ line: Int) -> Int { source.lineRange(line).lowerBound }
    func lineEnd(_ line: Int) -> Int { source.lineRange(line).upperBound }

    // MARK: Suppression comments

    /// A `// routes:ignore` comment suppresses diagnostics by line: at the end of a line, that
    /// line's; alone on a line, the next one's. The tokens of that line stay on one line, and
    /// no other token joins it; a blank target line stays blank.
    mutating func freezeSuppressedLines() {
        let marker = Array("routes:ignore".utf8)
        let bytes = source.bytes
        var sig: [Int]? = nil
        for (c, token) in tokens.enumerated() where token.kind == .lineComment {
            var i = token.start + 2
            while i < token.end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
            guard token.end - i >= marker.count, Array(bytes[i..<(i + marker.count)]) == marker else { continue }
            if sig == nil { sig = tokens.indices.filter(isSignificant) }
            let line = source.line(containing: token.start)
            var k = token.start
            while k > 0 && (bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09) { k -= 1 }
            let alone = k == source.lineStart(containing: token.start)
            let target = alone ? line + 1 : line
            guard target < source.lineCount else { continue }
            let range = source.lineRange(target)
            // The significant tokens starting on the target line.
            var lo = 0, hi = sig!.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if tokens[sig![mid]].start < range.lowerBound { lo = mid + 1 } else { hi = mid }
            }
            var j = lo
            while j < sig!.count && tokens[sig![j]].start < range.upperBound { j += 1 }
            if j == lo {
                // No token there: blank (or only a comment). A blank line stays.
                if alone, range.isEmpty || bytes[range].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { keepBlankAfter.insert(c) }
                continue
            }
            seps[sig![lo]].mustBreak = true
            for m in (lo + 1)..<j { seps[sig![m]].noBreak = true }
            if j < sig!.count { seps[sig![j]].mustBreak = true }
        }
    }

    // MARK: The walk

    /// An element of a node: a non-trivia token it owns, or a child node (indices).
    enum Element {
        case token(Int)
        case node(Int)
    }

    /// Calls `body` with the elements of node `n`, in order, without making an array (a
    /// static function, so that `body` may change the engine).
    @inline(__always)
    static func forEachElement(_ nodes: [SyntaxTree.NodeData], _ tokens: [Token], _ n: Int, _ body: (Element) -> Void) {
        var t = Int(nodes[n].tokenStart)
        var j = n + 1
        let end = Int(nodes[n].subtreeEnd), tokenEnd = Int(nodes[n].tokenEnd)
        while t < tokenEnd || j < end {
            if j < end && Int(nodes[j].tokenStart) <= t {
                body(.node(j))
                t = max(t, Int(nodes[j].tokenEnd))
                j = Int(nodes[j].subtreeEnd)
                continue
            }
            if t >= tokenEnd { break }
            let k = tokens[t].kind
            if !k.isTrivia && k != .eof { body(.token(t)) }
            t += 1
        }
    }

    @inline(__always) func kind(_ n: Int) -> SyntaxKind { nodes[n].kind }

    /// The first child node of `n` of a kind.
    func child(_ n: Int, _ k: SyntaxKind) -> Int? {
        var j = n + 1
        let end = Int(nodes[n].subtreeEnd)
        while j < end {
            if nodes[j].kind == k { return j }
            j = Int(nodes[j].subtreeEnd)
        }
        return nil
    }

    /// The first token of a kind that node `n` owns itself (not through a child).
    func directToken(_ n: Int, _ k: TokenKind) -> Int? {
        var found: Int? = nil
        var t = Int(nodes[n].tokenStart)
        var j = n + 1
        let end = Int(nodes[n].subtreeEnd), tokenEnd = Int(nodes[n].tokenEnd)
        while t < tokenEnd {
            if j < end && Int(nodes[j].tokenStart) <= t {
                t = max(t, Int(nodes[j].tokenEnd))
                j = Int(nodes[j].subtreeEnd)
                continue
            }
            if tokens[t].kind == k { found = t; break }
            t += 1
        }
        return found
    }

    /// The separator of token `t` inside a line, from the token before it.
    func inlineKind(_ t: Int) -> SepKind {
        guard prev >= 0 else { return .space }
        return Self.pairKind(tokens, prev, t, source.bytes)
    }

    /// How two tokens are separated on one line (Swift's spacing; see the type's comment).
    static func pairKind(_ tokens: [Token], _ p: Int, _ t: Int, _ bytes: [UInt8]) -> SepKind {
        let previous = tokens[p].kind, k = tokens[t].kind
        switch k {
        case .comma, .colon, .rParen, .rBracket, .rAngle, .question, .dot, .lAngle: return .none
        case .arrow, .ampersand, .lBrace, .rBrace: return .space
        default: break
        }
        switch previous {
        case .lParen, .lBracket, .lAngle, .dot: return .none
        case .comma, .colon, .arrow, .ampersand, .attribute: return .space
        default: break
        }
        if k == .lParen || k == .lBracket {
            // `Detail(`, `sheet(`, `throws(E)`; but `any (P & Q)`, `inout [Int]`.
            if previous == .kwSheet { return .none }
            if previous == .identifier {
                return k == .lBracket || isTypePrefix(tokens[p], bytes) ? .space : .none
            }
        }
        return .space
    }

    /// Words that prefix a type, written with a space before it.
    static let typePrefixes: [[UInt8]] = ["any", "some", "inout", "borrowing", "consuming", "sending"].map { Array($0.utf8) }

    static func isTypePrefix(_ token: Token, _ bytes: [UInt8]) -> Bool {
        typePrefixes.contains { $0.count == Int(token.length) && bytes[token.range].elementsEqual($0) }
    }

    mutating func inline(_ t: Int, line: Int) {
        let keep = seps[t]
        seps[t] = Sep(kind: inlineKind(t), blank: false, indent: Int32(line), breakIndent: Int32(line + step),
                      commentIndent: Int32(line + step), mustBreak: keep.mustBreak, noBreak: keep.noBreak)
        prev = t
    }

    mutating func setLine(_ t: Int, indent: Int, blank: Bool, commentIndent: Int? = nil) {
        seps[t].kind = .line
        seps[t].blank = blank
        seps[t].indent = Int32(indent)
        seps[t].breakIndent = Int32(indent)
        seps[t].commentIndent = Int32(commentIndent ?? indent)
    }

    /// The first significant token of node `n`.
    func firstToken(_ n: Int) -> Int? {
        var t = Int(nodes[n].tokenStart)
        let end = Int(nodes[n].tokenEnd)
        while t < end {
            if isSignificant(t) { return t }
            t += 1
        }
        return nil
    }

    func lastToken(_ n: Int) -> Int? {
        var t = Int(nodes[n].tokenEnd) - 1
        let start = Int(nodes[n].tokenStart)
        while t >= start {
            if isSignificant(t) { return t }
            t -= 1
        }
        return nil
    }

    /// Lays out node `n`, whose first token starts a line indented `line` (or is in a line
    /// that does); `flat`: everything on one line.
    mutating func walk(_ n: Int, line: Int, flat: Bool) {
        if flat {
            body(n, line: line, flat: true, blocks: (true, true))
            return
        }
        switch kind(n) {
        case .screenBuilder, .wildcardBuilder, .builderDecl, .rootDecl, .anyOfBuilder:
            body(n, line: line, flat: false, blocks: (decideBlock(n, line: line), false))
        case .conditionalBuilder, .ifLetBuilder, .ifScreenBuilder:
            body(n, line: line, flat: false, blocks: decideThenElse(n, line: line))
        case .screenDecl:
            body(n, line: line, flat: false, blocks: (decideParameters(n, line: line), false))
        default:
            body(n, line: line, flat: false, blocks: (false, false))
        }
    }

    /// Lays out the elements of node `n`: everything on one line when `flat`, else its blocks
    /// (in order: the block, or `anyOf`'s braces, or the parameter list; then the `else`
    /// block) each on one line or not as `blocks` says.
    mutating func body(_ n: Int, line: Int, flat: Bool, blocks: (Bool, Bool)) {
        var next = 0
        func take() -> Bool {
            defer { next += 1 }
            return flat || (next == 0 ? blocks.0 : next == 1 ? blocks.1 : false)
        }
        let nodeKind = kind(n)
        let anyOfFlat = nodeKind == .anyOfBuilder ? take() : flat
        var branch = 0
        Self.forEachElement(nodes, tokens, n) { e in
            switch e {
            case .token(let t):
                let k = tokens[t].kind
                inline(t, line: line)
                if nodeKind == .anyOfBuilder && k == .lBrace {
                    seps[t].breakIndent = Int32(line)
                } else if nodeKind == .anyOfBuilder && k == .rBrace {
                    if anyOfFlat {
                        seps[t].breakIndent = Int32(line)
                    } else {
                        setLine(t, indent: line, blank: false, commentIndent: line + step)
                    }
                } else if nodeKind == .elseClause && k == .kwElse {
                    seps[t].breakIndent = Int32(line)
                }
            case .node(let c):
                let childKind = kind(c)
                switch childKind {
                case .block:
                    block(c, line: line, flat: take())
                case .elseClause:
                    let f = take()
                    body(c, line: line, flat: flat, blocks: (f, false))
                case .parameterList:
                    parameters(c, line: line, flat: take())
                case _ where nodeKind == .anyOfBuilder && childKind.isBuilder:
                    if anyOfFlat {
                        walk(c, line: line, flat: true)
                    } else if let first = firstToken(c) {
                        walk(c, line: line + step, flat: false)
                        setLine(first, indent: line + step, blank: branch > 0)
                    }
                    branch += 1
                default:
                    walk(c, line: line, flat: flat)
                }
            }
        }
    }

    /// `{ builder }`.
    mutating func block(_ n: Int, line: Int, flat: Bool) {
        Self.forEachElement(nodes, tokens, n) { e in
            switch e {
            case .token(let t):
                inline(t, line: line)
                switch tokens[t].kind {
                case .lBrace:
                    seps[t].breakIndent = Int32(line)
                case .rBrace:
                    if flat {
                        seps[t].breakIndent = Int32(line)
                    } else {
                        setLine(t, indent: line, blank: false, commentIndent: line + step)
                    }
                default:
                    break
                }
            case .node(let c):
                if flat {
                    walk(c, line: line, flat: true)
                } else if let first = firstToken(c) {
                    walk(c, line: line + step, flat: false)
                    setLine(first, indent: line + step, blank: false)
                } else {
                    walk(c, line: line + step, flat: false)
                }
            }
        }
    }

    /// `(label: Type, …)`: on one line, or one parameter per line.
    mutating func parameters(_ n: Int, line: Int, flat: Bool) {
        let broken = !flat && child(n, .parameter) != nil
        Self.forEachElement(nodes, tokens, n) { e in
            switch e {
            case .token(let t):
                inline(t, line: line)
                if tokens[t].kind == .rParen {
                    if broken { setLine(t, indent: line, blank: false, commentIndent: line + step) } else { seps[t].breakIndent = Int32(line) }
                }
            case .node(let c):
                if broken, let first = firstToken(c) {
                    walk(c, line: line + step, flat: true)
                    setLine(first, indent: line + step, blank: false)
                } else {
                    walk(c, line: line, flat: true)
                }
            }
        }
    }

    // MARK: One line or several

    /// The `{` and `}` (or `(` and `)`) of a block node (or of `anyOf` or a parameter list).
    func braces(_ n: Int) -> (open: Int, close: Int)? {
        guard let open = directToken(n, .lBrace) ?? directToken(n, .lParen), let close = lastToken(n),
              tokens[close].kind == .rBrace || tokens[close].kind == .rParen else { return nil }
        return (open, close)
    }

    /// Whether tokens `from` through `b` were written on one line, without a comment: no line
    /// break before any significant token after `from` (a comment is followed by one). Stops
    /// at the first line break.
    func oneLine(from: Int, through b: Int) -> Bool {
        var t = from + 1
        while t <= b {
            let k = tokens[t].kind
            if k == .lineComment || k == .docComment { return false }
            if !k.isTrivia && tokens[t].startsLine { return false }
            t += 1
        }
        return true
    }

    /// Whether no comment lies between tokens `a` and `b`.
    func noComment(from a: Int, through b: Int) -> Bool {
        var t = a
        while t <= b {
            if tokens[t].kind == .lineComment || tokens[t].kind == .docComment { return false }
            t += 1
        }
        return true
    }

    /// The columns tokens `a` through `b` take on one line (the separators of a flat layout
    /// between them), counting from `column`; stops counting past the width.
    func flatColumns(from a: Int, through b: Int, column: Int) -> Int {
        var columns = column
        var previous = -1
        var t = a
        let bytes = source.bytes
        while t <= b {
            if isSignificant(t) {
                if previous >= 0 && Self.pairKind(tokens, previous, t, bytes) == .space { columns += 1 }
                columns += scalarCount(tokens[t])
                if columns > width { return columns }
                previous = t
            }
            t += 1
        }
        return columns
    }

    /// The block of a screen node, `wildcard`, `builder`, `root` or `anyOf`: on one line when
    /// written so (from the node's first token) and the whole node fits.
    func decideBlock(_ n: Int, line: Int) -> Bool {
        guard let first = firstToken(n) else { return true }
        let pair = kind(n) == .anyOfBuilder ? braces(n) : child(n, .block).flatMap(braces)
        guard let (open, close) = pair else { return true }
        // (The width first: it stops after 100 columns, so no decision reads a long line.)
        return flatColumns(from: first, through: close, column: line) <= width
            && oneLine(from: open, through: close) && noComment(from: first, through: open)
    }

    /// The two blocks of a `conditional`, `if let` or `if screen` (the second false without
    /// `else`). Both on one line when both were written so and the line fits. When only the
    /// first was, it stays so if `… { A } else {` fits. Otherwise the first breaks, and the
    /// second stays on one line (`} else { B }`) when it was written so and fits.
    func decideThenElse(_ n: Int, line: Int) -> (Bool, Bool) {
        guard let first = firstToken(n), let (thenOpen, thenClose) = child(n, .block).flatMap(braces) else { return (true, true) }
        var otherwise: (open: Int, close: Int)? = nil
        if let clause = child(n, .elseClause), let pair = child(clause, .block).flatMap(braces) {
            otherwise = pair
        }
        // (Each block's line is read only when its width is within the limit: no decision
        // reads a long line.)
        let thenFits = flatColumns(from: first, through: thenClose, column: line) <= width
        let thenOneLine = thenFits && oneLine(from: thenOpen, through: thenClose) && noComment(from: first, through: thenOpen)
        guard let otherwise else { return (thenOneLine, false) }
        let elseFits = flatColumns(from: thenClose, through: otherwise.close, column: line) <= width
        let elseOneLine = elseFits && oneLine(from: otherwise.open, through: otherwise.close)
            && noComment(from: thenClose, through: otherwise.open)
        if thenOneLine && elseOneLine && flatColumns(from: first, through: otherwise.close, column: line) <= width {
            return (true, true)
        }
        if thenOneLine {
            // Was the second block written on several lines? (Read only now: a long block on
            // one line is read to its end.)
            let elseWritten = elseFits ? elseOneLine
                : oneLine(from: otherwise.open, through: otherwise.close) && noComment(from: thenClose, through: otherwise.open)
            if !elseWritten && flatColumns(from: first, through: otherwise.open, column: line) <= width {
                return (true, false)
            }
        }
        return (false, elseOneLine)
    }

    /// A screen declaration's parameter list: on one line when written so and the whole
    /// declaration fits.
    func decideParameters(_ n: Int, line: Int) -> Bool {
        guard let first = firstToken(n), let last = lastToken(n),
              let list = child(n, .parameterList), let (open, close) = braces(list) else { return true }
        return flatColumns(from: first, through: last, column: line) <= width
            && oneLine(from: open, through: close) && noComment(from: first, through: last)
    }

    /// The width of a token in Unicode scalars.
    func scalarCount(_ token: Token) -> Int {
        if token.kind != .string { return Int(token.length) }
        var n = 0
        for i in token.range where source.bytes[i] & 0xC0 != 0x80 { n += 1 }
        return n
    }
}
