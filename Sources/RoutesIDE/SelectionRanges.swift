import RoutesModel
import RoutesSyntax

extension IDE {
    /// The ranges an editor's "expand selection" steps through from `offset`, innermost first,
    /// each strictly inside the next, read from the syntax tree (so they work on half-written
    /// text too): the token at the offset (a name, keyword, string, number or punctuation; a
    /// comment), then each syntax node around it from the inside out, with a builder's head
    /// (`screen Home uses appStore`, `if let detailStore`) before the whole builder and a
    /// declaration's head (`builder detail`, `dependency store: Store`) before the whole
    /// declaration, its `///` doc comment included; the whole file last. Nodes are cut to
    /// their first and last token, so no step starts or ends in whitespace. In whitespace,
    /// the innermost node around it comes first.
    public static func selectionRanges(project: Project, file: FileID, offset: Int) -> [Range<Int>] {
        guard project.files.indices.contains(file) else { return [] }
        let source = project.files[file]
        let query = TreeQuery(source.syntax)
        let offset = query.clamp(offset)
        let whole = 0..<query.source.count
        guard !query.tokens.isEmpty else { return [whole] }
        var out: [Range<Int>] = []
        func add(_ r: Range<Int>) {
            if let last = out.last {
                guard r.lowerBound <= last.lowerBound, last.upperBound <= r.upperBound, r != last else { return }
            }
            out.append(r)
        }

        // The token under the cursor: a name-like one first (right of the cursor on a tie),
        // else one the cursor is inside, else the significant token ending at the cursor.
        var token: Int? = query.nameToken(at: offset)
        if token == nil {
            let index = query.tree.tokenIndex(at: offset)
            let current = query.tokens[index]
            if current.kind != .whitespace && current.kind != .eof && current.start <= offset && offset < current.end {
                token = index
            } else if index > 0, query.tokens[index - 1].end == offset, !query.tokens[index - 1].kind.isSkipped {
                token = index - 1
            }
        }
        // A line comment runs to the line's end, trailing blanks included: they are not in the
        // step, and the cursor among them is in whitespace.
        let bytes = source.text.bytes
        let at = token.map { t -> Range<Int> in
            var trimmed = query.tokens[t].range
            while trimmed.upperBound > trimmed.lowerBound + 1, bytes[trimmed.upperBound - 1] == 0x20 || bytes[trimmed.upperBound - 1] == 0x09 || bytes[trimmed.upperBound - 1] == 0x0D {
                trimmed = trimmed.lowerBound..<(trimmed.upperBound - 1)
            }
            return offset <= trimmed.upperBound ? trimmed : offset..<offset
        } ?? offset..<offset
        if !at.isEmpty { add(at) }
        // The nodes around it (around the offset in whitespace), from the inside out.
        let path = query.ancestors(ofToken: token ?? query.tree.tokenIndex(at: offset))
        for node in path.reversed() {
            guard let first = query.firstToken(node), let last = query.lastToken(node) else { continue }
            let range = query.tokens[first].start..<query.tokens[last].end
            // A node's leading or trailing trivia is not in it.
            guard range.lowerBound <= at.lowerBound, at.upperBound <= range.upperBound else { continue }
            let kind = query.kind(node)
            if kind.isBuilder || isDeclaration(kind), let head = head(query, node: node, first: first),
               at.upperBound <= head.upperBound {
                add(head)
            }
            add(range)
            if isDeclaration(kind), let doc = docCommentStart(query, before: first) {
                add(doc..<range.upperBound)
            }
        }
        add(whole)
        return out
    }

    static func isDeclaration(_ kind: SyntaxKind) -> Bool {
        switch kind {
        case .importDecl, .screenDecl, .dependencyDecl, .optionalDecl, .flagDecl, .builderDecl, .rootDecl: return true
        default: return false
        }
    }

    /// A builder's or declaration's head: its first token through its name (and, for a
    /// screen builder, its `uses` list; for a dependency or optional, its type), when that
    /// is less than the whole node.
    static func head(_ q: TreeQuery, node: Int, first: Int) -> Range<Int>? {
        var end: Int? = nil
        let children = q.children(node)
        for token in q.directTokens(node) {
            let kind = q.tokens[token].kind
            if kind == .lBrace { break }
            if kind == .identifier || kind == .kwRoot || (kind.isKeyword && end == nil) { end = q.tokens[token].end }
            if kind == .identifier { break }
        }
        for child in children {
            switch q.kind(child) {
            case .usesClause, .type, .parameterList, .presentation:
                if let last = q.lastToken(child) { end = max(end ?? 0, q.tokens[last].end) }
            default:
                break
            }
        }
        guard let end, let last = q.lastToken(node), end < q.tokens[last].end else { return nil }
        return q.tokens[first].start..<end
    }

    /// The start of the `///` lines right above token `first` (only whitespace between), if any.
    static func docCommentStart(_ q: TreeQuery, before first: Int) -> Int? {
        var token = first - 1
        var start: Int? = nil
        while token >= 0 {
            let kind = q.tokens[token].kind
            if kind == .docComment {
                start = q.tokens[token].start
            } else if kind != .whitespace {
                break
            }
            token -= 1
        }
        return start
    }
}
