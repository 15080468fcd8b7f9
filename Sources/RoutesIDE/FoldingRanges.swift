import RoutesModel
import RoutesSyntax

/// A range of lines an editor may fold.
public struct FoldingRange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case comment, imports, region
    }
    /// Zero-based lines, inclusive.
    public var startLine: Int
    public var endLine: Int
    public var kind: Kind?
}

extension IDE {
    /// Blocks spanning lines, runs of comment lines, and groups of imports.
    public static func foldingRanges(project: Project, file: FileID) -> [FoldingRange] {
        guard project.files.indices.contains(file) else { return [] }
        let source = project.files[file]
        let text = source.text
        let tokens = source.syntax.tokens
        var out: [FoldingRange] = []
        var open: [Int] = []  // lines of unmatched `{`
        var commentStart: Int? = nil
        var commentEnd = 0
        var importStart: Int? = nil
        var importEnd = 0
        func flushComments() {
            if let start = commentStart, commentEnd > start { out.append(FoldingRange(startLine: start, endLine: commentEnd, kind: .comment)) }
            commentStart = nil
        }
        for token in tokens {
            let line = text.line(containing: token.start)
            switch token.kind {
            case .lineComment, .docComment:
                if commentStart != nil, line == commentEnd + 1 || line == commentEnd {
                    commentEnd = line
                } else {
                    flushComments()
                    commentStart = line
                    commentEnd = line
                }
                continue
            case .whitespace, .byteOrderMark, .unknown:
                continue
            case .lBrace:
                open.append(line)
            case .rBrace:
                if let openLine = open.popLast(), line > openLine { out.append(FoldingRange(startLine: openLine, endLine: line - 1, kind: nil)) }
            case .kwImport where token.startsLine:
                if importStart == nil { importStart = line }
                importEnd = line
                // The path string is on the same line; keep the group open.
            default:
                break
            }
            flushComments()
            if token.kind != .kwImport && token.kind != .string, let start = importStart {
                if importEnd > start { out.append(FoldingRange(startLine: start, endLine: importEnd, kind: .imports)) }
                importStart = nil
            }
        }
        flushComments()
        return out.sorted { ($0.startLine, $0.endLine) < ($1.startLine, $1.endLine) }
    }
}
