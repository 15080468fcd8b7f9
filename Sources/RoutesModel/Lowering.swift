import RoutesSyntax

/// Turns a syntax tree into the PathBuilder model (as rust-analyzer lowers its AST to HIR).
/// Whatever a syntax error left incomplete becomes `.missing` or is left out; nothing here
/// reports syntax errors again.
public enum Lowering {
    /// - Parameter keeps: what the model keeps (``Project/Keeps``): without doc comments,
    ///   they are left out; without signatures, the screens' parameters and the Swift types
    ///   of dependencies and optionals are (a screen's parameters are checked, and
    ///   `Declaration.hasParameters` says whether it has some).
    public static func lower(_ tree: SyntaxTree, file: FileID = 0, keeps: Project.Keeps = .everything) -> FileModel {
        Lowerer.with(tree, file: file) { l in
            l.keepsDocs = keeps.docComments
            l.keepsSignatures = keeps.signatures
            l.lowerFile()
            // Reserved at one model node per syntax node: most syntax nodes are names, lists
            // and blocks, and the model is kept for as long as the file is.
            l.model.nodes.dropUnusedCapacity()
            return l.model
        }
    }
}

/// Lowers over the tree's tokens, nodes and bytes as raw buffers, and names nodes by their
/// index in the tree: this walks every node of every file, and going through `SyntaxNode`
/// views (each holding the tree) and the tree's arrays cost a retain and a release per step.
struct Lowerer {
    typealias Node = SyntaxTree.NodeData

    let file: FileID
    private let tokens: UnsafeBufferPointer<Token>
    private let nodes: UnsafeBufferPointer<Node>
    private let bytes: UnsafeBufferPointer<UInt8>
    var model = FileModel()
    /// Whether declarations get their doc comments (see `Lowering.lower`).
    var keepsDocs = true
    /// Whether screens get their parameters, and dependencies and optionals their types (see
    /// `Lowering.lower`).
    var keepsSignatures = true

    /// Runs `body` with a lowerer of `tree` (valid only inside `body`).
    static func with<R>(_ tree: SyntaxTree, file: FileID, _ body: (inout Lowerer) -> R) -> R {
        tree.tokens.withUnsafeBufferPointer { tokens in
            tree.nodes.withUnsafeBufferPointer { nodes in
                tree.source.bytes.withUnsafeBufferPointer { bytes in
                    var l = Lowerer(file: file, tokens: tokens, nodes: nodes, bytes: bytes)
                    return body(&l)
                }
            }
        }
    }

    private init(file: FileID, tokens: UnsafeBufferPointer<Token>, nodes: UnsafeBufferPointer<Node>,
                 bytes: UnsafeBufferPointer<UInt8>) {
        self.file = file
        self.tokens = tokens
        self.nodes = nodes
        self.bytes = bytes
    }

    // MARK: The tree, by node index

    /// The text of a byte range (clamped to the source).
    private func text(_ range: Range<Int>) -> String {
        let lo = max(0, min(range.lowerBound, bytes.count))
        let hi = max(lo, min(range.upperBound, bytes.count))
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self)
    }

    /// The bytes node i covers (for no tokens, the empty range where its first would start).
    private func range(_ i: Int) -> Range<Int> {
        let start = Int(nodes[i].tokenStart), end = Int(nodes[i].tokenEnd)
        if start >= end {
            let at = start < tokens.count ? tokens[start].start : bytes.count
            return at..<at
        }
        return tokens[start].start..<tokens[end - 1].end
    }

    /// The first child of node i of a kind.
    private func firstChild(_ i: Int, _ kind: SyntaxKind) -> Int? {
        var j = i + 1
        let end = Int(nodes[i].subtreeEnd)
        while j < end {
            if nodes[j].kind == kind { return j }
            j = Int(nodes[j].subtreeEnd)
        }
        return nil
    }

    /// The first child of node i that is a builder.
    private func firstBuilder(_ i: Int) -> Int? {
        var j = i + 1
        let end = Int(nodes[i].subtreeEnd)
        while j < end {
            if nodes[j].kind.isBuilder { return j }
            j = Int(nodes[j].subtreeEnd)
        }
        return nil
    }

    /// Calls `body` with each non-trivia token node i owns directly (not through a child
    /// node); stops when it returns false.
    private func forEachDirectToken(_ i: Int, _ body: (Int) -> Bool) {
        var t = Int(nodes[i].tokenStart)
        let end = Int(nodes[i].tokenEnd)
        var j = i + 1
        let subtreeEnd = Int(nodes[i].subtreeEnd)
        while t < end {
            if j < subtreeEnd && Int(nodes[j].tokenStart) <= t {
                // A child node (an empty one takes no tokens) is stepped over.
                if nodes[j].tokenEnd > nodes[j].tokenStart { t = Int(nodes[j].tokenEnd) }
                j = Int(nodes[j].subtreeEnd)
                continue
            }
            if !tokens[t].kind.isSkipped && !body(t) { return }
            t += 1
        }
    }

    private func firstDirectToken(_ i: Int) -> Int? {
        var first: Int? = nil
        forEachDirectToken(i) { first = $0; return false }
        return first
    }

    private func firstToken(_ i: Int, _ kind: TokenKind) -> Int? {
        var found: Int? = nil
        forEachDirectToken(i) { t in
            if tokens[t].kind == kind { found = t; return false }
            return true
        }
        return found
    }

    // MARK: Pieces

    private func name(_ token: Int?) -> Name? {
        guard let token else { return nil }
        let r = tokens[token].range
        return Name(text: text(r), range: r)
    }

    private func identifier(in i: Int) -> Name? {
        name(firstToken(i, .identifier))
    }

    /// The `///` lines right before token `first` (blank lines allowed, a `//` comment or
    /// another token ends them).
    func docComment(beforeToken first: Int) -> String? {
        // The lines' first token, going back; then their text, forwards, in one string.
        var i = first - 1
        var earliest = first
        var count = 0
        while i >= 0 {
            let kind = tokens[i].kind
            if kind == .docComment {
                earliest = i
                count += 1
            } else if kind != .whitespace && kind != .byteOrderMark {
                break
            }
            i -= 1
        }
        if count == 0 { return nil }
        /// A line without its `///` and one space after it.
        func lineText(_ t: Token) -> Range<Int> {
            var start = t.start + 3
            if start < t.end && bytes[start] == UInt8(ascii: " ") { start += 1 }
            return min(start, t.end)..<t.end
        }
        if count == 1 { return text(lineText(tokens[earliest])) }
        var out: [UInt8] = []
        for k in earliest..<first where tokens[k].kind == .docComment {
            if !out.isEmpty { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineText(tokens[k])]))
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func docComment(before i: Int) -> String? {
        keepsDocs ? docComment(beforeToken: Int(nodes[i].tokenStart)) : nil
    }

    /// The type as written, normalized: no trivia; `: ` and `, ` after colons and commas,
    /// ` -> ` and ` & ` around arrows and ampersands, one space between words
    /// (`any Store`, `async throws`) and after an attribute (`@Sendable (Int) -> Void`).
    private func typeText(_ i: Int) -> String {
        // Most types are one name: its text as it is.
        var only: Int? = nil
        var several = false
        forEachDirectToken(i) { t in
            if only == nil { only = t } else { several = true }
            return !several
        }
        if !several, let only, Int(nodes[i].subtreeEnd) == i + 1, tokens[only].kind != .colon {
            return text(tokens[only].range)
        }
        func isWord(_ k: TokenKind) -> Bool { k == .identifier || k == .attribute || k.isKeyword }
        var out: [UInt8] = []
        /// `any (P & Q)`, `inout [Int]`: a word that prefixes a type keeps its space.
        func prefixesType(_ t: Token) -> Bool {
            let word = text(t.range)
            return word == "any" || word == "some" || word == "inout" || word == "borrowing" || word == "consuming" || word == "sending"
        }
        var previous: TokenKind? = nil
        var previousToken: Token? = nil
        for k in Int(nodes[i].tokenStart)..<Int(nodes[i].tokenEnd) {
            let t = tokens[k]
            if t.kind.isSkipped { continue }
            defer {
                previous = t.kind
                previousToken = t
            }
            switch t.kind {
            case .colon: out.append(contentsOf: ": ".utf8)
            case .comma: out.append(contentsOf: ", ".utf8)
            case .arrow: out.append(contentsOf: " -> ".utf8)
            case .ampersand: out.append(contentsOf: " & ".utf8)
            default:
                if let p = previous,
                   (isWord(p) && isWord(t.kind)) || (p == .attribute && (t.kind == .lParen || t.kind == .lBracket))
                    || (p == .rParen && t.kind == .identifier)
                    || (p == .identifier && (t.kind == .lParen || t.kind == .lBracket) && previousToken.map(prefixesType) == true) {
                    out.append(UInt8(ascii: " "))
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[t.start..<t.end]))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Declarations

    mutating func lowerFile() {
        // At most one model node per syntax node: no regrowing (and copying) while appending.
        model.nodes.reserveCapacity(nodes.count)
        var declarations = 0
        var j = 1
        let end = nodes.isEmpty ? 0 : Int(nodes[0].subtreeEnd)
        while j < end {
            declarations += 1
            j = Int(nodes[j].subtreeEnd)
        }
        model.declarations.reserveCapacity(declarations)
        j = 1
        while j < end {
            lowerDeclaration(j)
            j = Int(nodes[j].subtreeEnd)
        }
        collectSkippedNames()
    }

    /// The identifiers inside the tree's error nodes (see ``FileModel/skippedNames``).
    mutating func collectSkippedNames() {
        var j = 1
        while j < nodes.count {
            guard nodes[j].kind == .error else {
                j += 1
                continue
            }
            for t in Int(nodes[j].tokenStart)..<Int(nodes[j].tokenEnd) where tokens[t].kind == .identifier {
                model.skippedNames.append(text(tokens[t].range))
            }
            j = Int(nodes[j].subtreeEnd)
        }
    }

    /// Lowers top-level node `child` of the tree (by index): appends its import or
    /// declaration (and a builder's or root's nodes, after every node lowered before).
    mutating func lowerDeclaration(_ child: Int) {
        switch nodes[child].kind {
        case .importDecl:
            // A malformed string was reported already; resolving it would only add noise.
            if let s = firstToken(child, .string), !tokens[s].isMalformed {
                let t = tokens[s]
                model.imports.append(Import(path: Lexer.stringValue(text(t.range)[...].utf8), range: t.range))
            }
        case .screenDecl:
            guard let n = identifier(in: child) else { return }
            var d = Declaration(kind: .screen, name: n, range: range(child), doc: docComment(before: child))
            if let list = firstChild(child, .parameterList) {
                var p = list + 1
                let end = Int(nodes[list].subtreeEnd)
                while p < end {
                    defer { p = Int(nodes[p].subtreeEnd) }
                    // A parameter without a label (a syntax error, reported) is left out.
                    guard nodes[p].kind == .parameter, let first = firstDirectToken(p), tokens[first].kind.isLabel,
                          let label = name(first) else { continue }
                    let type = keepsSignatures ? firstChild(p, .type).map(typeText) ?? "" : ""
                    // Screens have few parameters: a scan beats hashing.
                    if let earlier = d.parameters.first(where: { $0.label.text == label.text }) {
                        model.diagnostics.append(DuplicateDeclaration.diagnostic(
                            .parameter(label: label.text, screen: n.text), file: file, range: label.range,
                            firstFile: file, firstRange: earlier.label.range))
                        continue
                    }
                    d.parameters.append(Parameter(label: label, type: type))
                }
                if !keepsSignatures && !d.parameters.isEmpty {
                    d.parameters = []
                    d.parametersLeftOut = true
                }
            }
            if let p = firstChild(child, .presentation), let first = firstDirectToken(p), tokens[first].kind == .kwSheet {
                var allowsPush = true
                forEachDirectToken(p) { t in
                    if tokens[t].kind == .kwFalse { allowsPush = false }
                    return allowsPush
                }
                d.presentation = allowsPush ? .sheet : .sheetNoPush
            }
            model.declarations.append(d)
        case .dependencyDecl, .optionalDecl:
            guard let n = identifier(in: child) else { return }
            var d = Declaration(kind: nodes[child].kind == .dependencyDecl ? .dependency : .optional,
                                name: n, range: range(child), doc: docComment(before: child))
            if keepsSignatures { d.type = firstChild(child, .type).map(typeText) }
            if let from = firstChild(child, .fromClause) {
                d.from = identifier(in: from)
            }
            model.declarations.append(d)
        case .flagDecl:
            guard let n = identifier(in: child) else { return }
            model.declarations.append(Declaration(kind: .flag, name: n, range: range(child), doc: docComment(before: child)))
        case .builderDecl:
            guard let n = identifier(in: child) else { return }
            var d = Declaration(kind: .builder, name: n, range: range(child), doc: docComment(before: child))
            d.body = firstChild(child, .block).map { lowerBlock($0) }
            model.declarations.append(d)
        case .rootDecl:
            guard let kw = firstToken(child, .kwRoot), let n = name(kw) else { return }
            var d = Declaration(kind: .root, name: n, range: range(child), doc: docComment(before: child))
            d.body = lowerBlock(firstChild(child, .block))
            model.declarations.append(d)
        default:
            return
        }
    }

    // MARK: Builders

    private mutating func add(_ kind: BuilderNode.Kind, _ i: Int, headThrough last: Int?) -> NodeID {
        let range = range(i)
        var head = range
        if let first = firstDirectToken(i) {
            let end = last.map { tokens[$0].end } ?? tokens[first].end
            head = tokens[first].start..<max(end, tokens[first].end)
        }
        model.nodes.append(BuilderNode(kind: kind, range: range, head: head))
        return model.nodes.count - 1
    }

    private mutating func missing(at i: Int?) -> NodeID {
        let r = i.map(range) ?? 0..<0
        model.nodes.append(BuilderNode(kind: .missing, range: r, head: r))
        return model.nodes.count - 1
    }

    private mutating func lowerBlock(_ block: Int?) -> NodeID {
        guard let block, let b = firstBuilder(block) else {
            return missing(at: block)
        }
        return lowerBuilder(b)
    }

    /// The builder of an `else` clause: its block, or the `if` written after `else` by mistake.
    private mutating func lowerElse(_ clause: Int?) -> NodeID? {
        guard let clause else { return nil }
        if let b = firstBuilder(clause) {
            return lowerBuilder(b)
        }
        return lowerBlock(firstChild(clause, .block))
    }

    private mutating func lowerBuilder(_ i: Int) -> NodeID {
        let nameToken = firstToken(i, .identifier)
        let n = name(nameToken)
        switch nodes[i].kind {
        case .screenBuilder:
            var uses: [Name] = []
            if let clause = firstChild(i, .usesClause) {
                forEachDirectToken(clause) { t in
                    if tokens[t].kind == .identifier, let u = name(t) { uses.append(u) }
                    return true
                }
            }
            let nesting = firstChild(i, .block).map { lowerBlock($0) }
            return add(.screen(n, uses: uses, nesting: nesting), i, headThrough: nameToken)
        case .anyOfBuilder:
            var builders: [Int] = []
            var j = i + 1
            let end = Int(nodes[i].subtreeEnd)
            while j < end {
                if nodes[j].kind.isBuilder { builders.append(j) }
                j = Int(nodes[j].subtreeEnd)
            }
            var branches: [NodeID] = []
            branches.reserveCapacity(builders.count)
            for c in builders { branches.append(lowerBuilder(c)) }
            return add(.anyOf(branches), i, headThrough: nil)
        case .conditionalBuilder:
            let then = lowerBlock(firstChild(i, .block))
            let els = lowerElse(firstChild(i, .elseClause)) ?? missing(at: nil)
            return add(.conditional(n, then: then, else: els), i, headThrough: nameToken)
        case .ifLetBuilder, .ifScreenBuilder:
            let then = lowerBlock(firstChild(i, .block))
            let els = lowerElse(firstChild(i, .elseClause))
            let kind: BuilderNode.Kind = nodes[i].kind == .ifLetBuilder
                ? .ifLet(n, then: then, else: els) : .ifScreen(n, then: then, else: els)
            let id = add(kind, i, headThrough: nameToken)
            if nodes[i].kind == .ifLetBuilder && firstToken(i, .kwLet) == nil { model.nodes[id].anyCondition = true }
            return id
        case .wildcardBuilder:
            let body = lowerBlock(firstChild(i, .block))
            let id = add(.wildcard(n, body: body), i, headThrough: nameToken)
            if firstChild(i, .error) != nil { model.nodes[id].argumentsSkipped = true }
            return id
        case .emptyBuilder:
            return add(.empty, i, headThrough: nil)
        case .referenceBuilder:
            guard let n else { return missing(at: i) }
            return add(.reference(n), i, headThrough: nameToken)
        default:
            return missing(at: i)
        }
    }
}
