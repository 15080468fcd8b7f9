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
                let n = formatted.verbatimRegions
                note = "routes: note: \(name) has syntax errors: \(n == 1 ? "the lines with them were" : "\(n) runs of lines with them were") left as written\n"
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
            // Its `exclude` may be what is wrong: format nothing rather than what it would leave out.
            let cwd = provider.canonicalPath(currentDirectory()) ?? currentDirectory()
            for p in inputs.configProblems {
                let shown = PathUtil.isInside(p.path, root: cwd) && cwd != "/" ? String(p.path.dropFirst(cwd.count + 1)) : p.path
                Terminal.writeError("\(shown):\(p.line + 1):\(p.column + 1): error: \(p.message)\n")
            }
            Terminal.writeError("routes: error: nothing was formatted: fix routes.json first\n")
            return 2
        }
        var failed = !inputs.failures.isEmpty
        for f in inputs.failures { Terminal.writeError("routes: error: cannot read '\(f.path)': \(f.message)\n") }
        var changed = 0, unchanged = 0, refused = 0
        // Read and formatted on every core; reported and written in order.
        let entries = inputs.entries
        let results = parallelMap(entries.count) { i -> (bytes: Result<[UInt8], SourceReadError>, outcome: Outcome, note: String?) in
            let read = provider.read(entries[i].canonicalPath)
            guard case .success(let bytes) = read else { return (read, .unchanged, nil) }
            let (outcome, note) = format(bytes, name: entries[i].displayPath)
            return (read, outcome, note)
        }
        for (entry, result) in zip(entries, results) {
            let name = entry.displayPath
            let bytes: [UInt8]
            switch result.bytes {
            case .success(let b): bytes = b
            case .failure(let why):
                Terminal.writeError("routes: error: cannot read '\(name)': \(why)\n")
                failed = true
                continue
            }
            if let note = result.note { Terminal.writeError(note) }
            switch result.outcome {
            case .unchanged:
                unchanged += 1
            case .changed(let formatted):
                changed += 1
                if check { Terminal.write("would reformat: \(name)\n") }
                if diff { Terminal.write(UnifiedDiff.render(path: name, old: bytes, new: formatted) ?? "") }
                if !check && !diff, let why = writeAtomically(entry.canonicalPath, formatted) {
                    Terminal.writeError("routes: error: cannot write '\(name)': \(why)\n")
                    failed = true
                    changed -= 1
                    refused += 1
                }
            case .refused(let why):
                Terminal.writeError("routes: error: cannot format '\(name)': \(why)\n")
                refused += 1
                failed = true
            }
        }
        func files(_ n: Int) -> String { n == 1 ? "1 file" : "\(n) files" }
        var parts: [String] = []
        if check || diff {
            parts.append("\(files(changed)) would be reformatted")
        } else {
            parts.append("\(files(changed)) reformatted")
        }
        parts.append("\(files(unchanged)) already formatted")
        if refused > 0 { parts.append("\(files(refused)) left as \(refused == 1 ? "it was" : "they were") (see above)") }
        let summary = parts.joined(separator: ", ") + "\n"
        // A diff keeps stdout for the patch.
        if diff { Terminal.writeError(summary) } else { Terminal.write(summary) }
        if failed { return 2 }
        return (check || diff) && changed > 0 ? 1 : 0
    }

    static func writeStdout(_ bytes: [UInt8]) {
        _ = FileDescriptor.writeAll(bytes, to: 1)
    }

    /// Replaces a file's content through a temporary file in its folder and a rename, so that
    /// no reader sees half a file and a failure leaves the file as it was. The file keeps its
    /// permission bits (and its owner and group when the process may set them). Returns why it
    /// failed, or nil.
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return String(cString: strerror(errno)) }
        let directory = PathUtil.directory(of: path)
        let name = String(path.dropFirst(directory == "/" ? 1 : directory.count + 1))
        var template = Array(((directory == "/" ? "/" : directory + "/") + ".\(name).routes-fmt-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        func fail() -> String {
            let why = String(cString: strerror(errno))
            close(fd)
            unlink(temporary)
            return why
        }
        _ = fchown(fd, st.st_uid, st.st_gid)  // allowed for root only, or the same owner and one of its groups
        guard fchmod(fd, st.st_mode & 0o7777) == 0 else { return fail() }
        guard FileDescriptor.writeAll(bytes, to: fd), fsync(fd) == 0 else { return fail() }
        guard close(fd) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            return why
        }
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            return why
        }
        return nil
    }
}
