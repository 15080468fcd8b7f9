/// An item of a completion list.
public struct CompletionItem: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case keyword, snippet, screen, builder, dependency, optional, flag, link
        /// In a link's path: a parameter's label, a placeholder of the pattern.
        case label, placeholder
        /// In an import string: a `.routes` file, a folder.
        case file, folder
    }
    public var label: String
    public var kind: Kind
    /// One line shown beside the label (a type, "not in scope: …").
    public var detail: String?
    /// Markdown documentation (the doc comment).
    public var documentation: String?
    /// Orders items: in-scope names before the others.
    public var sortText: String?
    /// Text to insert when it differs from the label; a snippet when `isSnippet`.
    public var insertText: String?
    public var isSnippet: Bool

    public init(label: String, kind: Kind, detail: String? = nil, documentation: String? = nil,
                sortText: String? = nil, insertText: String? = nil, isSnippet: Bool = false) {
        self.label = label
        self.kind = kind
        self.detail = detail
        self.documentation = documentation
        self.sortText = sortText
        self.insertText = insertText
        self.isSnippet = isSnippet
    }
}
