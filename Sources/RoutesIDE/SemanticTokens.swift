import RoutesModel
import RoutesSyntax

/// A classified token for semantic highlighting.
public struct SemanticToken: Sendable, Hashable {
    /// The token types, in legend order (the LSP layer sends their names). A new type goes
    /// at the end (`link`, a link's name, came after the others).
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        case screen, builder, dependency, optional, flag, keyword, comment, string, number, type, parameter, link

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
            case .link: return "link"
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

extension IDE {
    /// Every token of a file worth colouring, in order: names by what they name (screen,
    /// builder, dependency, optional, flag, link), keywords (`link` at the start of a link
    /// too), comments, strings, numbers, types, parameter labels, and in a link's path its
    /// arguments' labels and the placeholders they take (parameters).
    public static func semanticTokens(project: Project, file: FileID) -> [SemanticToken] {
        guard project.files.indices.contains(file) else { return [] }
        let tree = project.files[file].syntax
        let names = nameTokens(project: project, file: file)
        let (typeTokens, labelTokens) = typeAndLabelTokens(tree)
        let contextualKeywords = contextualKeywordTokens(tree)
        let linkNames = linkNameTokens(tree)
        var out: [SemanticToken] = []
        out.reserveCapacity(tree.tokens.count / 2)
        for (index, token) in tree.tokens.enumerated() {
            let range = token.range
            switch token.kind {
            case .lineComment:
                out.append(SemanticToken(range: range, kind: .comment))
            case .docComment:
                out.append(SemanticToken(range: range, kind: .comment, modifiers: .documentation))
            case .string:
                out.append(SemanticToken(range: range, kind: .string))
            case .number:
                out.append(SemanticToken(range: range, kind: .number))
            case .identifier:
                if contextualKeywords.contains(index) {
                    out.append(SemanticToken(range: range, kind: .keyword))
                } else if linkNames.contains(index) {
                    out.append(SemanticToken(range: range, kind: .link, modifiers: .declaration))
                } else if labelTokens.contains(index) {
                    out.append(SemanticToken(range: range, kind: .parameter))
                } else if typeTokens.contains(index) {
                    out.append(SemanticToken(range: range, kind: .type))
                } else if let (kind, modifiers) = names[range.lowerBound] {
                    out.append(SemanticToken(range: range, kind: kind, modifiers: modifiers))
                }
            default:
                if token.kind.isKeyword {
                    out.append(SemanticToken(range: range, kind: labelTokens.contains(index) ? .parameter : .keyword))
                }
            }
        }
        return out
    }

    /// The token kind of a declaration's name (none for `root`).
    static func tokenKind(_ kind: DeclarationKind) -> SemanticToken.Kind? {
        switch kind {
        case .screen: return .screen
        case .builder: return .builder
        case .dependency: return .dependency
        case .optional: return .optional
        case .flag: return .flag
        case .root, .link: return nil
        }
    }

    /// Names by start offset: declarations, and uses by what they resolve to (unresolved when
    /// they do not, or resolve to a kind the place does not take).
    static func nameTokens(project: Project, file: FileID) -> [Int: (SemanticToken.Kind, SemanticToken.Modifiers)] {
        let model = project.files[file].model
        var names: [Int: (SemanticToken.Kind, SemanticToken.Modifiers)] = [:]
        for declaration in model.declarations {
            if let kind = tokenKind(declaration.kind) { names[declaration.name.range.lowerBound] = (kind, .declaration) }
        }
        for (name, expected) in model.nameUses {
            if let symbol = project.resolve(name, in: file), let kind = tokenKind(project.declaration(symbol).kind) {
                let isExpected = expected.contains(project.declaration(symbol).kind)
                names[name.range.lowerBound] = (kind, isExpected ? [] : .unresolved)
            } else if let first = expected.first, let kind = tokenKind(first) {
                names[name.range.lowerBound] = (kind, .unresolved)
            }
        }
        return names
    }

    /// The indices of the identifiers that are keywords where they stand: `as`, `cover` and
    /// `popover` in a presentation, `link` at the start of a link declaration.
    static func contextualKeywordTokens(_ tree: SyntaxTree) -> Set<Int> {
        var out = Set<Int>()
        for (index, node) in tree.nodes.enumerated() {
            switch node.kind {
            case .presentation:
                for token in tree.node(index).directTokens where tree.tokens[token].kind == .identifier {
                    if Keywords.isContextual(tree.source.text(tree.tokens[token].range)) { out.insert(token) }
                }
            case .linkDecl:
                if let first = tree.node(index).directTokens.first, tree.tokens[first].kind == .identifier { out.insert(first) }
            default:
                break
            }
        }
        return out
    }

    /// The indices of the links' names where they are declared (the name after `link`).
    static func linkNameTokens(_ tree: SyntaxTree) -> Set<Int> {
        var out = Set<Int>()
        for (index, node) in tree.nodes.enumerated() where node.kind == .linkDecl {
            let tokens = tree.node(index).directTokens
            guard tokens.count >= 2, tree.tokens[tokens[0]].kind == .identifier, tree.tokens[tokens[1]].kind == .identifier else { continue }
            out.insert(tokens[1])
        }
        return out
    }

    /// The indices of the tokens that are types, and of those that are parameter labels.
    static func typeAndLabelTokens(_ tree: SyntaxTree) -> (types: Set<Int>, labels: Set<Int>) {
        var typeTokens = Set<Int>()
        var labelTokens = Set<Int>()
        for (index, node) in tree.nodes.enumerated() {
            switch node.kind {
            case .type:
                for token in Int(node.tokenStart)..<Int(node.tokenEnd) where tree.tokens[token].kind == .identifier { typeTokens.insert(token) }
            case .parameter:
                if let first = tree.node(index).directTokens.first { labelTokens.insert(first) }
            case .pathArgument:
                // `id: id` in a link's path: the label, and the placeholder the value names.
                let tokens = tree.node(index).directTokens
                if let first = tokens.first { labelTokens.insert(first) }
                if tokens.count >= 3, tree.tokens[tokens[1]].kind == .colon, tree.tokens[tokens[2]].kind == .identifier {
                    labelTokens.insert(tokens[2])
                }
            case .presentation:
                // `allowsPush` is a label; `as`, `cover` and `popover` are keywords (below).
                for token in tree.node(index).directTokens where tree.tokens[token].kind == .identifier {
                    if !Keywords.isContextual(tree.source.text(tree.tokens[token].range)) { labelTokens.insert(token) }
                }
            default:
                break
            }
        }
        return (typeTokens, labelTokens)
    }
}
