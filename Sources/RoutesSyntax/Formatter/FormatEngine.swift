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
        for item in items where item.region == nil {
            guard let node = item.node else { continue }
            prev = -1
            walk(node, line: 0, flat: false)
            seps[item.first] = Sep(kind: .line, blank: true, indent: 0, breakIndent: 0, commentIndent: 0)
        }
        freezeSuppressedLines()
    }

    // MARK: Items and regions

    @inline(__always) func isSignificant(_ token: Int) -> Bool {
        !tokens[token].kind.isTrivia && tokens[token].kind != .eof
    }

    mutating func findItems() {
        let root = tree.root
        let diagnostics = tree.diagnostics
        let hasErrors = !diagnostics.isEmpty || nodes.contains { $0.kind == .error } || tokens.contains { $0.kind == .unknown }
        var firstDiagnostic = 0
        var token = root.tokenRange.lowerBound
        var child = 1
        let end = tree.nodes.isEmpty ? 0 : Int(tree.nodes[0].subtreeEnd)
        func add(_ first: Int, _ last: Int, node: Int?, erroneous: Bool) {
            let lo = tokens[first].start, hi = tokens[last].end
            var bad = erroneous
            // Diagnostics are sorted by start: skip those that end before this item.
            while firstDiagnostic < diagnostics.count && diagnostics[firstDiagnostic].range.upperBound < lo { firstDiagnostic += 1 }
            var diagnostic = firstDiagnostic
            while !bad && diagnostic < diagnostics.count && diagnostics[diagnostic].range.lowerBound <= hi {
                if diagnostics[diagnostic].range.upperBound >= lo { bad = true }
                diagnostic += 1
            }
            // (Lines matter only to the regions kept as written: a file with diagnostics.)
            let lines = hasErrors ? (source.line(containing: lo), source.line(containing: hi)) : (0, 0)
            items.append(Item(first: first, last: last, node: node, erroneous: bad,
                              firstLine: lines.0, lastLine: lines.1, region: nil))
        }
        while token < tokens.count {
            if child < end, Int(tree.nodes[child].tokenStart) <= token {
                let node = tree.nodes[child]
                var first = Int(node.tokenStart), last = Int(node.tokenEnd) - 1
                while first <= last && !isSignificant(first) { first += 1 }
                while last >= first && !isSignificant(last) { last -= 1 }
                if first <= last {
                    var bad = node.kind == .error
                    if !bad {
                        var descendant = child + 1
                        while descendant < Int(node.subtreeEnd) {
                            if tree.nodes[descendant].kind == .error { bad = true; break }
                            descendant += 1
                        }
                    }
                    add(first, last, node: child, erroneous: bad)
                }
                token = max(token, Int(node.tokenEnd))
                child = Int(node.subtreeEnd)
                continue
            }
            // A token of the file node itself: trivia, the end, or an unknown character.
            if tokens[token].kind == .unknown || (isSignificant(token)) {
                add(token, token, node: nil, erroneous: true)
            }
            token += 1
        }
        // A diagnostic outside every item (none is known): its lines are kept too.
        var covered = 0
        for diagnostic in diagnostics {
            let lo = diagnostic.range.lowerBound, hi = diagnostic.range.upperBound
            while covered < items.count && tokens[items[covered].last].end < lo { covered += 1 }
            let inside = covered < items.count && tokens[items[covered].first].start <= hi
            if !inside {
                let line = source.line(containing: lo)
                let token = tree.tokenIndex(at: lo)
                items.append(Item(first: token, last: token, node: nil, erroneous: true, firstLine: line,
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
        var index = 0
        while index < items.count {
            guard items[index].erroneous else { index += 1; continue }
            var lo = items[index].firstLine, hi = items[index].lastLine
            var first = index, last = index
            // Earlier items on these lines.
            while first > 0 && items[first - 1].lastLine >= lo {
                first -= 1
                lo = min(lo, items[first].firstLine)
            }
            // Later ones, and the lines they reach.
            while last + 1 < items.count && items[last + 1].firstLine <= hi {
                last += 1
                hi = max(hi, items[last].lastLine)
            }
            if let previous = regions.last, previous.lastLine >= lo {
                // Overlaps the region before: merge.
                let merged = Region(bytes: previous.bytes.lowerBound..<lineEnd(max(hi, previous.lastLine)),
                                    firstLine: previous.firstLine, lastLine: max(hi, previous.lastLine))
                regions[regions.count - 1] = merged
            } else {
                regions.append(Region(bytes: lineStart(lo)..<lineEnd(hi), firstLine: lo, lastLine: hi))
            }
            for item in first...last { items[item].region = regions.count - 1 }
            index = last + 1
        }
    }

    func lineStart(_ line: Int) -> Int { source.lineRange(line).lowerBound }
    func lineEnd(_ line: Int) -> Int { source.lineRange(line).upperBound }

    // MARK: Suppression comments

    /// A `// routes:ignore` comment suppresses diagnostics by line: at the end of a line, that
    /// line's; alone on a line, the next one's. The tokens of that line stay on one line, and
    /// no other token joins it; a blank target line stays blank.
    mutating func freezeSuppressedLines() {
        let bytes = source.bytes
        var significant: [Int]? = nil
        for (comment, token) in tokens.enumerated() where token.kind == .lineComment {
            guard let (target, alone) = SuppressionMarker.targetLine(of: token, in: source) else { continue }
            if significant == nil { significant = tokens.indices.filter(isSignificant) }
            guard target < source.lineCount else { continue }
            let range = source.lineRange(target)
            // The significant tokens starting on the target line.
            var lo = 0, hi = significant!.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if tokens[significant![mid]].start < range.lowerBound { lo = mid + 1 } else { hi = mid }
            }
            var after = lo
            while after < significant!.count && tokens[significant![after]].start < range.upperBound { after += 1 }
            if after == lo {
                // No token there: blank (or only a comment). A blank line stays.
                if alone, range.isEmpty || bytes[range].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { keepBlankAfter.insert(comment) }
                continue
            }
            seps[significant![lo]].mustBreak = true
            for inside in (lo + 1)..<after { seps[significant![inside]].noBreak = true }
            if after < significant!.count { seps[significant![after]].mustBreak = true }
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
    static func forEachElement(_ nodes: [SyntaxTree.NodeData], _ tokens: [Token], _ node: Int, _ body: (Element) -> Void) {
        var token = Int(nodes[node].tokenStart)
        var child = node + 1
        let end = Int(nodes[node].subtreeEnd), tokenEnd = Int(nodes[node].tokenEnd)
        while token < tokenEnd || child < end {
            if child < end && Int(nodes[child].tokenStart) <= token {
                body(.node(child))
                token = max(token, Int(nodes[child].tokenEnd))
                child = Int(nodes[child].subtreeEnd)
                continue
            }
            if token >= tokenEnd { break }
            let kind = tokens[token].kind
            if !kind.isTrivia && kind != .eof { body(.token(token)) }
            token += 1
        }
    }

    @inline(__always) func kind(_ node: Int) -> SyntaxKind { nodes[node].kind }

    /// The first child node of `node` of a kind.
    func child(_ node: Int, _ kind: SyntaxKind) -> Int? {
        var child = node + 1
        let end = Int(nodes[node].subtreeEnd)
        while child < end {
            if nodes[child].kind == kind { return child }
            child = Int(nodes[child].subtreeEnd)
        }
        return nil
    }

    /// The first token of a kind that node `node` owns itself (not through a child).
    func directToken(_ node: Int, _ kind: TokenKind) -> Int? {
        var found: Int? = nil
        var token = Int(nodes[node].tokenStart)
        var child = node + 1
        let end = Int(nodes[node].subtreeEnd), tokenEnd = Int(nodes[node].tokenEnd)
        while token < tokenEnd {
            if child < end && Int(nodes[child].tokenStart) <= token {
                token = max(token, Int(nodes[child].tokenEnd))
                child = Int(nodes[child].subtreeEnd)
                continue
            }
            if tokens[token].kind == kind { found = token; break }
            token += 1
        }
        return found
    }

    /// The separator of `token` inside a line, from the token before it.
    func inlineKind(_ token: Int) -> SepKind {
        guard prev >= 0 else { return .space }
        return Self.pairKind(tokens, prev, token, source.bytes)
    }

    /// How two tokens are separated on one line (Swift's spacing; see the type's comment).
    static func pairKind(_ tokens: [Token], _ before: Int, _ token: Int, _ bytes: [UInt8]) -> SepKind {
        let previous = tokens[before].kind, kind = tokens[token].kind
        switch kind {
        // (`/` stands between the elements of a link's path: `Home/Detail(id: id)`.)
        case .comma, .colon, .rParen, .rBracket, .rAngle, .question, .dot, .lAngle, .slash: return .none
        case .arrow, .ampersand, .lBrace, .rBrace: return .space
        default: break
        }
        switch previous {
        case .lParen, .lBracket, .lAngle, .dot, .slash: return .none
        case .comma, .colon, .arrow, .ampersand, .attribute: return .space
        default: break
        }
        if kind == .lParen || kind == .lBracket {
            // `Detail(`, `sheet(`, `throws(E)`; but `any (P & Q)`, `inout [Int]`.
            if previous == .kwSheet { return .none }
            if previous == .identifier {
                return kind == .lBracket || isTypePrefix(tokens[before], bytes) ? .space : .none
            }
        }
        return .space
    }

    /// Words that prefix a type, written with a space before it.
    static let typePrefixes: [[UInt8]] = ["any", "some", "inout", "borrowing", "consuming", "sending"].map { Array($0.utf8) }

    static func isTypePrefix(_ token: Token, _ bytes: [UInt8]) -> Bool {
        typePrefixes.contains { $0.count == Int(token.length) && bytes[token.range].elementsEqual($0) }
    }

    /// Puts `token` on the line being laid out, indented `line`.
    mutating func inline(_ token: Int, line: Int) {
        let keep = seps[token]
        seps[token] = Sep(kind: inlineKind(token), blank: false, indent: Int32(line), breakIndent: Int32(line + step),
                          commentIndent: Int32(line + step), mustBreak: keep.mustBreak, noBreak: keep.noBreak)
        prev = token
    }

    /// Starts a line, indented `indent`, at `token`.
    mutating func setLine(_ token: Int, indent: Int, blank: Bool, commentIndent: Int? = nil) {
        seps[token].kind = .line
        seps[token].blank = blank
        seps[token].indent = Int32(indent)
        seps[token].breakIndent = Int32(indent)
        seps[token].commentIndent = Int32(commentIndent ?? indent)
    }

    /// The first significant token of `node`.
    func firstToken(_ node: Int) -> Int? {
        var token = Int(nodes[node].tokenStart)
        let end = Int(nodes[node].tokenEnd)
        while token < end {
            if isSignificant(token) { return token }
            token += 1
        }
        return nil
    }

    /// The last significant token of `node`.
    func lastToken(_ node: Int) -> Int? {
        var token = Int(nodes[node].tokenEnd) - 1
        let start = Int(nodes[node].tokenStart)
        while token >= start {
            if isSignificant(token) { return token }
            token -= 1
        }
        return nil
    }

    /// Lays out `node`, whose first token starts a line indented `line` (or is in a line
    /// that does); `flat`: everything on one line.
    mutating func walk(_ node: Int, line: Int, flat: Bool) {
        if flat {
            body(node, line: line, flat: true, blocks: (true, true))
            return
        }
        switch kind(node) {
        case .screenBuilder, .wildcardBuilder, .builderDecl, .rootDecl, .anyOfBuilder:
            body(node, line: line, flat: false, blocks: (decideBlock(node, line: line), false))
        case .conditionalBuilder, .ifLetBuilder, .ifScreenBuilder:
            body(node, line: line, flat: false, blocks: decideThenElse(node, line: line))
        case .screenDecl:
            body(node, line: line, flat: false, blocks: (decideParameters(node, line: line), false))
        default:
            body(node, line: line, flat: false, blocks: (false, false))
        }
    }

    /// Lays out the elements of `node`: everything on one line when `flat`, else its blocks
    /// (in order: the block, or `anyOf`'s braces, or the parameter list; then the `else`
    /// block) each on one line or not as `blocks` says.
    mutating func body(_ node: Int, line: Int, flat: Bool, blocks: (Bool, Bool)) {
        var next = 0
        func take() -> Bool {
            defer { next += 1 }
            return flat || (next == 0 ? blocks.0 : next == 1 ? blocks.1 : false)
        }
        let nodeKind = kind(node)
        let anyOfFlat = nodeKind == .anyOfBuilder ? take() : flat
        var branch = 0
        Self.forEachElement(nodes, tokens, node) { element in
            switch element {
            case .token(let token):
                let tokenKind = tokens[token].kind
                inline(token, line: line)
                if nodeKind == .anyOfBuilder && tokenKind == .lBrace {
                    seps[token].breakIndent = Int32(line)
                } else if nodeKind == .anyOfBuilder && tokenKind == .rBrace {
                    if anyOfFlat {
                        seps[token].breakIndent = Int32(line)
                    } else {
                        setLine(token, indent: line, blank: false, commentIndent: line + step)
                    }
                } else if nodeKind == .elseClause && tokenKind == .kwElse {
                    seps[token].breakIndent = Int32(line)
                }
            case .node(let child):
                let childKind = kind(child)
                switch childKind {
                case .block:
                    block(child, line: line, flat: take())
                case .elseClause:
                    let elseFlat = take()
                    body(child, line: line, flat: flat, blocks: (elseFlat, false))
                case .parameterList:
                    parameters(child, line: line, flat: take())
                case _ where nodeKind == .anyOfBuilder && childKind.isBuilder:
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
    mutating func block(_ node: Int, line: Int, flat: Bool) {
        Self.forEachElement(nodes, tokens, node) { element in
            switch element {
            case .token(let token):
                inline(token, line: line)
                switch tokens[token].kind {
                case .lBrace:
                    seps[token].breakIndent = Int32(line)
                case .rBrace:
                    if flat {
                        seps[token].breakIndent = Int32(line)
                    } else {
                        setLine(token, indent: line, blank: false, commentIndent: line + step)
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
    mutating func parameters(_ node: Int, line: Int, flat: Bool) {
        let broken = !flat && child(node, .parameter) != nil
        Self.forEachElement(nodes, tokens, node) { element in
            switch element {
            case .token(let token):
                inline(token, line: line)
                if tokens[token].kind == .rParen {
                    if broken {
                        setLine(token, indent: line, blank: false, commentIndent: line + step)
                    } else {
                        seps[token].breakIndent = Int32(line)
                    }
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
    func braces(_ node: Int) -> (open: Int, close: Int)? {
        guard let open = directToken(node, .lBrace) ?? directToken(node, .lParen), let close = lastToken(node),
              tokens[close].kind == .rBrace || tokens[close].kind == .rParen else { return nil }
        return (open, close)
    }

    /// Whether tokens `first` through `last` were written on one line, without a comment: no
    /// line break before any significant token after `first` (a comment is followed by one).
    /// Stops at the first line break.
    func oneLine(from first: Int, through last: Int) -> Bool {
        var token = first + 1
        while token <= last {
            let kind = tokens[token].kind
            if kind == .lineComment || kind == .docComment { return false }
            if !kind.isTrivia && tokens[token].startsLine { return false }
            token += 1
        }
        return true
    }

    /// Whether no comment lies between tokens `first` and `last`.
    func noComment(from first: Int, through last: Int) -> Bool {
        var token = first
        while token <= last {
            if tokens[token].kind == .lineComment || tokens[token].kind == .docComment { return false }
            token += 1
        }
        return true
    }

    /// The columns tokens `first` through `last` take on one line (the separators of a flat
    /// layout between them), counting from `column`; stops counting past the width.
    func flatColumns(from first: Int, through last: Int, column: Int) -> Int {
        var columns = column
        var previous = -1
        var token = first
        let bytes = source.bytes
        while token <= last {
            if isSignificant(token) {
                if previous >= 0 && Self.pairKind(tokens, previous, token, bytes) == .space { columns += 1 }
                columns += scalarCount(tokens[token])
                if columns > width { return columns }
                previous = token
            }
            token += 1
        }
        return columns
    }

    /// The block of a screen node, `wildcard`, `builder`, `root` or `anyOf`: on one line when
    /// written so (from the node's first token) and the whole node fits.
    func decideBlock(_ node: Int, line: Int) -> Bool {
        guard let first = firstToken(node) else { return true }
        let pair = kind(node) == .anyOfBuilder ? braces(node) : child(node, .block).flatMap(braces)
        guard let (open, close) = pair else { return true }
        // (The width first: it stops after 100 columns, so no decision reads a long line.)
        return flatColumns(from: first, through: close, column: line) <= width
            && oneLine(from: open, through: close) && noComment(from: first, through: open)
    }

    /// The two blocks of a `conditional`, `if let` or `if screen` (the second false without
    /// `else`). Both on one line when both were written so and the line fits. When only the
    /// first was, it stays so if `… { A } else {` fits. Otherwise the first breaks, and the
    /// second stays on one line (`} else { B }`) when it was written so and fits.
    func decideThenElse(_ node: Int, line: Int) -> (Bool, Bool) {
        guard let first = firstToken(node), let (thenOpen, thenClose) = child(node, .block).flatMap(braces) else { return (true, true) }
        var otherwise: (open: Int, close: Int)? = nil
        if let clause = child(node, .elseClause), let pair = child(clause, .block).flatMap(braces) {
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
    func decideParameters(_ node: Int, line: Int) -> Bool {
        guard let first = firstToken(node), let last = lastToken(node),
              let list = child(node, .parameterList), let (open, close) = braces(list) else { return true }
        return flatColumns(from: first, through: last, column: line) <= width
            && oneLine(from: open, through: close) && noComment(from: first, through: last)
    }

    /// The width of a token in Unicode scalars.
    func scalarCount(_ token: Token) -> Int {
        if token.kind != .string { return Int(token.length) }
        var scalars = 0
        for offset in token.range where source.bytes[offset] & 0xC0 != 0x80 { scalars += 1 }
        return scalars
    }
}
