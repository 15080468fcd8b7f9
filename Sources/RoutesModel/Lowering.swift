import RoutesSyntax

/// Turns a syntax tree into the PathBuilder model (as rust-analyzer lowers its AST to HIR).
/// Whatever a syntax error left incomplete becomes `.missing` or is left out; nothing here
/// reports syntax errors again.
public enum Lowering {
    public static func lower(_ tree: SyntaxTree, file: FileID = 0) -> FileModel {
        var l = Lowerer(tree: tree, file: file)
        l.lowerFile()
        return l.model
    }
}

struct Lowerer {
    let tree: SyntaxTree
    let file: FileID
    var model = FileModel()

    init(tree: SyntaxTree, file: FileID) {
        self.tree = tree
        self.file = file
    }

    func name(_ token: Int?) -> Name? {
        guard let token else { return nil }
        let t = tree.tokens[token]
        return Name(text: tree.source.text(t.range), range: t.range)
    }

    func identifier(in node: SyntaxNode) -> Name? {
        name(node.firstToken(.identifier))
    }

    /// The `///` lines right before a declaration (blank lines allowed, a `//` comment or
    /// another token ends them).
    func docComment(before node: SyntaxNode) -> String? {
        docComment(beforeToken: node.tokenRange.lowerBound)
    }

    /// The `///` lines right before token `first`.
    func docComment(beforeToken first: Int) -> String? {
        var i = first - 1
        var lines: [String] = []
        while i >= 0 {
            let t = tree.tokens[i]
            if t.kind == .docComment {
                var text = tree.source.text(t.range).dropFirst(3)
                if text.first == " " { text = text.dropFirst() }
                lines.append(String(text))
            } else if t.kind != .whitespace && t.kind != .byteOrderMark {
                break
            }
            i -= 1
        }
        return lines.isEmpty ? nil : lines.reversed().joined(separator: "\n")
    }

    /// The type as written, normalized: no trivia, `: ` in dictionaries.
    func typeText(_ node: SyntaxNode) -> String {
        var out = ""
        for i in node.tokenRange {
            let t = tree.tokens[i]
            if t.kind.isSkipped { continue }
            if t.kind == .colon { out += ": " } else { out += tree.source.text(t.range) }
        }
        return out
    }

    mutating func lowerFile() {
        // At most one model node per syntax node: no regrowing (and copying) while appending.
        model.nodes.reserveCapacity(tree.nodes.count)
        tree.root.forEachChild { lowerDeclaration($0) }
    }

    /// Lowers one top-level node of the tree: appends its import or declaration (and a
    /// builder's or root's nodes, after every node lowered before).
    mutating func lowerDeclaration(_ child: SyntaxNode) {
        switch child.kind {
        case .importDecl:
            // A malformed string was reported already; resolving it would only add noise.
            if let s = child.firstToken(.string), !tree.tokens[s].isMalformed {
                let t = tree.tokens[s]
                let text = tree.source.text(t.range)
                model.imports.append(Import(path: Lexer.stringValue(text[...].utf8), range: t.range))
            }
        case .screenDecl:
            guard let n = identifier(in: child) else { return }
            var d = Declaration(kind: .screen, name: n, range: child.range, doc: docComment(before: child))
            if let list = child.firstChild(.parameterList) {
                list.forEachChild { p in
                    // A parameter without a label (a syntax error, reported) is left out.
                    guard p.kind == .parameter, let first = p.firstDirectToken, tree.tokens[first].kind.isLabel,
                          let label = name(first) else { return }
                    let type = p.firstChild(.type).map(typeText) ?? ""
                    // Screens have few parameters: a scan beats hashing.
                    if let earlier = d.parameters.first(where: { $0.label.text == label.text }) {
                        model.diagnostics.append(Diagnostic(
                            .duplicateDeclaration, file: file, range: label.range,
                            message: "parameter `\(label.text)` of screen `\(n.text)` is declared twice",
                            related: [RelatedLocation(file: file, range: earlier.label.range, message: "`\(label.text)` first declared here")]))
                        return
                    }
                    d.parameters.append(Parameter(label: label, type: type))
                }
            }
            if let p = child.firstChild(.presentation), let first = p.firstDirectToken, tree.tokens[first].kind == .kwSheet {
                var allowsPush = true
                p.forEachDirectToken { t in
                    if tree.tokens[t].kind == .kwFalse { allowsPush = false }
                    return allowsPush
                }
                d.presentation = allowsPush ? .sheet : .sheetNoPush
            }
            model.declarations.append(d)
        case .dependencyDecl, .optionalDecl:
            guard let n = identifier(in: child) else { return }
            var d = Declaration(kind: child.kind == .dependencyDecl ? .dependency : .optional,
                                name: n, range: child.range, doc: docComment(before: child))
            d.type = child.firstChild(.type).map(typeText)
            if let from = child.firstChild(.fromClause) {
                d.from = identifier(in: from)
            }
            model.declarations.append(d)
        case .flagDecl:
            guard let n = identifier(in: child) else { return }
            model.declarations.append(Declaration(kind: .flag, name: n, range: child.range, doc: docComment(before: child)))
        case .builderDecl:
            guard let n = identifier(in: child) else { return }
            var d = Declaration(kind: .builder, name: n, range: child.range, doc: docComment(before: child))
            d.body = child.firstChild(.block).map { lowerBlock($0) }
            model.declarations.append(d)
        case .rootDecl:
            guard let kw = child.firstToken(.kwRoot), let n = name(kw) else { return }
            var d = Declaration(kind: .root, name: n, range: child.range, doc: docComment(before: child))
            d.body = lowerBlock(child.firstChild(.block))
            model.declarations.append(d)
        default:
            return
        }
    }

    mutating func add(_ kind: BuilderNode.Kind, _ node: SyntaxNode, headThrough last: Int?) -> NodeID {
        let range = node.range
        var head = range
        if let first = node.firstDirectToken {
            let end = last.map { tree.tokens[$0].end } ?? tree.tokens[first].end
            head = tree.tokens[first].start..<max(end, tree.tokens[first].end)
        }
        model.nodes.append(BuilderNode(kind: kind, range: range, head: head))
        return model.nodes.count - 1
    }

    mutating func missing(at node: SyntaxNode?) -> NodeID {
        let r = node?.range ?? 0..<0
        model.nodes.append(BuilderNode(kind: .missing, range: r, head: r))
        return model.nodes.count - 1
    }

    /// The first child node that is a builder (no array, no hashing: this runs per node).
    static func firstBuilder(of node: SyntaxNode) -> SyntaxNode? {
        var found: SyntaxNode? = nil
        node.forEachChild { c in
            if found == nil && c.kind.isBuilder { found = c }
        }
        return found
    }

    mutating func lowerBlock(_ block: SyntaxNode?) -> NodeID {
        guard let block, let b = Lowerer.firstBuilder(of: block) else {
            return missing(at: block)
        }
        return lowerBuilder(b)
    }

    /// The builder of an `else` clause: its block, or the `if` written after `else` by mistake.
    mutating func lowerElse(_ clause: SyntaxNode?) -> NodeID? {
        guard let clause else { return nil }
        if let b = Lowerer.firstBuilder(of: clause) {
            return lowerBuilder(b)
        }
        return lowerBlock(clause.firstChild(.block))
    }

    mutating func lowerBuilder(_ node: SyntaxNode) -> NodeID {
        let nameToken = node.firstToken(.identifier)
        let n = name(nameToken)
        switch node.kind {
        case .screenBuilder:
            var uses: [Name] = []
            if let clause = node.firstChild(.usesClause) {
                clause.forEachDirectToken { t in
                    if tree.tokens[t].kind == .identifier, let u = name(t) { uses.append(u) }
                    return true
                }
            }
            let nesting = node.firstChild(.block).map { lowerBlock($0) }
            return add(.screen(n, uses: uses, nesting: nesting), node, headThrough: nameToken)
        case .anyOfBuilder:
            var builders: [SyntaxNode] = []
            node.forEachChild { c in if c.kind.isBuilder { builders.append(c) } }
            var branches: [NodeID] = []
            branches.reserveCapacity(builders.count)
            for c in builders { branches.append(lowerBuilder(c)) }
            return add(.anyOf(branches), node, headThrough: nil)
        case .conditionalBuilder:
            let then = lowerBlock(node.firstChild(.block))
            let els = lowerElse(node.firstChild(.elseClause)) ?? missing(at: nil)
            return add(.conditional(n, then: then, else: els), node, headThrough: nameToken)
        case .ifLetBuilder, .ifScreenBuilder:
            let then = lowerBlock(node.firstChild(.block))
            let els = lowerElse(node.firstChild(.elseClause))
            let kind: BuilderNode.Kind = node.kind == .ifLetBuilder
                ? .ifLet(n, then: then, else: els) : .ifScreen(n, then: then, else: els)
            let id = add(kind, node, headThrough: nameToken)
            if node.kind == .ifLetBuilder && node.firstToken(.kwLet) == nil { model.nodes[id].anyCondition = true }
            return id
        case .wildcardBuilder:
            let body = lowerBlock(node.firstChild(.block))
            return add(.wildcard(n, body: body), node, headThrough: nameToken)
        case .emptyBuilder:
            return add(.empty, node, headThrough: nil)
        case .referenceBuilder:
            guard let n else { return missing(at: node) }
            return add(.reference(n), node, headThrough: nameToken)
        default:
            return missing(at: node)
        }
    }
}
