import ArgumentParser
import RoutesModel
import RoutesSyntax
import RoutesWorkspace
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `routes fmt`: the canonical layout (docs/formatting.md), in place, checked, or as a diff.
struct Fmt: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fmt",
        abstract: "Format .routes files in the one canonical layout.",
        discussion: """
            Rewrites each file that is not in the canonical layout (2-space indentation, one \
            declaration per line, blocks on one line only when they were and fit in \
            \(Formatter.lineWidth) columns; see docs/formatting.md). Folders are searched for \
            *.routes files as `routes lint` searches them, leaving out routes.json's `exclude`. \
            `-` formats standard input to standard output. Only whitespace changes: comments \
            stay where they are, and the lines of a declaration with a syntax error are left \
            as written. Exit status: 0 when every file is formatted (with --check or --diff: \
            when none would change), 1 with --check or --diff when some file would change, \
            2 for bad usage, a path that cannot be read or written, a routes.json with \
            problems (nothing is formatted then), or a file that cannot be formatted without \
            changing its meaning (it is left untouched).
            """
    )

    @Argument(help: "Files or directories (searched recursively for *.routes); `-` for standard input (alone).")
    var paths: [String] = ["."]

    @Flag(help: "Change no file: list the files that would change; exit with status 1 if any would.")
    var check = false

    @Flag(help: "Change no file: print a unified diff of every change; exit with status 1 if there is any.")
    var diff = false

    @Option(name: .customLong("stdin-filename"), help: "The path of the text read from standard input (`-`), for messages and the diff.")
    var stdinFilename: String?

    func validate() throws {
        if paths.contains("-") && paths.count > 1 {
            throw ValidationError("`-` (standard input) is formatted alone: give no other path with it")
        }
        if stdinFilename != nil && paths != ["-"] {
            throw ValidationError("--stdin-filename names the text of `-`: add `-` to the paths")
        }
    }

    func run() throws {
        let status = paths == ["-"]
            ? Fmt.formatStandardInput(name: stdinFilename ?? "stdin.routes", check: check, diff: diff)
            : Fmt.formatFiles(paths: paths, check: check, diff: diff)
        Terminal.terminate(status)
    }

    /// What became of one text.
    enum Outcome: Sendable {
        case unchanged
        case changed([UInt8])
        case refused(String)
    }

    /// Formats one text; with the note for stderr when lines with syntax errors were kept.
    static func format(_ bytes: [UInt8], name: String) -> (outcome: Outcome, note: String?) {
        let text = SourceText(bytes: bytes)
        let tree = SyntaxTree.parse(text)
        do {
            let formatted = try Formatter.format(tree)
            var note: String? = nil
            if formatted.verbatimRegions > 0 {
                let count = formatted.verbatimRegions
                note = "routes: note: \(name) has syntax errors: \(count == 1 ? "the lines with them were" : "\(count) runs of lines with them were") left as written\n"
            }
            return (formatted.changed && formatted.bytes != bytes ? .changed(formatted.bytes) : .unchanged, note)
        } catch {
            return (.refused(error.message), nil)
        }
    }

    /// `routes fmt -`: the formatted text on stdout (with --check or --diff, the verdict or the
    /// diff instead). A text that cannot be formatted is written back unchanged (exit 2), so
    /// that an editor piping its buffer through `routes fmt -` never loses it.
    static func formatStandardInput(name: String, check: Bool, diff: Bool) -> Int32 {
        let bytes = Lint.readStandardInput()
        if bytes.count > SourceLimits.maxFileBytes {
            Terminal.writeError("routes: error: cannot format '\(name)': \(SourceReadError.tooLarge(bytes.count))\n")
            if !check && !diff { writeStdout(bytes) }
            return 2
        }
        let (outcome, note) = format(bytes, name: name)
        if let note { Terminal.writeError(note) }
        switch outcome {
        case .unchanged:
            if !check && !diff { writeStdout(bytes) }
            return 0
        case .changed(let formatted):
            if check { Terminal.write("would reformat: \(name)\n") }
            if diff { Terminal.write(UnifiedDiff.render(path: name, old: bytes, new: formatted) ?? "") }
            if !check && !diff { writeStdout(formatted) }
            return check || diff ? 1 : 0
        case .refused(let why):
            Terminal.writeError("routes: error: cannot format '\(name)': \(why)\n")
            if !check && !diff { writeStdout(bytes) }
            return 2
        }
    }

    /// Files and folders: each file rewritten in place when it changes (or listed, or diffed).
    static func formatFiles(paths: [String], check: Bool, diff: Bool) -> Int32 {
        let provider = FileSystemProvider()
        let inputs = LintInputs(paths: paths, fixedRoot: nil, stdin: nil, cwd: currentDirectory(), provider: provider,
                                scanWorkspaces: false)
        if !inputs.configProblems.isEmpty {
            writeConfigProblems(inputs.configProblems, provider: provider)
            return 2
        }
        var tally = Tally(failed: !inputs.failures.isEmpty)
        for failure in inputs.failures { Terminal.writeError("routes: error: cannot read '\(failure.path)': \(failure.message)\n") }
        // Read and formatted on every core; reported and written in order.
        let entries = inputs.entries
        let results = parallelMap(entries.count) { index -> (bytes: Result<[UInt8], SourceReadError>, outcome: Outcome, note: String?) in
            let read = provider.read(entries[index].canonicalPath)
            guard case .success(let bytes) = read else { return (read, .unchanged, nil) }
            let (outcome, note) = format(bytes, name: entries[index].displayPath)
            return (read, outcome, note)
        }
        for (entry, result) in zip(entries, results) {
            finish(entry, read: result.bytes, outcome: result.outcome, note: result.note, check: check, diff: diff, tally: &tally)
        }
        let summary = tally.summary(check: check, diff: diff)
        // A diff keeps stdout for the patch.
        if diff { Terminal.writeError(summary) } else { Terminal.write(summary) }
        if tally.failed { return 2 }
        return (check || diff) && tally.changed > 0 ? 1 : 0
    }

    /// The problems of routes.json: nothing is formatted, as its `exclude` may be what is wrong.
    static func writeConfigProblems(_ problems: [ProjectConfig.Problem], provider: FileSystemProvider) {
        let cwd = provider.canonicalPath(currentDirectory()) ?? currentDirectory()
        for problem in problems {
            let shown = PathUtil.isInside(problem.path, root: cwd) && cwd != "/" ? String(problem.path.dropFirst(cwd.count + 1)) : problem.path
            Terminal.writeError("\(shown):\(problem.line + 1):\(problem.column + 1): error: \(problem.message)\n")
        }
        Terminal.writeError("routes: error: nothing was formatted: fix routes.json first\n")
    }

    /// How many files `formatFiles` changed, left alone and refused, and whether anything failed.
    struct Tally {
        var failed: Bool
        var changed = 0, unchanged = 0, refused = 0

        /// "2 files reformatted, 1 file already formatted".
        func summary(check: Bool, diff: Bool) -> String {
            func files(_ count: Int) -> String { count == 1 ? "1 file" : "\(count) files" }
            var parts: [String] = []
            if check || diff {
                parts.append("\(files(changed)) would be reformatted")
            } else {
                parts.append("\(files(changed)) reformatted")
            }
            parts.append("\(files(unchanged)) already formatted")
            if refused > 0 { parts.append("\(files(refused)) left as \(refused == 1 ? "it was" : "they were") (see above)") }
            return parts.joined(separator: ", ") + "\n"
        }
    }

    /// One file of `formatFiles`: reported, and written when it changed (unless checked or diffed).
    static func finish(_ entry: ProjectEntry, read: Result<[UInt8], SourceReadError>, outcome: Outcome, note: String?,
                       check: Bool, diff: Bool, tally: inout Tally) {
        let name = entry.displayPath
        let bytes: [UInt8]
        switch read {
        case .success(let text): bytes = text
        case .failure(let why):
            Terminal.writeError("routes: error: cannot read '\(name)': \(why)\n")
            tally.failed = true
            return
        }
        if let note { Terminal.writeError(note) }
        switch outcome {
        case .unchanged:
            tally.unchanged += 1
        case .changed(let formatted):
            tally.changed += 1
            if check { Terminal.write("would reformat: \(name)\n") }
            if diff { Terminal.write(UnifiedDiff.render(path: name, old: bytes, new: formatted) ?? "") }
            if !check && !diff, let why = FileReplacement.replace(entry.canonicalPath, formatted) {
                Terminal.writeError("routes: error: cannot write '\(name)': \(why)\n")
                tally.failed = true
                tally.changed -= 1
                tally.refused += 1
            }
        case .refused(let why):
            Terminal.writeError("routes: error: cannot format '\(name)': \(why)\n")
            tally.refused += 1
            tally.failed = true
        }
    }

    static func writeStdout(_ bytes: [UInt8]) {
        _ = FileDescriptor.writeAll(bytes, to: 1)
    }
}
