import ArgumentParser
import CMalloc
import RoutesAnalysis
import RoutesModel
import RoutesSyntax
import RoutesWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif, github
}

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check .routes files and report diagnostics.",
        discussion: """
            Checks each file once, as part of the programs of its workspace (a file declaring \
            `root` and its imports) that contain it. A file's workspace is the nearest folder \
            upward holding routes.json, else .git. `-` reads the text from standard input. \
            --fix applies the safe fixes (and --unsafe-fixes the others), rewriting the files \
            they change, and reports what remains; with `-`, the fixed text goes to standard \
            output and the report to standard error. \
            Exit status: 0 when there are no errors (and no warnings under --deny-warnings or \
            `denyWarnings` in routes.json), 1 when there are, 2 for bad usage, an argument \
            that cannot be read or a routes.json with problems.
            """
    )

    @Argument(help: "Files or directories (searched recursively for *.routes); `-` for standard input.")
    var paths: [String] = ["."]

    @Option(help: "Output format: text, json, sarif or github (GitHub Actions workflow commands).")
    var format: OutputFormat = .text

    @Option(help: "Colour the text output: auto, always or never.")
    var color: ColorChoice = .auto

    @Flag(help: "Exit with status 1 when there are warnings too.")
    var denyWarnings = false

    @Option(name: .customLong("root"), help: "Workspace root that imports may not leave (default: the nearest folder upward holding routes.json, else .git; else the current directory when the paths lie inside it, else each path's directory).")
    var root: String?

    @Option(name: .customLong("stdin-filename"), help: "The path of the text read from standard input (`-`): for messages, the workspace root and relative imports.")
    var stdinFilename: String?

    @Option(name: .customLong("output-file"), help: "Write the report to this file instead of standard output.")
    var outputFile: String?

    @Flag(help: "Apply the safe fixes and rewrite the files they change; report what remains.")
    var fix = false

    @Flag(name: .customLong("unsafe-fixes"), help: "With --fix, apply the unsafe fixes too (they may change what the app builds).")
    var unsafeFixes = false

    /// Checked here rather than in `run()`, so that a bad `--root` prints `lint`'s usage.
    func validate() throws {
        try validateRoot(root)
        if stdinFilename != nil && !paths.contains("-") {
            throw ValidationError("--stdin-filename names the text of `-`: add `-` to the paths")
        }
        if paths.filter({ $0 == "-" }).count > 1 { throw ValidationError("`-` (standard input) can be given once") }
        if unsafeFixes && !fix { throw ValidationError("--unsafe-fixes applies fixes with --fix: add --fix") }
    }

    func run() throws {
        try Lint.check(paths: paths, format: format, color: color, denyWarnings: denyWarnings, root: root,
                       stdinFilename: stdinFilename, outputFile: outputFile, fix: fix ? (unsafeFixes ? .unsafe : .safe) : nil)
    }

    /// The lint itself; never returns (the process exits with the lint's status).
    /// With `fix`, the fixes of that applicability (and the safe ones) are applied first (see
    /// `LintFixer`), and the report is of what remains.
    static func check(paths: [String], format: OutputFormat, color: ColorChoice, denyWarnings: Bool, root: String?,
                      stdinFilename: String? = nil, outputFile: String? = nil, fix: FixApplicability? = nil) throws -> Never {
        Profile.mark("started")
        // Most of what a lint holds is written once, in fresh pages: in 2 MiB ones, it faults
        // far less often (see heap.c).
        if routes_heap_prefer_huge_pages(64 << 20) == 1 { Profile.mark("heap: in huge pages") }
        // The helper threads started now, while the workspace is found: the files are read
        // and parsed on every core next (see `Helpers`).
        _ = Helpers.shared
        var provider = OverlayFileSystem()
        var stdin: LintInputs.Stdin? = nil
        var stdinPath: String? = nil
        var paths = paths
        var stdinFailure: InputFailure? = nil
        if paths.contains("-") {
            switch standardInput() {
            case .read(let bytes):
                stdin = LintInputs.Stdin(displayPath: stdinFilename ?? "stdin.routes", bytes: bytes)
                let path = LintInputs.path(ofStdin: stdin!, cwd: currentDirectory(), provider: provider)
                provider.files[path] = bytes
                stdinPath = path
            case .unreadable(let why):
                // Reported as a path that cannot be read is: the other paths are still linted.
                stdinFailure = InputFailure(path: "-", message: "cannot read standard input: \(why)")
                paths.removeAll { $0 == "-" }
            }
        }
        let fixedRoot = root.flatMap { provider.canonicalPath($0) }
        let inputs = LintInputs(paths: paths, fixedRoot: fixedRoot, stdin: stdin, cwd: currentDirectory(), provider: provider)
        Profile.mark("the workspace found: its files and settings")
        var failures = (stdinFailure.map { [$0] } ?? []) + inputFailures(inputs, provider: provider)
        var fixer: LintFixer? = nil
        let project: Project
        var session: AnalysisSession? = nil
        if let fix {
            (project, session, fixer) = applyFixes(inputs, provider: provider, unsafe: fix == .unsafe, stdinPath: stdinPath,
                                                   failures: &failures)
        } else {
            // Nothing after the analysis reads the syntax trees, the doc comments, the
            // signatures or most scopes, and only the files reported on are read for their
            // texts: each file keeps its model without them, and its text is read again if it
            // is asked for.
            project = Project.forLint(entries: inputs.entries, provider: provider)
        }
        for (path, why) in project.unreadableEntries {
            failures.append(InputFailure(path: path, message: "cannot read '\(path)': \(why)"))
        }
        // Given up: the analysis lets go of what it no longer needs of the project.
        let report = LintReport(project: consume project, named: inputs.named, settings: inputs.settings, failures: failures,
                                session: session, fixed: fixer?.fixed)
        Profile.mark("the analysis and its report")
        if format != .github {
            for failure in failures { Terminal.writeError("\(failure.text)\n") }
        }
        // With `-` and --fix, standard output carries the fixed text; the report goes to
        // standard error (or the output file).
        // (The bytes read when no fix changed them: a text that is not valid UTF-8 was read
        // with replacement characters, and goes back as it came.)
        let fixedStdin = stdin.flatMap { stdin in fixer.map { $0.fixedStdin ?? stdin.bytes } }
        if let left = fixer?.unsafeFixesLeft, left > 0, format == .text || format == .github {
            Terminal.writeError("routes: \(left) more \(left == 1 ? "fix is" : "fixes are") available with `--fix --unsafe-fixes` (unsafe fixes may change what the app builds: review them)\n")
        }
        let output = render(report, format: format, color: color, toFile: outputFile != nil)
        stopIfChangedWhileChecked(report)
        writeReport(output, to: outputFile, besideFixedText: fixedStdin != nil)
        Profile.mark("the report written")
        if let fixedStdin { _ = FileDescriptor.writeAll(fixedStdin, to: 1) }

        let deny = denyWarnings || inputs.denyWarnings
        let status: Int32 = !failures.isEmpty ? 2
            : report.errorCount > 0 || (deny && report.warningCount > 0) ? 1 : 0
        // Leave while the project and its analysis are still alive: freeing tens of thousands
        // of arrays one by one took about 6% of a lint, for memory the process returns anyway.
        // (Output is written unbuffered, so nothing is lost.)
        withExtendedLifetime(report) { Terminal.terminate(status) }
    }

    /// The paths that cannot be read and the problems of the config files (with the warnings
    /// of workspaces whose scan stopped written at once).
    static func inputFailures(_ inputs: LintInputs, provider: OverlayFileSystem) -> [InputFailure] {
        var failures = inputs.failures.map { InputFailure(path: $0.path, message: "cannot read '\($0.path)': \($0.message)") }
        // A config's path as the user would write it: relative to the current folder when inside it.
        let cwd = provider.canonicalPath(currentDirectory()) ?? currentDirectory()
        for root in inputs.incompleteScans {
            Terminal.writeError("routes: warning: stopped looking for the other .routes files of the workspace \(root) after \(LintInputs.scanLimit) directory entries: files past them are not part of the programs checked (a routes.json marks the workspace's own folder as its root)\n")
        }
        for problem in inputs.configProblems {
            let shown = PathUtil.isInside(problem.path, root: cwd) && cwd != "/" ? String(problem.path.dropFirst(cwd.count + 1)) : problem.path
            failures.append(InputFailure(path: shown, message: problem.message, position: (problem.line, problem.column)))
        }
        return failures
    }

    /// `--fix`: the rounds of fixes, with their warnings written; the files written, with the
    /// failures to write them added to `failures`. Returns the last project, its analysis and
    /// the fixer (what it fixed, the fixed text of the standard input).
    static func applyFixes(_ inputs: LintInputs, provider: OverlayFileSystem, unsafe: Bool, stdinPath: String?,
                           failures: inout [InputFailure]) -> (project: Project, session: AnalysisSession, fixer: LintFixer) {
        var fixer = LintFixer(provider: provider, inputs: inputs, unsafe: unsafe, stdinPath: stdinPath)
        let (project, session) = fixer.run()
        for path in fixer.notUTF8 { Terminal.writeError("routes: warning: \(path) is not valid UTF-8: not fixed\n") }
        if let why = fixer.unsettled { Terminal.writeError("routes: warning: stopped fixing: \(why); what remains is reported\n") }
        failures += fixer.write().map { InputFailure(path: $0.path, message: $0.message) }
        return (project, session, fixer)
    }

    /// The report in `format` (colour only on a terminal, never in a file).
    static func render(_ report: LintReport, format: OutputFormat, color: ColorChoice, toFile: Bool) -> String {
        switch format {
        case .text:
            let useColor = !toFile && (color == .always || (color == .auto && Terminal.stdoutSupportsColor))
            return TextRenderer(report: report, style: Style(enabled: useColor)).render()
        case .json:
            return JSONRenderer.render(report) + "\n"
        case .sarif:
            return SARIFRenderer.render(report) + "\n"
        case .github:
            return GitHubRenderer.render(report)
        }
    }

    /// A file read again for its text (to report on it) that is no longer what was checked:
    /// the report would point into text that is not there. Nothing is reported: exit 2.
    static func stopIfChangedWhileChecked(_ report: LintReport) {
        let changed = report.project.files.filter(\.isTextChangedSinceRead)
        guard !changed.isEmpty else { return }
        for file in changed {
            Terminal.writeError("routes: error: '\(file.displayPath)' changed while it was being checked; run the lint again\n")
        }
        Terminal.terminate(2)
    }

    /// The report to `outputFile`, else to standard error when standard output carries the
    /// fixed text of the standard input, else to standard output.
    static func writeReport(_ output: String, to outputFile: String?, besideFixedText: Bool) {
        if let outputFile {
            guard Terminal.writeFile(outputFile, output) else {
                Terminal.writeError("routes: error: cannot write '\(outputFile)': \(String(cString: strerror(errno)))\n")
                Terminal.terminate(2)
            }
        } else if besideFixedText {
            Terminal.writeError(output)
        } else {
            Terminal.write(output)
        }
    }

    /// All of standard input (at most the file limit: a larger text is reported as too large).
    /// Standard input that cannot be read (closed, a folder) is an error, exit 2: it is not
    /// an empty text, which would format clean.
    static func readStandardInput() -> [UInt8] {
        switch standardInput() {
        case .read(let bytes):
            return bytes
        case .unreadable(let why):
            Terminal.writeError("routes: error: cannot read standard input: \(why)\n")
            Terminal.terminate(2)
        }
    }

    enum StandardInput {
        case read([UInt8])
        /// Why it cannot be read (closed, a folder): it is not an empty text.
        case unreadable(String)
    }

    /// All of standard input (at most the file limit), or why it cannot be read.
    static func standardInput() -> StandardInput {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= SourceLimits.maxFileBytes {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return .unreadable(String(cString: strerror(errno))) }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return .read(bytes)
    }
}
