import RoutesModel
import RoutesSyntax

/// Formatting (docs/formatting.md) as text edits of a project's file: the whole file, the
/// declarations in a range, or the block a typed `}` closed. The layout and its checks are
/// `Formatter`'s (RoutesSyntax); these only pick the file and turn bytes into edits.
extension IDE {
    /// Edits giving the file the canonical layout: one per run of whitespace that changes.
    /// Throws when the file cannot be formatted without changing its meaning.
    public static func formatting(project: Project, file: FileID) throws(FormatRefusal) -> [TextEdit] {
        guard project.files.indices.contains(file) else { return [] }
        let tree = project.files[file].syntax
        return textEdits(try Formatter.format(tree).edits(from: tree))
    }

    /// Edits giving the canonical layout to the top-level declarations that `range` touches.
    public static func rangeFormatting(project: Project, file: FileID, range: Range<Int>) throws(FormatRefusal) -> [TextEdit] {
        guard project.files.indices.contains(file) else { return [] }
        let tree = project.files[file].syntax
        let lo = max(0, min(range.lowerBound, tree.source.count)), hi = max(lo, min(range.upperBound, tree.source.count))
        return textEdits(try Formatter.format(tree, range: lo..<hi).edits(from: tree))
    }

    /// Edits laying out the block that the `}` just before `offset` closes (none when there is
    /// no `}` there, or nothing to change).
    public static func onTypeFormatting(project: Project, file: FileID, offset: Int) -> [TextEdit] {
        guard project.files.indices.contains(file) else { return [] }
        return textEdits(Formatter.formatBlock(project.files[file].syntax, closedBefore: offset))
    }

    static func textEdits(_ edits: [ByteEdit]) -> [TextEdit] {
        edits.map { TextEdit(range: $0.range, newText: String(decoding: $0.replacement, as: UTF8.self)) }
    }
}
