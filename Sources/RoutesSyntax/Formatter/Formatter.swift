/// `routes fmt` and the editors' formatting requests: one canonical layout of a `.routes` file
/// (docs/formatting.md), made from its lossless syntax tree alone.
///
/// - Only whitespace changes, and the trailing spaces of comments: every other token, comment
///   and doc comment stays, in its order, with its text.
/// - A top-level declaration with a syntax error (or a line the parser skipped) is kept as
///   written, byte for byte, with every line it shares with other declarations; the rest of
///   the file is formatted.
/// - The result is checked before it is given out: parsed again, it must give the same tokens
///   in the same order, the same tree, the same syntax errors (but for their positions) and
///   the same lines for every `// routes:ignore` comment. A text that would not (possible only
///   around syntax errors, whose recovery reads layout) is refused, never changed in meaning.
///
/// `FormatEngine` (FormatEngine.swift) decides where lines break, `FormatEngine.realize`
/// (FormatLines.swift) writes the text with the comments and blank lines, and
/// `FormatCheck` (FormatCheck.swift) compares the result with the original.
public enum Formatter {
    /// The column limit: a block written on one line stays on one line when the line fits in
    /// this many columns (Unicode scalars, the indentation included).
    public static let lineWidth = 100
    /// Spaces per level of nesting.
    public static let indentWidth = 2

    /// The canonical layout of the whole file.
    public static func format(_ tree: SyntaxTree) throws(FormatRefusal) -> Formatted {
        let engine = try FormatEngine(tree)
        let out = engine.realize()
        return try finish(tree, out.bytes, verbatimRegions: engine.regions.count)
    }

    /// The canonical layout of the top-level declarations that intersect `range` (a byte range of
    /// the text; an empty range at an offset selects the declaration there); every other line
    /// stays as it is. Nothing is selected (the text is returned as it is) when the range
    /// touches no declaration.
    public static func format(_ tree: SyntaxTree, range: Range<Int>) throws(FormatRefusal) -> Formatted {
        let engine = try FormatEngine(tree)
        let out = engine.realize()
        guard let bytes = engine.splice(out, selecting: range) else {
            return Formatted(bytes: tree.source.bytes, tree: tree, changed: false, verbatimRegions: engine.regions.count)
        }
        return try finish(tree, bytes, verbatimRegions: engine.regions.count)
    }

    /// The verdict on a text made from `tree`'s (see the type's comment).
    static func finish(_ tree: SyntaxTree, _ bytes: [UInt8], verbatimRegions: Int? = nil) throws(FormatRefusal) -> Formatted {
        if bytes == tree.source.bytes {
            return Formatted(bytes: bytes, tree: tree, changed: false, verbatimRegions: verbatimRegions ?? 0)
        }
        let after = SyntaxTree.parse(SourceText(bytes: bytes))
        if let difference = FormatCheck.difference(tree, after) {
            let position = tree.source.position(of: difference.offset, encoding: .scalars)
            let place = "at \(position.line + 1):\(position.column + 1)"
            if tree.diagnostics.isEmpty {
                // A bug of the formatter: say so rather than change the file.
                throw FormatRefusal(reason: .internalError,
                                    message: "the formatted text would not parse as the original does \(place) (\(difference.what)); this is a bug of routes fmt, please report it")
            }
            throw FormatRefusal(reason: .changesMeaning,
                                message: "formatting around its syntax errors would change how they are read \(place) (\(difference.what)); fix the errors first")
        }
        return Formatted(bytes: bytes, tree: after, changed: true, verbatimRegions: verbatimRegions ?? 0)
    }
}

/// A formatted text.
public struct Formatted: Sendable {
    /// The formatted text.
    public let bytes: [UInt8]
    /// Its syntax tree (the original's when nothing changed): the same tokens as the
    /// original's in the same order, whitespace aside.
    public let tree: SyntaxTree
    /// Whether the text differs from the original.
    public let changed: Bool
    /// How many regions with syntax errors were kept as written.
    public let verbatimRegions: Int
}

/// Why a text was not formatted.
public struct FormatRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// The file holds bytes that are not UTF-8 (the tree has them repaired: writing it
        /// back would change them).
        case invalidUTF8
        /// Formatting around syntax errors would change how the parser recovers from them.
        case changesMeaning
        /// The formatter made a text that does not parse as the original (a bug).
        case internalError
    }

    public var reason: Reason
    public var message: String

    public init(reason: Reason, message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
