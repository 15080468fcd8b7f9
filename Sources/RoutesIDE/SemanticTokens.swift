import RoutesModel
import RoutesSyntax

/// A classified token for semantic highlighting.
public struct SemanticToken: Sendable, Hashable {
    /// The token types, in legend order (the LSP layer sends their names).
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        case screen, builder, dependency, optional, flag, keyword, comment, string, number, type, parameter

        public var legendName: String {
            switch self {
            case .screen: return "screen"
            case .builder: return "builder"
            case .dependency: return "dependency"
            case .optional: return "optional"
            case .flag: return "flag"
            case .keyword: return "keyword"
            case .comment: return "comment"
            case .string: return "string"
            case .number: return "number"
            case .type: return "type"
            case .parameter: return "parameter"
            }
        }
    }

    /// Modifier bits, in legend order.
    public struct Modifiers: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The declaring occurrence of a name.
        public static let declaration = Modifiers(rawValue: 1 << 0)
        /// A `///` doc comment.
        public static let documentation = Modifiers(rawValue: 1 << 1)
        /// A name that does not resolve (or resolves to the wrong kind).
        public static let unresolved = Modifiers(rawValue: 1 << 2)

        public static let legendNames = ["declaration", "documentation", "unresolved"]
    }

    public var range: Range<Int>
    public var kind: Kind
    public var modifiers: Modifiers

    public init(range: Range<Int>, kind: Kind, modifiers: Modifiers = []) {
        self.range = range
        self.kind = kind
        self.modifiers = modifiers
    }
}

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
    /// Every token of a file worth colouring, in order: names by what they name (screen,
    /// builder, dependency, optional, flag), keywords, comments, strings, numbers, types and
    /// parameter labels.
    public static func semanticTokens(project: Project, file: FileID) -> [SemanticToken] {
        guard project.files.indices.contains(file) else { return [] }
        let source = project.files[file]
        let tree = source.syntax
        let model = source.model
        // Names by start offset: declarations and resolved uses.
        var names: [Int: (SemanticToken.Kind, SemanticToken.Modifiers)] = [:]
        func kind(_ k: DeclarationKind) -> SemanticToken.Kind? {
            switch k {
            case .screen: return .screen
            case .builder: return .builder
            case .dependency: return .dependency
            case .optional: return .optional
            case .flag: return .flag
            case .root: return nil
            }
        }
        for d in model.declarations {
            if let k = kind(d.kind) { names[d.name.range.lowerBound] = (k, .declaration) }
        }
        for (name, expected) in model.nameUses {
            if let s = project.resolve(name, in: file), let k = kind(project.declaration(s).kind) {
                let ok = expected.contains(project.declaration(s).kind)
                names[name.range.lowerBound] = (k, ok ? [] : .unresolved)
            } else if let first = expected.first, let k = kind(first) {
                names[name.range.lowerBound] = (k, .unresolved)
            }
        }
        // Types and parameter labels, from the tree.
        var typeTokens = Set<Int>()
        var labelTokens = Set<Int>()
        for (i, n) in tree.nodes.enumerated() {
            switch n.kind {
            case .type:
                for t in Int(n.tokenStart)..<Int(n.tokenEnd) where tree.tokens[t].kind == .identifier { typeTokens.insert(t) }
            case .parameter:
                let node = tree.node(i)
                if let first = node.directTokens.first { labelTokens.insert(first) }
            case .presentation:
                let node = tree.node(i)
                if let t = node.firstToken(.identifier) { labelTokens.insert(t) }
            default:
                break
            }
        }
        var out: [SemanticToken] = []
        out.reserveCapacity(tree.tokens.count / 2)
        for (i, t) in tree.tokens.enumerated() {
            let r = t.range
            switch t.kind {
            case .lineComment:
                out.append(SemanticToken(range: r, kind: .comment))
            case .docComment:
                out.append(SemanticToken(range: r, kind: .comment, modifiers: .documentation))
            case .string:
                out.append(SemanticToken(range: r, kind: .string))
            case .number:
                out.append(SemanticToken(range: r, kind: .number))
            case .identifier:
                if labelTokens.contains(i) {
                    out.append(SemanticToken(range: r, kind: .parameter))
                } else if typeTokens.contains(i) {
                    out.append(SemanticToken(range: r, kind: .type))
                } else if let (k, m) = names[r.lowerBound] {
                    out.append(SemanticToken(range: r, kind: k, modifiers: m))
                }
            default:
                if t.kind.isKeyword {
                    out.append(SemanticToken(range: r, kind: labelTokens.contains(i) ? .parameter : .keyword))
                }
            }
        }
        return out
    }

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
            if let s = commentStart, commentEnd > s { out.append(FoldingRange(startLine: s, endLine: commentEnd, kind: .comment)) }
            commentStart = nil
        }
        for (i, t) in tokens.enumerated() {
            let line = text.line(containing: t.start)
            switch t.kind {
            case .lineComment, .docComment:
                if let s = commentStart, line == commentEnd + 1 || line == commentEnd {
                    _ = s
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
                if let s = open.popLast(), line > s { out.append(FoldingRange(startLine: s, endLine: line - 1, kind: nil)) }
            case .kwImport where t.startsLine:
                if importStart == nil { importStart = line }
                importEnd = line
                // The path string is on the same line; keep the group open.
                _ = i
            default:
                break
            }
            flushComments()
            if t.kind != .kwImport && t.kind != .string, let s = importStart {
                if importEnd > s { out.append(FoldingRange(startLine: s, endLine: importEnd, kind: .imports)) }
                importStart = nil
            }
        }
        flushComments()
        return out.sorted { ($0.startLine, $0.endLine) < ($1.startLine, $1.endLine) }
    }
}
