import RoutesSyntax

/// `import-error`: an imported file is missing, unreadable, outside the workspace root, or
/// closes an import cycle. Checked while the project loads its files (`Project`).
public enum ImportError: RuleDefinition {
    public static let id = RuleID("import-error")
    public static let severity = Severity.error
    public static let category = RuleCategory.names
    public static let summary = "An imported file is missing, unreadable, outside the workspace, or closes an import cycle."
    public static let documentation = RuleDocumentation(
        what: """
            An `import "…"` whose file cannot be used: the path is empty, no file is there, \
            the file cannot be read (a directory, a device, too large, no permission), it lies \
            outside the workspace root (after symbolic links are resolved), or importing it \
            closes a cycle of imports. The error is at the import's string. The names that the \
            files seeing a failed import leave undefined are not reported one by one: the \
            error says how many there are.
            """,
        why: """
            The declarations of a file that is not imported are not in scope: every name that \
            would have come from it is unknown, and the routes that use them are not checked.
            """,
        example: """
            import "Payments.routes"
            screen Home
            root { screen Home }
            """,
        fix: """
            Point the path at the file, relative to the importing file. A cycle is broken by \
            moving what both files need into a third file that both import.
            """)
    public static let fixes = [
        RuleFix(.unsafe, """
            For a file not found: point the path at a file of the workspace with the same \
            name, relative to the importing file (preferred when there is one such file), or \
            at the file of that folder whose name the message suggests.
            """),
    ]

    /// Why an import cannot be used.
    public enum Problem: Sendable, Hashable {
        case emptyPath
        /// No file at the path; `shown` is the path as the user would write it, `suggestion`
        /// the path to a file of that folder with a close name, if one has it.
        case notFound(path: String, shown: String, suggestion: String? = nil)
        case outsideWorkspace(path: String)
        case unreadable(path: String, why: String)
        /// The files of the cycle, from the first back to it.
        case cycle(chain: [String])
    }

    public static func message(_ problem: Problem) -> String {
        switch problem {
        case .emptyPath: "the import path is empty"
        case .notFound(let path, let shown, let suggestion):
            "cannot find `\(path)` (no file at \(shown))" + (suggestion.map { "; did you mean `\($0)`?" } ?? "")
        case .outsideWorkspace(let path): "`\(path)` is outside the workspace root; imports cannot leave it"
        case .unreadable(let path, let why): "cannot read `\(path)`: \(why)"
        case .cycle(let chain): "import cycle: \(chain.joined(separator: " → "))"
        }
    }

    /// The diagnostic at the import's string (its detail is the problem); `unresolved` names of the files that see the
    /// import were left undefined by it (and are not reported one by one).
    public static func diagnostic(_ problem: Problem, file: FileID, range: Range<Int>, unresolved: Int = 0) -> Diagnostic {
        var text = message(problem)
        if unresolved > 0 {
            text += "; \(unresolved == 1 ? "1 name" : "\(unresolved) names") it would have declared \(unresolved == 1 ? "is" : "are") undefined, and not reported one by one"
        }
        return Diagnostic(Self.self, file: file, range: range, message: text, detail: DiagnosticDetail(problem))
    }
}

extension RuleID {
    public static let importError = ImportError.id
}
