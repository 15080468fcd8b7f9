import ArgumentParser
import RoutesAnalysis
import RoutesModel
import RoutesSyntax

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check .routes files and report diagnostics.",
        discussion: """
            Checks each file once, as part of the programs (a file declaring `root` and its \
            imports) that contain it. Exit status: 0 when there are no errors (and no \
            warnings under --deny-warnings), 1 when there are, 2 for bad usage or an \
            argument that cannot be read.
            """
    )

    @Argument(help: "Files or directories (searched recursively for *.routes).")
    var paths: [String] = ["."]

    @Option(help: "Output format: text, json or sarif.")
    var format: OutputFormat = .text

    @Option(help: "Colour the text output: auto, always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Exit with status 1 when there are warnings too.")
    var denyWarnings = false

    @Option(name: .customLong("root"), help: "Workspace root that imports may not leave (default: the current directory when the paths lie inside it, else each path's directory).")
    var root: String?

    /// Checked here rather than in `run()`, so that a bad `--root` prints `lint`'s usage.
    func validate() throws {
        try validateRoot(root)
    }

    func run() throws {
        try Lint.check(paths: paths, format: format, color: color, denyWarnings: denyWarnings, root: root)
    }

    /// The lint itself; never returns (the process exits with the lint's status).
    static func check(paths: [String], format: OutputFormat, color: ColorChoice, denyWarnings: Bool, root: String?) throws -> Never {
        let provider = FileSystemProvider()
        let inputs = try Inputs(paths: paths, root: root, provider: provider)
        for failure in inputs.failures {
            Terminal.writeError("routes: error: \(failure)\n")
        }
        let project = Project(entries: inputs.entries, provider: provider)
        for (path, why) in project.unreadableEntries {
            Terminal.writeError("routes: error: cannot read '\(path)': \(why)\n")
        }
        let report = LintReport(project: project)

        switch format {
        case .text:
            let useColor = color == .always || (color == .auto && Terminal.stdoutSupportsColor)
            Terminal.write(TextRenderer(report: report, style: Style(enabled: useColor)).render())
        case .json:
            Terminal.write(JSONRenderer.render(report) + "\n")
        case .sarif:
            Terminal.write(SARIFRenderer.render(report) + "\n")
        }

        let status: Int32 = !inputs.failures.isEmpty || !project.unreadableEntries.isEmpty ? 2
            : report.errorCount > 0 || (denyWarnings && report.warningCount > 0) ? 1 : 0
        // Leave while the project and its analysis are still alive: freeing tens of thousands
        // of arrays one by one took about 6% of a lint, for memory the process returns anyway.
        // (Output is written unbuffered, so nothing is lost.)
        withExtendedLifetime((project, report)) { Terminal.terminate(status) }
    }
}

/// What one lint run found, files in output order and diagnostics sorted by position.
struct LintReport {
    let project: Project
    /// File ids in output order: command-line order, then path.
    let fileOrder: [FileID]
    let diagnostics: [FileID: [Diagnostic]]
    /// The analysis, held only so that it is freed by the process's exit rather than one
    /// array at a time (see `Lint.check`).
    private let session: AnalysisSession

    init(project: Project) {
        self.project = project
        fileOrder = project.files.indices.sorted {
            let a = project.files[$0], b = project.files[$1]
            return (a.group, a.displayPath) < (b.group, b.displayPath)
        }
        var byFile: [FileID: [Diagnostic]] = [:]
        // A workspace of many programs drops each program's analysis once its diagnostics
        // are out, so that the lint's memory is that of its largest program. One program (and
        // the files in none) is kept to the end instead: the lint exits without freeing it,
        // which spares about 2% of a large lint.
        let session = AnalysisSession(project: project, keepsAnalyses: project.programs.count <= 1)
        self.session = session
        for d in session.diagnostics { byFile[d.file, default: []].append(d) }
        for (f, list) in byFile {
            byFile[f] = list.sorted {
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
        return "\(plural(errorCount, "error")), \(plural(warningCount, "warning")) in \(plural(fileOrder.count, "file"))"
    }
}
