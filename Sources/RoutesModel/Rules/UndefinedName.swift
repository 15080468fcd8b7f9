import RoutesSyntax

/// `undefined-name`: a name that no declaration of the file or its imports has. Checked when
/// the project resolves each file's names (`Project.resolveNames`), which also remembers the
/// suggested declaration, so that a typo is one error and not also an unused declaration.
public enum UndefinedName: RuleDefinition {
    public static let id = RuleID("undefined-name")
    public static let severity = Severity.error
    public static let category = RuleCategory.names
    public static let summary = "A name is not declared in the file or its imports."
    public static let documentation = RuleDocumentation(
        what: """
            A screen, dependency, optional, flag or builder name that is declared neither in \
            the file nor in the files it imports. The message suggests the closest declared \
            name of the kind that fits the place (or one that ends with the name as a word of \
            its own, as `ItemDetail` after `Detail` was renamed); when none is close and a file that imports \
            this one sees a declaration of that very name (a library using what its app \
            declares), it names that file: a file sees only what it declares and imports. A \
            name that one `uses` list repeats is one entry: one error, at its first place.
            """,
        why: """
            A builder that names nothing builds nothing: the screen never appears, and the \
            routes around it are checked as if it were not there.
            """,
        example: """
            screen Home
            dependency catalogStore: CatalogStore
            root { screen Home uses catalogStor }
            """,
        fix: """
            Correct the spelling (the suggestion), declare the name, or import the file that \
            declares it.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            Use the suggested name (preferred), at every place of the `uses` list that \
            repeats it.
            """),
        RuleFix(.unsafe, """
            When the suggested declaration is used nowhere, rename it to the name written \
            instead (`screen Hoem` and `Home` at each place): preferred when the name is \
            written alike, and undefined, at two places or more; not offered when a file that \
            sees the declaration sees another of that name.
            """),
        RuleFix(.unsafe, """
            Write `as` before a `cover` or `popover` that comes right after a screen's \
            placement (`screen Pay cover` in an `anyOf` reads as a placement and a builder \
            named `cover`; the formatter may have put the word on a line of its own), on the \
            placement's line.
            """),
        RuleFix(.unsafe, """
            Declare the name in the file that uses it, after the declarations of its kind: a \
            `screen`, a `dependency` (without `from`, so it is in scope everywhere), an \
            `optional`, a `flag`, or a `builder` that builds `empty`. When a file that imports \
            this one declares it, that declaration is moved here instead, with its doc comment \
            and the comment after it on its line (it could not be seen from here, and a \
            second one would be a duplicate).
            """),
    ]

    public struct Finding: Sendable, Hashable {
        public var name: String
        /// The kinds the place accepts.
        public var expected: [DeclarationKind]
        /// The closest declared name of those kinds, if one is close enough.
        public var suggestion: String?
        /// Whether the name stands in a link's path for a placeholder of its pattern (the
        /// suggestion is then a placeholder).
        public var placeholder: Bool = false
        /// Without a suggestion: the file (as shown) that declares this very name where a file
        /// importing this one sees it, but this file does not.
        public var declaredIn: String? = nil
        /// A `cover` or `popover` that stands right after a screen's placement on its line
        /// (`screen Pay cover` in an `anyOf`, where a name after a placement is the next
        /// branch): that placement's text, whose presentation it likely is.
        public var presentationOf: String? = nil

        public init(name: String, expected: [DeclarationKind], suggestion: String?, placeholder: Bool = false) {
            self.name = name
            self.expected = expected
            self.suggestion = suggestion
            self.placeholder = placeholder
        }
    }

    /// The finding for `name` at a place that accepts `expected`, among `candidates` (the
    /// visible names of those kinds).
    public static func check(_ name: String, expected: [DeclarationKind], candidates: [String]) -> Finding {
        Finding(name: name, expected: expected, suggestion: Suggestion.closest(to: name, among: candidates))
    }

    public static func message(_ finding: Finding) -> String {
        var message = finding.placeholder
            ? "cannot find the placeholder `\(finding.name)` in the link's pattern (a value in a link's path is a literal or a placeholder `{\(finding.name)}` of the pattern)"
            : "cannot find \(finding.expected.map(\.rawValue).joined(separator: " or ")) `\(finding.name)` in scope"
        if let suggestion = finding.suggestion {
            message += "; did you mean `\(suggestion)`?"
        } else if let placement = finding.presentationOf {
            message += "; if it is the presentation of `\(placement)`, write `\(placement) as \(finding.name)`"
        } else if let declaredIn = finding.declaredIn {
            message += " (it is declared in \(declaredIn), which this file does not import: a file sees what it declares and imports)"
        }
        return message
    }

    /// The diagnostic at the name; its detail is the finding (with the suggestion).
    public static func diagnostic(_ finding: Finding, file: FileID, range: Range<Int>) -> Diagnostic {
        Diagnostic(Self.self, file: file, range: range, message: message(finding), detail: DiagnosticDetail(finding))
    }
}

extension RuleID {
    public static let undefinedName = UndefinedName.id
}
