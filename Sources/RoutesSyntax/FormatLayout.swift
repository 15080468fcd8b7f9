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
        seps = Array(repeating: Sep(), count: tokens.count)
        findItems()
        findRegions()
        for i in items.indices where items[i].region == nil {
            guard let n = items[i].node else { continue }
            prev = -1
            walk(tree.node(n), line: 0, flat: false)
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
            items.append(Item(first: first, last: last, node: node, erroneous: bad,
                              firstLine: source.line(containing: lo), lastLine: source.line(containing: hi), region: nil))
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

    /// The elements of a node: its non-trivia tokens and child nodes, in order.
    enum Element {
        case token(Int)
        case node(SyntaxNode)
    }

    func elements(_ node: SyntaxNode) -> [Element] {
        var out: [Element] = []
        var t = node.tokenRange.lowerBound
        var j = node.index + 1
        let end = Int(tree.nodes[node.index].subtreeEnd)
        while t < node.tokenRange.upperBound || j < end {
            if j < end, Int(tree.nodes[j].tokenStart) <= t {
                out.append(.node(tree.node(j)))
                t = max(t, Int(tree.nodes[j].tokenEnd))
                j = Int(tree.nodes[j].subtreeEnd)
                continue
            }
            if t >= node.tokenRange.upperBound { break }
            if isSignificant(t) { out.append(.token(t)) }
            t += 1
        }
        return out
    }

    /// The separator of token `t` inside a line, from the token before it.
    func inlineKind(_ t: Int) -> SepKind {
        guard prev >= 0 else { return .space }
        return Self.pairKind(tokens, prev, t, text: { tree.text(of: tokens[$0]) })
    }

    /// How two tokens are separated on one line (Swift's spacing; see the type's comment).
    static func pairKind(_ tokens: [Token], _ p: Int, _ t: Int, text: (Int) -> String) -> SepKind {
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
                return k == .lBracket || typePrefixes.contains(text(p)) ? .space : .none
            }
        }
        return .space
    }

    /// Words that prefix a type, written with a space before it.
    static let typePrefixes: Set<String> = ["any", "some", "inout", "borrowing", "consuming", "sending"]

    mutating func inline(_ t: Int, line: Int) {
        if t < seps.count {
            let keep = seps[t]
            seps[t] = Sep(kind: inlineKind(t), blank: false, indent: Int32(line), breakIndent: Int32(line + step),
                          commentIndent: Int32(line + step), mustBreak: keep.mustBreak, noBreak: keep.noBreak)
        }
        prev = t
    }

    mutating func setLine(_ t: Int, indent: Int, blank: Bool, commentIndent: Int? = nil) {
        seps[t].kind = .line
        seps[t].blank = blank
        seps[t].indent = Int32(indent)
        seps[t].breakIndent = Int32(indent)
        seps[t].commentIndent = Int32(commentIndent ?? indent)
    }

    /// The first significant token of a node.
    func firstToken(_ node: SyntaxNode) -> Int? {
        var t = node.tokenRange.lowerBound
        while t < node.tokenRange.upperBound {
            if isSignificant(t) { return t }
            t += 1
        }
        return nil
    }

    func lastToken(_ node: SyntaxNode) -> Int? {
        var t = node.tokenRange.upperBound - 1
        while t >= node.tokenRange.lowerBound {
            if isSignificant(t) { return t }
            t -= 1
        }
        return nil
    }

    /// Lays out a node whose first token starts at indentation `line` (or is in a line that
    /// does); `flat`: everything on one line.
    mutating func walk(_ node: SyntaxNode, line: Int, flat: Bool) {
        if flat {
            body(node, line: line, flat: true, blocks: [])
            return
        }
        switch node.kind {
        case .screenBuilder, .wildcardBuilder, .builderDecl, .rootDecl, .anyOfBuilder:
            body(node, line: line, flat: false, blocks: [decideBlock(node, line: line)])
        case .conditionalBuilder, .ifLetBuilder, .ifScreenBuilder:
            let (then, otherwise) = decideThenElse(node, line: line)
            body(node, line: line, flat: false, blocks: [then, otherwise])
        case .screenDecl:
            body(node, line: line, flat: false, blocks: [decideParameters(node, line: line)])
        default:
            body(node, line: line, flat: false, blocks: [])
        }
    }

    /// Lays out the elements of a node: everything on one line when `flat`, else its blocks
    /// (in order: the block, or `anyOf`'s braces, or the parameter list; then the `else`
    /// block) each on one line or not as `blocks` says.
    mutating func body(_ node: SyntaxNode, line: Int, flat: Bool, blocks: [Bool]) {
        var next = 0
        func take() -> Bool {
            defer { next += 1 }
            return flat || (next < blocks.count && blocks[next])
        }
        let anyOfFlat = node.kind == .anyOfBuilder ? take() : flat
        var branch = 0
        for e in elements(node) {
            switch e {
            case .token(let t):
                let k = tokens[t].kind
                inline(t, line: line)
                if node.kind == .anyOfBuilder && k == .lBrace {
                    seps[t].breakIndent = Int32(line)
                } else if node.kind == .anyOfBuilder && k == .rBrace {
                    if anyOfFlat {
                        seps[t].breakIndent = Int32(line)
                    } else {
                        setLine(t, indent: line, blank: false, commentIndent: line + step)
                    }
                } else if node.kind == .elseClause && k == .kwElse {
                    seps[t].breakIndent = Int32(line)
                }
            case .node(let child):
                switch child.kind {
                case .block:
                    block(child, line: line, flat: take())
                case .elseClause:
                    body(child, line: line, flat: flat, blocks: [take()])
                case .parameterList:
                    parameters(child, line: line, flat: take())
                case _ where node.kind == .anyOfBuilder && child.kind.isBuilder:
                    if anyOfFlat {
                        walk(child, line: line, flat: true)
                    } else if let first = firstToken(child) {
                        walk(child, line: line + step, flat: false)
                        setLine(first, indent: line + step, blank: branch > 0)
                    }
                    branch += 1
                default:
                    walk(child, line: line, flat: flat)
                }
            }
        }
    }

    /// `{ builder }`.
    mutating func block(_ node: SyntaxNode, line: Int, flat: Bool) {
        for e in elements(node) {
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
            case .node(let child):
                if flat {
                    walk(child, line: line, flat: true)
                } else if let first = firstToken(child) {
                    walk(child, line: line + step, flat: false)
                    setLine(first, indent: line + step, blank: false)
                } else {
                    walk(child, line: line + step, flat: false)
                }
            }
        }
    }

    /// `(label: Type, …)`: on one line, or one parameter per line.
    mutating func parameters(_ node: SyntaxNode, line: Int, flat: Bool) {
        let list = elements(node)
        let hasParameters = list.contains { if case .node = $0 { return true } else { return false } }
        let broken = !flat && hasParameters
        for e in list {
            switch e {
            case .token(let t):
                inline(t, line: line)
                if tokens[t].kind == .rParen {
                    if broken { setLine(t, indent: line, blank: false, commentIndent: line + step) } else { seps[t].breakIndent = Int32(line) }
                }
            case .node(let child):
                if broken, let first = firstToken(child) {
                    walk(child, line: line + step, flat: true)
                    setLine(first, indent: line + step, blank: false)
                } else {
                    walk(child, line: line, flat: true)
                }
            }
        }
    }

    // MARK: One line or several

    /// The `{` and `}` (or `(` and `)`) of a block node (or of `anyOf` or a parameter list).
    func braces(_ node: SyntaxNode) -> (open: Int, close: Int)? {
        guard let open = node.firstToken(.lBrace) ?? node.firstToken(.lParen), let close = lastToken(node),
              tokens[close].kind == .rBrace || tokens[close].kind == .rParen else { return nil }
        return (open, close)
    }

    /// Whether tokens `a` and `b` were written on one line, with no comment from `from` to `b`.
    func oneLine(_ a: Int, _ b: Int, from: Int) -> Bool {
        guard source.line(containing: tokens[a].start) == source.line(containing: tokens[b].start) else { return false }
        var t = from
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
        while t <= b {
            if isSignificant(t) {
                if previous >= 0 && Self.pairKind(tokens, previous, t, text: { tree.text(of: tokens[$0]) }) == .space { columns += 1 }
                columns += scalarCount(tokens[t])
                if columns > width { return columns }
                previous = t
            }
            t += 1
        }
        return columns
    }

    /// The block of a screen node, `wildcard`, `builder`, `root` or `anyOf`: on one line when
    /// written so and the whole node fits.
    func decideBlock(_ node: SyntaxNode, line: Int) -> Bool {
        guard let first = firstToken(node) else { return true }
        let braces: (open: Int, close: Int)?
        if node.kind == .anyOfBuilder {
            braces = self.braces(node)
        } else {
            braces = node.firstChild(.block).flatMap(self.braces)
        }
        guard let (open, close) = braces else { return true }
        return oneLine(open, close, from: first) && flatColumns(from: first, through: close, column: line) <= width
    }

    /// The two blocks of a `conditional`, `if let` or `if screen` (the second false without
    /// `else`). Both on one line when both were written so and the line fits. When only the
    /// first was, it stays so if `… { A } else {` fits. Otherwise the first breaks, and the
    /// second stays on one line (`} else { B }`) when it was written so and fits.
    func decideThenElse(_ node: SyntaxNode, line: Int) -> (Bool, Bool) {
        guard let first = firstToken(node), let (thenOpen, thenClose) = node.firstChild(.block).flatMap(braces) else { return (true, true) }
        var otherwise: (keyword: Int, open: Int, close: Int)? = nil
        if let clause = node.firstChild(.elseClause), let keyword = clause.firstDirectToken,
           let (open, close) = clause.firstChild(.block).flatMap(braces) {
            otherwise = (keyword, open, close)
        }
        let thenOneLine = oneLine(thenOpen, thenClose, from: first)
        guard let otherwise else {
            return (thenOneLine && flatColumns(from: first, through: thenClose, column: line) <= width, false)
        }
        let elseOneLine = oneLine(otherwise.open, otherwise.close, from: thenClose)
        if thenOneLine && elseOneLine && flatColumns(from: first, through: otherwise.close, column: line) <= width {
            return (true, true)
        }
        if thenOneLine && !elseOneLine && flatColumns(from: first, through: otherwise.open, column: line) <= width {
            return (true, false)
        }
        return (false, elseOneLine && flatColumns(from: thenClose, through: otherwise.close, column: line) <= width)
    }

    /// A screen declaration's parameter list: on one line when written so and the whole
    /// declaration fits.
    func decideParameters(_ node: SyntaxNode, line: Int) -> Bool {
        guard let first = firstToken(node), let last = lastToken(node),
              let list = node.firstChild(.parameterList), let (open, close) = braces(list) else { return true }
        return oneLine(open, close, from: first) && flatColumns(from: first, through: last, column: line) <= width
    }

    /// The width of a token in Unicode scalars.
    func scalarCount(_ token: Token) -> Int {
        if token.kind != .string { return Int(token.length) }
        var n = 0
        for i in token.range where source.bytes[i] & 0xC0 != 0x80 { n += 1 }
        return n
    }
}
