import RoutesModel
import RoutesSyntax

/// A range in a file of the project. Offsets are bytes into the file's `SourceText`.
public struct SourceLocation: Sendable, Hashable {
    public var file: FileID
    public var range: Range<Int>
    public init(file: FileID, range: Range<Int>) {
        self.file = file
        self.range = range
    }
}

/// Replace `range` (bytes) of a file by `newText`.
public struct TextEdit: Sendable, Hashable {
    public var range: Range<Int>
    public var newText: String
    public init(range: Range<Int>, newText: String) {
        self.range = range
        self.newText = newText
    }
}

public struct CompletionItem: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case keyword, snippet, screen, builder, dependency, optional, flag
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

public struct HoverInfo: Sendable, Hashable {
    /// Markdown.
    public var markdown: String
    /// The name or node hovered.
    public var range: Range<Int>
    public init(markdown: String, range: Range<Int>) {
        self.markdown = markdown
        self.range = range
    }
}

public struct DocumentSymbol: Sendable, Hashable {
    /// LSP symbol kinds used here: screen → struct, builder and root → function, dependency
    /// and optional → variable, flag → boolean.
    public enum Kind: Int, Sendable, Hashable {
        case function = 12
        case variable = 13
        case boolean = 17
        case `struct` = 23
    }
    public var name: String
    public var kind: Kind
    public var detail: String?
    /// The whole declaration.
    public var range: Range<Int>
    /// The name.
    public var selectionRange: Range<Int>
    public var children: [DocumentSymbol]

    public init(name: String, kind: Kind, detail: String? = nil, range: Range<Int>, selectionRange: Range<Int>,
                children: [DocumentSymbol] = []) {
        self.name = name
        self.kind = kind
        self.detail = detail
        self.range = range
        self.selectionRange = selectionRange
        self.children = children
    }
}

/// Why a rename cannot be done.
public struct RenameError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
