import RoutesAnalysis
import RoutesModel

/// What fixes are computed from: the session whose diagnostics they fix, and where files
/// other than the project's are found when a fix is checked (see `FixCheck`).
public struct FixContext {
    public let session: AnalysisSession
    /// Asked for an import the project's own files do not answer: its canonical path, and
    /// the text of a file the project has not read (one an import's fix points at).
    let provider: SourceProvider?

    public init(session: AnalysisSession, provider: SourceProvider? = nil) {
        self.session = session
        self.provider = provider
    }

    public var project: Project { session.project }
}
