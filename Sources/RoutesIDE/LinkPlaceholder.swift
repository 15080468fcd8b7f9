import RoutesModel
import RoutesSyntax

/// A placeholder of a link, found at an offset in its pattern (`{id}`) or among the values of
/// its path (`Detail(id: id)`): a name local to the link, which definition, references and
/// rename follow.
struct LinkPlaceholder {
    var name: String
    /// Where the pattern names it (the name inside the braces); nil when the pattern does not
    /// (a name in the path that is no placeholder) or is not written verbatim.
    var definition: Range<Int>?
    /// Where the path uses it.
    var uses: [Range<Int>]
    /// Every other placeholder of the pattern.
    var others: [String]

    /// The placeholder at `offset` of file f, if there is one.
    static func find(project: Project, file f: FileID, offset: Int) -> LinkPlaceholder? {
        guard project.files.indices.contains(f) else { return nil }
        for declaration in project.files[f].model.declarations where declaration.kind == .link && declaration.range.contains(offset) {
            guard let link = declaration.link else { return nil }
            let inPattern = patternPlaceholders(link)
            let name: String
            if let hit = inPattern.first(where: { $0.range.lowerBound <= offset && offset <= $0.range.upperBound }) {
                name = hit.name
            } else if let use = link.placeholderUses.first(where: { $0.range.lowerBound <= offset && offset <= $0.range.upperBound }) {
                name = use.text
            } else {
                return nil
            }
            return LinkPlaceholder(name: name, definition: inPattern.first { $0.name == name }?.range,
                                   uses: link.placeholderUses.filter { $0.text == name }.map(\.range),
                                   others: inPattern.map(\.name).filter { $0 != name })
        }
        return nil
    }

    /// The placeholders of a link's pattern, with their names' places in the file (a pattern
    /// written with escapes gives none: its bytes are not the file's).
    static func patternPlaceholders(_ link: LinkDeclaration) -> [(name: String, range: Range<Int>)] {
        guard link.patternIsVerbatim, let pattern = link.parsedPattern else { return [] }
        return pattern.placeholderRanges.map { ($0.name, link.sourceRange(ofPatternBytes: $0.range)) }
    }

    /// Every place the name is written: the pattern's, then the path's.
    var occurrences: [Range<Int>] { (definition.map { [$0] } ?? []) + uses }
}
