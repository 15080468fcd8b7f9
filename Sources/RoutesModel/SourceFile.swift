import Synchronization
import RoutesSyntax

/// One parsed and lowered file of a project.
public struct SourceFile: Sendable {
    public let id: FileID
    /// Canonical absolute path (symbolic links resolved): the file's identity.
    public let path: String
    /// How the file is shown to the user: as given on the command line, or the importer's
    /// display directory joined with the import string.
    public let displayPath: String
    /// Sort group for output (the command-line argument that brought the file in).
    public let group: Int
    /// The canonical workspace root its imports may not leave.
    public let workspaceRoot: String
    /// The syntax tree as the project holds it: without its tokens and nodes when the project
    /// dropped them, and with an empty text when it did not keep the text (see
    /// ``Project/keeps``);
    /// its syntax errors are there either way. Read the text as ``text``.
    public let keptSyntax: SyntaxTree
    public private(set) var model: FileModel
    /// The tree parsed again, when the project dropped it and it was asked for.
    private let reparsed: ReparsedSyntax?
    /// The text read again, when the project did not keep it and it was asked for.
    @usableFromInline let readAgain: TextReadAgain?

    public init(id: FileID, path: String, displayPath: String, group: Int, workspaceRoot: String, syntax: SyntaxTree,
                model: FileModel) {
        self.init(id: id, path: path, displayPath: displayPath, group: group, workspaceRoot: workspaceRoot,
                  syntax: syntax, model: model, readAgain: nil)
    }

    init(id: FileID, path: String, displayPath: String, group: Int, workspaceRoot: String, syntax: SyntaxTree,
         model: FileModel, readAgain: TextReadAgain?) {
        self.id = id
        self.path = path
        self.displayPath = displayPath
        self.group = group
        self.workspaceRoot = workspaceRoot
        keptSyntax = syntax
        self.model = model
        reparsed = syntax.hasTokens ? nil : ReparsedSyntax()
        self.readAgain = readAgain
    }

    /// The same file with another model.
    func replacingModel(_ model: FileModel) -> SourceFile {
        var copy = self
        copy.model = model
        return copy
    }

    /// The file's syntax tree. When the project dropped it, it is parsed again at the first
    /// question (the same tree: parsing is deterministic) and kept with the file from then on.
    public var syntax: SyntaxTree {
        guard let reparsed else { return keptSyntax }
        return reparsed.tree(of: text, file: id)
    }

    /// The file's text. When the project did not keep it, it is read again at the first
    /// question and kept with the file from then on (see `isTextChangedSinceRead`).
    /// (Inlinable, so that reading a kept text does not copy the whole file value.)
    @inlinable public var text: SourceText {
        if let readAgain { return readAgain.text }
        return keptSyntax.source
    }

    /// Whether the project kept the text (see ``Project/keeps``).
    @inlinable public var keepsText: Bool { readAgain == nil }

    /// Whether the text was read again (tests: only the files a lint reports on need it).
    public var isTextReadAgain: Bool { readAgain?.isRead ?? false }

    /// Whether the text read again was not the text first read: the file changed on disk in
    /// between, and what was found in it is not about what is there now.
    public var isTextChangedSinceRead: Bool { readAgain?.isChanged ?? false }

    /// Whether the project dropped the tree and it has been parsed again since (tests: an
    /// analysis must not need it).
    public var isSyntaxParsedAgain: Bool { reparsed?.isParsed ?? false }
}
