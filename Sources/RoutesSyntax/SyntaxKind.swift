/// The kinds of syntax nodes.
public enum SyntaxKind: UInt8, Sendable, Hashable {
    case sourceFile
    case importDecl
    case screenDecl
    case parameterList
    case parameter
    case type
    case presentation
    case dependencyDecl
    case optionalDecl
    case flagDecl
    case builderDecl
    case rootDecl
    case fromClause
    /// `link NAME "PATTERN" -> PATH`.
    case linkDecl
    /// A link's path: elements separated by `/`.
    case linkPath
    /// One element of a link's path: a screen name and its arguments.
    case pathElement
    /// `label: value`, the value a literal or a placeholder's name.
    case pathArgument

    case block
    case screenBuilder
    case usesClause
    case anyOfBuilder
    case conditionalBuilder
    case ifLetBuilder
    case ifScreenBuilder
    case elseClause
    case wildcardBuilder
    case emptyBuilder
    case referenceBuilder

    /// Tokens the parser skipped, or a builder that a block cannot hold: kept in the tree,
    /// left out of the model.
    case error

    /// The kinds of path builders (what a block holds).
    @inlinable public var isBuilder: Bool {
        switch self {
        case .screenBuilder, .anyOfBuilder, .conditionalBuilder, .ifLetBuilder, .ifScreenBuilder,
             .wildcardBuilder, .emptyBuilder, .referenceBuilder:
            return true
        default:
            return false
        }
    }

    /// The kinds of top-level declarations.
    @inlinable public var isDeclaration: Bool {
        switch self {
        case .importDecl, .screenDecl, .dependencyDecl, .optionalDecl, .flagDecl, .builderDecl, .rootDecl, .linkDecl: return true
        default: return false
        }
    }
}
