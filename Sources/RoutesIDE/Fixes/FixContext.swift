import RoutesAnalysis
import RoutesModel

/// What fixes are computed from: the session whose diagnostics they fix, and where files
/// other than the project's are found when a fix is checked (see `FixCheck`).
public struct FixContext {
    public let session: AnalysisSession
    /// Asked for an import the project's own files do not answer: its canonical path, and
    /// the text of a file the project has not read (one an import's fix points at).
    let provider: SourceProvider?
    /// What the fixes of many diagnostics ask alike, worked out once per context.
    let memo = FixMemo()

    public init(session: AnalysisSession, provider: SourceProvider? = nil) {
        self.session = session
        self.provider = provider
    }

    public var project: Project { session.project }

    /// The declarations that a name outside their own declaration resolves to, or is guessed
    /// (a misspelling) to mean, in any file of the project: those whose removal would leave a
    /// use naming nothing. Worked out on the first question (a document of 50,000 unused
    /// declarations asks 50,000 times).
    var mentionedElsewhere: Set<Symbol> {
        if let known = memo.mentionedElsewhere { return known }
        let project = self.project
        var mentioned = Set<Symbol>()
        var importedBy: [[Int]]? = nil
        for fileID in project.files.indices {
            // Its own body (a builder that builds itself) may mention it.
            func own(_ symbol: Symbol, _ offset: Int) -> Bool {
                fileID == symbol.file && project.declaration(symbol).range.contains(offset)
            }
            for (offset, resolved) in project.resolutions[fileID] where !own(resolved, offset) { mentioned.insert(resolved) }
            for (offset, guessed) in project.guesses[fileID] where !own(guessed, offset) {
                mentioned.insert(guessed)
                // A name declared where the files importing this one see it: each such
                // declaration, whichever program the guess was made for.
                let name = project.declaration(guessed).name.text
                if project.scopes[fileID][name] == nil {
                    if importedBy == nil { importedBy = project.importedBy() }
                    for s in project.declarations(named: name, seenBy: project.importers(of: fileID, importedBy: importedBy!)) { mentioned.insert(s) }
                }
            }
        }
        memo.mentionedElsewhere = mentioned
        return mentioned
    }

    /// The kinds of declaration that a name somewhere in the project, undefined or of the
    /// wrong kind, stands at a place for: such a name may have been meant for a declaration
    /// of one of them that looks unused (`detailView` or `Detail` written for the builder
    /// `detail`).
    var kindsMeantByWrongNames: Set<DeclarationKind> {
        if let known = memo.kindsMeantByWrongNames { return known }
        var kinds = Set<DeclarationKind>()
        for d in session.diagnostics {
            if d.rule == .undefinedName, let finding = d.detail?.value(as: UndefinedName.Finding.self) {
                kinds.formUnion(finding.expected)
            } else if d.rule == .wrongKind, let finding = d.detail?.value(as: WrongKind.Finding.self) {
                kinds.formUnion(finding.expected)
            }
        }
        memo.kindsMeantByWrongNames = kinds
        return kinds
    }
}

/// The answers a `FixContext` keeps (a class: the context is passed by value).
final class FixMemo {
    var mentionedElsewhere: Set<Symbol>?
    var kindsMeantByWrongNames: Set<DeclarationKind>?
}
