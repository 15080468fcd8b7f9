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
        let q = TreeQuery(source.syntax)
        let offset = q.clamp(offset)
        let whole = 0..<q.source.count
        guard !q.tokens.isEmpty else { return [whole] }
        var out: [Range<Int>] = []
        func add(_ r: Range<Int>) {
            if let last = out.last {
                guard r.lowerBound <= last.lowerBound, last.upperBound <= r.upperBound, r != last else { return }
            }
            out.append(r)
        }

        // The token under the cursor: a name-like one first (right of the cursor on a tie),
        // else one the cursor is inside, else the significant token ending at the cursor.
        var token: Int? = q.nameToken(at: offset)
        if token == nil {
            let i = q.tree.tokenIndex(at: offset)
            let t = q.tokens[i]
            if t.kind != .whitespace && t.kind != .eof && t.start <= offset && offset < t.end {
                token = i
            } else if i > 0, q.tokens[i - 1].end == offset, !q.tokens[i - 1].kind.isSkipped {
                token = i - 1
            }
        }
        // A line comment runs to the line's end, trailing blanks included: they are not in the
        // step, and the cursor among them is in whitespace.
        let bytes = source.text.bytes
        let at = token.map { t -> Range<Int> in
            var r = q.tokens[t].range
            while r.upperBound > r.lowerBound + 1, bytes[r.upperBound - 1] == 0x20 || bytes[r.upperBound - 1] == 0x09 || bytes[r.upperBound - 1] == 0x0D {
                r = r.lowerBound..<(r.upperBound - 1)
            }
            return offset <= r.upperBound ? r : offset..<offset
        } ?? offset..<offset
        if !at.isEmpty { add(at) }
        // The nodes around it (around the offset in whitespace), from the inside out.
        let path = q.ancestors(ofToken: token ?? q.tree.tokenIndex(at: offset))
        for node in path.reversed() {
            guard let first = q.firstToken(node), let last = q.lastToken(node) else { continue }
            let range = q.tokens[first].start..<q.tokens[last].end
            // A node's leading or trailing trivia is not in it.
            guard range.lowerBound <= at.lowerBound, at.upperBound <= range.upperBound else { continue }
            let kind = q.kind(node)
            if kind.isBuilder || isDeclaration(kind), let head = head(q, node: node, first: first),
               at.upperBound <= head.upperBound {
                add(head)
            }
            add(range)
            if isDeclaration(kind), let doc = docCommentStart(q, before: first) {
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
        for t in q.directTokens(node) {
            let k = q.tokens[t].kind
            if k == .lBrace { break }
            if k == .identifier || k == .kwRoot || (k.isKeyword && end == nil) { end = q.tokens[t].end }
            if k == .identifier { break }
        }
        for c in children {
            switch q.kind(c) {
            case .usesClause, .type, .parameterList, .presentation:
                if let last = q.lastToken(c) { end = max(end ?? 0, q.tokens[last].end) }
            default:
                break
            }
        }
        guard let end, let last = q.lastToken(node), end < q.tokens[last].end else { return nil }
        return q.tokens[first].start..<end
    }

    /// The start of the `///` lines right above token `first` (only whitespace between), if any.
    static func docCommentStart(_ q: TreeQuery, before first: Int) -> Int? {
        var t = first - 1
        var start: Int? = nil
        while t >= 0 {
            let k = q.tokens[t].kind
            if k == .docComment {
                start = q.tokens[t].start
            } else if k != .whitespace {
                break
            }
            t -= 1
        }
        return start
    }
}
