import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// An argument that cannot be read, or a problem of a config file (exit status 2).
struct InputFailure {
    var path: String
    var message: String
    /// 0-based line and column, for a config problem.
    var position: (line: Int, column: Int)? = nil

    /// As stderr shows it.
    var text: String {
        if let position { return "\(path):\(position.line + 1):\(position.column + 1): error: \(message)" }
        return "routes: error: \(message)"
    }
}

/// What one lint run found, files in output order and diagnostics sorted by position.
struct LintReport {
    let project: Project
    /// File ids in output order: command-line order, then path. The files named (or found in
    /// named folders) and what they import; the other files of their workspaces are read for
    /// their programs, not reported.
    let fileOrder: [FileID]
    let diagnostics: [FileID: [Diagnostic]]
    let failures: [InputFailure]
    /// The analysis, held only so that it is freed by the process's exit rather than one
    /// array at a time (see `Lint.check`).
    private let session: AnalysisSession

    /// The fixes `--fix` applied (nil without it).
    let fixed: [FixedItem]?

    /// The files reported: the files named (or found in named folders) and what they import;
    /// every file when nil.
    static func reportedFiles(_ project: Project, named: [String]?) -> Set<FileID>? {
        guard let named else { return nil }
        var set = Set<FileID>()
        for path in named {
            guard let file = project.file(atPath: path) else { continue }
            set.formUnion(project.closures[file])
        }
        return set
    }

    /// `session`: the analysis of `project` when it is made already (by `--fix`).
    init(project: consuming Project, named: [String]? = nil, settings: [String: RuleSettings] = [:], failures: [InputFailure] = [],
         session given: AnalysisSession? = nil, fixed: [FixedItem]? = nil) {
        self.failures = failures
        self.fixed = fixed
        let reported = Self.reportedFiles(project, named: named)
        var byFile: [FileID: [Diagnostic]] = [:]
        let session: AnalysisSession
        if let given {
            session = given
        } else {
            session = AnalysisSession.forLint(project: consume project, reported: reported, settings: settings)
        }
        self.session = session
        // The session's: without the builder nodes a lint's analysis let go of.
        self.project = session.project
        for diagnostic in session.diagnostics where reported?.contains(diagnostic.file) ?? true { byFile[diagnostic.file, default: []].append(diagnostic) }
        // A program that contains a reported file and whose analysis stopped at a limit: its
        // error is reported too, at its `root` (in a file not named), as a lint that did not
        // check a file all the way must not read clean.
        var shown = reported
        if let reported {
            let closures = session.project.closures
            for diagnostic in session.diagnostics where diagnostic.rule == .analysisLimit && !reported.contains(diagnostic.file)
                && closures[diagnostic.file].contains(where: reported.contains) {
                byFile[diagnostic.file, default: []].append(diagnostic)
                shown?.insert(diagnostic.file)
            }
        }
        let files = session.project.files
        fileOrder = files.indices.filter { shown?.contains($0) ?? true }.sorted {
            let lhs = files[$0], rhs = files[$1]
            return (lhs.group, lhs.displayPath) < (rhs.group, rhs.displayPath)
        }
        for (file, list) in byFile {
            byFile[file] = list.sorted {
                ($0.range.lowerBound, $0.range.upperBound, $0.rule.rawValue, $0.message)
                    < ($1.range.lowerBound, $1.range.upperBound, $1.rule.rawValue, $1.message)
            }
        }
        diagnostics = byFile
    }

    var all: [Diagnostic] { fileOrder.flatMap { diagnostics[$0] ?? [] } }
    var errorCount: Int { all.filter { $0.severity == .error }.count }
    var warningCount: Int { all.filter { $0.severity == .warning }.count }

    func file(_ id: FileID) -> SourceFile { project.files[id] }

    /// "2 errors, 1 warning in 3 files".
    var summary: String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let counts = "\(plural(errorCount, "error")), \(plural(warningCount, "warning")) in \(plural(fileOrder.count, "file"))"
        return fixed.map { counts + " (\($0.count) fixed)" } ?? counts
    }
}
