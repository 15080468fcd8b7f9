import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// Everything an editor can do, as plain functions over a project (or its analysis), a file
/// and a byte offset into that file's `SourceText`. The language server only translates
/// positions and JSON; tests call these with strings.
///
/// Every function accepts any offset (it is clamped to the text) and any text, however
/// half-written, and answers nothing rather than failing when it cannot help.
public enum IDE {
    /// Completion items at `offset` (README.md, `routes lsp`). Works on half-written text: the
    /// context is read from the tokens before the cursor and the (recovered) tree around them.
    /// The items replace ``wordRange(project:file:offset:)``. Inside an import string, the
    /// `.routes` files and folders of the folder typed so far, listed by `directories`.
    public static func completions(session: AnalysisSession, file: FileID, offset: Int, snippets: Bool,
                                   directories: (any DirectoryLister)? = nil) -> [CompletionItem] {
        Completion.items(session: session, file: file, offset: offset, snippets: snippets, directories: directories)
    }

    /// The byte range a completion item replaces: the whole identifier or keyword the cursor
    /// is in or right after (from its first byte to its last, also when the cursor is in its
    /// middle); an empty range at the cursor when there is none (the cursor after a space or
    /// punctuation, or at the start of a word). In an import string, the part of the path
    /// segment (between `/`s) before the cursor.
    public static func wordRange(project: Project, file: FileID, offset: Int) -> Range<Int> {
        guard project.files.indices.contains(file) else { return 0..<0 }
        let query = TreeQuery(project.files[file].syntax)
        return Completion.wordRange(query, query.clamp(offset))
    }

    /// The range a completion item may replace when the client can choose between inserting
    /// and replacing (LSP's `InsertReplaceEdit`): ``wordRange(project:file:offset:)``, extended
    /// over the identifier or keyword the cursor stands at the start of. Inserting keeps that
    /// word; replacing swaps it for the item.
    public static func replaceRange(project: Project, file: FileID, offset: Int) -> Range<Int> {
        guard project.files.indices.contains(file) else { return 0..<0 }
        let query = TreeQuery(project.files[file].syntax)
        return Completion.replaceRange(query, query.clamp(offset))
    }

    /// Markdown for the name, keyword or import string at `offset`: kind, declaration, doc
    /// comment, and what the analysis knows (an example path for screens, the tree a builder
    /// builds, where a dependency comes from).
    public static func hover(session: AnalysisSession, file: FileID, offset: Int) -> HoverInfo? {
        Hover.info(session: session, file: file, offset: offset)
    }

    /// Where the name at `offset` is declared (itself on a declaration); the imported file
    /// (offset 0) on an import string.
    public static func definition(project: Project, file: FileID, offset: Int) -> [SourceLocation] {
        definitionImpl(project: project, file: file, offset: offset)
    }

    /// Every use of the symbol at `offset` in the project, resolved by symbol (a name that
    /// means another declaration elsewhere is not included); the declaration first when
    /// `includeDeclaration`. Then by file and position.
    public static func references(project: Project, file: FileID, offset: Int, includeDeclaration: Bool) -> [SourceLocation] {
        referencesImpl(project: project, file: file, offset: offset, includeDeclaration: includeDeclaration)
    }

    /// The name at `offset` and its text when it can be renamed: a declared screen,
    /// dependency, optional, flag or builder, at its declaration or at a use. Not keywords,
    /// `root`, import strings, parameter labels or undeclared names.
    public static func prepareRename(project: Project, file: FileID, offset: Int) -> (range: Range<Int>, placeholder: String)? {
        prepareRenameImpl(project: project, file: file, offset: offset)
    }

    /// Edits renaming the symbol at `offset`: its declaration and every use, across files.
    /// Each edit replaces exactly one name token. Refuses an invalid identifier, a keyword, or
    /// a name that another declaration already has in a file that sees this one.
    public static func rename(project: Project, file: FileID, offset: Int, newName: String) throws(RenameError) -> [FileID: [TextEdit]] {
        try renameImpl(project: project, file: file, offset: offset, newName: newName)
    }

    /// The declarations of a file, in source order: screen → struct (detail: presentation),
    /// builder and root → function, dependency and optional → variable (detail: type),
    /// flag → boolean.
    public static func documentSymbols(project: Project, file: FileID) -> [DocumentSymbol] {
        documentSymbolsImpl(project: project, file: file)
    }
}
