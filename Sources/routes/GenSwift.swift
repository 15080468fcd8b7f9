import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RoutesCodegen
import RoutesModel
import RoutesWorkspace

extension AccessLevel: ExpressibleByArgument {}

extension CodegenTarget: ExpressibleByArgument {
    /// `composable-navigator`, `swiftui`.
    public init?(argument: String) {
        switch argument {
        case "composable-navigator": self = .composableNavigator
        case "swiftui": self = .swiftUI
        default: return nil
        }
    }

    public var defaultValueDescription: String { argumentName }

    public static var allValueStrings: [String] { allCases.map(\.argumentName) }

    /// How the command line and routes.json name the target.
    var argumentName: String {
        switch self {
        case .composableNavigator: return "composable-navigator"
        case .swiftUI: return "swiftui"
        }
    }
}

/// `routes gen swift [PATH ...] --out DIR [--check]`.
struct GenSwift: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Generate Swift for SwiftUI's NavigationStack or ComposableNavigator 0.2.0 from .routes programs.",
        discussion: """
            Writes one Swift file per input file, NAME.routes.swift in DIR: for a file that \
            declares `root`, its program (screen types, the environment and content protocols \
            the app implements, the routing tree); for a file that does not, a note (its \
            declarations are generated with the programs that import it).

            --target swiftui writes for SwiftUI's NavigationStack (iOS 16 and later, no other \
            dependency): the path elements, a resolver, a navigator and the views. The default, \
            composable-navigator, writes path builders for ComposableNavigator 0.2.0, which \
            has no cover, no popover and no presentation per placement: a program that uses \
            them is refused for it, at the places. A workspace's routes.json may choose the \
            target (`"swiftTarget": "swiftui"`).

            Nothing is written when a program has errors (they are printed) or when a name \
            cannot be generated (two screens whose Swift types collide, a type a screen cannot \
            store, ...). Each file is written to a temporary file and renamed; a file whose \
            contents are unchanged is left as it is.

            --check writes nothing and exits 1 when a file in DIR is missing or differs from \
            what would be generated (for CI).

            Exit status: 0 on success; 1 when a program has errors or cannot be generated, or \
            (--check) a file is stale; 2 for bad usage: an input that cannot be read, an \
            output folder that is a file or cannot be written, two inputs with one output name, \
            a routes.json that cannot be read, workspaces that ask for different targets.
            """
    )

    @Argument(help: "Files or directories (searched recursively for *.routes).")
    var paths: [String] = ["."]

    @Option(name: .customLong("out"), help: ArgumentHelp("The folder the Swift files are written to (created if missing).", valueName: "dir"))
    var out: String

    @Flag(help: "Write nothing; exit 1 when the files in --out are not what would be generated.")
    var check = false

    @Option(help: "Access level of the generated declarations: internal, public or package.")
    var accessLevel: AccessLevel = .internal

    @Option(help: ArgumentHelp("The library the code is written against: composable-navigator (ComposableNavigator 0.2.0, the default) or swiftui (SwiftUI's NavigationStack, iOS 16 and later); else the `swiftTarget` of the workspace's routes.json.", valueName: "target"))
    var target: CodegenTarget?

    @Flag(help: "With --target swiftui: the screens and the path elements are Codable too (for state restoration).")
    var codable = false

    @Option(name: .customLong("root"), help: "Workspace root that imports may not leave (default: the current directory when the paths lie inside it, else each path's directory).")
    var root: String?

    func usageError(_ message: String) -> ExitCode {
        Terminal.writeError("routes: error: \(message)\n")
        return ExitCode(2)
    }

    func run() throws {
        let provider = FileSystemProvider()
        let inputs = try Inputs(paths: paths, root: root, provider: provider)
        if !inputs.failures.isEmpty {
            for failure in inputs.failures { Terminal.writeError("routes: error: \(failure)\n") }
            throw ExitCode(2)
        }
        if inputs.entries.isEmpty {
            throw usageError("no .routes files in \(paths.joined(separator: ", "))")
        }
        let outExists = try checkOutputFolder()
        try checkOutputNames(inputs)
        let output = try generate(inputs, provider: provider)
        let folder = out.hasSuffix("/") ? String(out.dropLast()) : out
        if check {
            try checkUpToDate(output, in: folder, provider: provider)
        } else {
            if !outExists, let why = makeDirectories(out) { throw usageError("--out \(out): cannot create it: \(why)") }
            try write(output, to: folder, provider: provider)
        }
    }

    /// The output folder: a folder we can write to (made, when missing, only to write).
    /// Returns whether it exists.
    func checkOutputFolder() throws -> Bool {
        var st = stat()
        guard stat(out, &st) == 0 else { return false }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw usageError("--out \(out): not a folder (it is a file)") }
        if !check && access(out, W_OK | X_OK) != 0 {
            throw usageError("--out \(out): cannot write to it: \(SourceReadError.systemMessage(errno))")
        }
        return true
    }

    /// One output name per input.
    func checkOutputNames(_ inputs: Inputs) throws {
        var byName: [String: String] = [:]
        for entry in inputs.entries {
            let name = SwiftCodegen.outputName(forInput: entry.displayPath)
            if let other = byName[name] {
                throw usageError("\(other) and \(entry.displayPath) would both generate \(name): rename one of them, or generate them into different folders")
            }
            byName[name] = entry.displayPath
        }
    }

    /// `--target`, else the `swiftTarget` of the inputs' workspaces (which must agree), else
    /// ComposableNavigator.
    func chosenTarget(_ inputs: Inputs) throws -> CodegenTarget {
        if let target { return target }
        var chosen: [String: String] = [:]
        for root in Set(inputs.entries.map(\.workspaceRoot)).sorted() {
            let path = PathUtil.join(root, "routes.json")
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            let loaded = ProjectConfig.load(path)
            if !loaded.problems.isEmpty {
                for problem in loaded.problems { Terminal.writeError("routes: error: \(problem)\n") }
                throw ExitCode(2)
            }
            if let target = loaded.config.swiftTarget { chosen[path] = target }
        }
        let targets = Set(chosen.values)
        if targets.count > 1 {
            throw usageError("the workspaces of the inputs ask for different targets (" + chosen.sorted { $0.key < $1.key }
                .map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "): generate them apart, or give --target")
        }
        return targets.first.flatMap { CodegenTarget(argument: $0) } ?? .composableNavigator
    }

    /// The generated files; exits with the errors and the problems when there are any.
    func generate(_ inputs: Inputs, provider: FileSystemProvider) throws -> SwiftCodegen.Output {
        let project = Project(entries: inputs.entries, provider: provider)
        for (path, why) in project.unreadableEntries {
            Terminal.writeError("routes: error: cannot read '\(path)': \(why)\n")
        }
        if !project.unreadableEntries.isEmpty { throw ExitCode(2) }
        let report = LintReport(project: project)
        let ids = inputs.entries.compactMap { project.file(atPath: $0.canonicalPath) }
        let target = try chosenTarget(inputs)
        if codable && target != .swiftUI {
            throw usageError("--codable is for the SwiftUI target (--target swiftui): ComposableNavigator's screens are not restored from a coder")
        }
        let output = SwiftCodegen.generate(project: project, diagnostics: report.all, inputs: ids,
                                           options: .init(access: accessLevel, target: target, codable: codable))
        guard output.succeeded else {
            fail(output, report: report)
            throw ExitCode(1)
        }
        return output
    }

    /// `--check`: exits with status 1 when a file in `folder` is missing or stale.
    func checkUpToDate(_ output: SwiftCodegen.Output, in folder: String, provider: FileSystemProvider) throws {
        var stale: [String] = []
        for file in output.files {
            let path = folder + "/" + file.name
            if case .success(let bytes) = provider.read(path), bytes.elementsEqual(file.contents.utf8) { continue }
            stale.append(path)
        }
        if !stale.isEmpty {
            for path in stale { Terminal.writeError("routes: \(path) is not up to date\n") }
            Terminal.writeError("routes: \(stale.count) of \(output.files.count) generated file\(output.files.count == 1 ? "" : "s") \(stale.count == 1 ? "is" : "are") stale: run `routes gen swift` without --check\n")
            throw ExitCode(1)
        }
        Terminal.write("\(output.files.count) generated file\(output.files.count == 1 ? "" : "s") up to date in \(folder)\n")
    }

    /// Writes the files of `output` into `folder` that are not there already as they are.
    func write(_ output: SwiftCodegen.Output, to folder: String, provider: FileSystemProvider) throws {
        var written = 0
        for file in output.files {
            let path = folder + "/" + file.name
            if case .success(let bytes) = provider.read(path), bytes.elementsEqual(file.contents.utf8) { continue }
            if let why = writeAtomically(file.contents, to: path) {
                throw usageError("cannot write \(path): \(why)")
            }
            written += 1
        }
        let count = output.files.count
        if written == 0 {
            Terminal.write("\(count) generated file\(count == 1 ? "" : "s") up to date in \(folder)\n")
        } else {
            Terminal.write("\(written) of \(count) file\(count == 1 ? "" : "s") written to \(folder)\(written < count ? " (the others were up to date)" : "")\n")
        }
    }

    /// Prints why nothing was generated, on stderr.
    func fail(_ output: SwiftCodegen.Output, report: LintReport) {
        let renderer = TextRenderer(report: report, style: Style(enabled: false))
        var count = 0
        if !output.programsWithErrors.isEmpty {
            let files = Set(output.programsWithErrors.flatMap(\.files))
            for diagnostic in report.all where diagnostic.severity == .error && files.contains(diagnostic.file) {
                Terminal.writeError(renderer.render(diagnostic))
                count += 1
            }
        }
        // A problem of a file that several programs share is found once per program: printed once.
        var printed = Set<String>()
        for problem in output.problems.sorted(by: { ($0.file, $0.range.lowerBound) < ($1.file, $1.range.lowerBound) }) {
            guard printed.insert("\(problem.file):\(problem.range):\(problem.message)").inserted else { continue }
            var text = renderer.location(problem.file, problem.range.lowerBound) + ": error: \(problem.message)\n"
            text += renderer.snippet(problem.file, problem.range)
            for related in problem.related { text += renderer.location(related.file, related.range.lowerBound) + ": note: \(related.message)\n" }
            Terminal.writeError(text)
            count += 1
        }
        Terminal.writeError("\(count) error\(count == 1 ? "" : "s"): nothing generated\n")
    }

    /// Creates a folder and its missing parents; the reason on failure.
    func makeDirectories(_ path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            var st = stat()
            if stat(prefix, &st) != 0 {
                if mkdir(prefix, 0o777) != 0 && errno != EEXIST { return "\(prefix): \(SourceReadError.systemMessage(errno))" }
            } else if (st.st_mode & S_IFMT) != S_IFDIR {
                return "\(prefix) is a file"
            }
            prefix += "/"
        }
        return nil
    }

    /// Writes a file through a temporary file in the same folder and a rename, so that no
    /// reader ever sees it half written. The reason on failure (nothing is left behind).
    func writeAtomically(_ contents: String, to path: String) -> String? {
        let directory = PathUtil.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = (directory == "." ? "" : directory + "/") + ".\(name).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { return SourceReadError.systemMessage(errno) }
        var failure: String? = nil
        if !FileDescriptor.writeAll(contents, to: fd) { failure = SourceReadError.systemMessage(errno) }
        if close(fd) != 0 && failure == nil { failure = SourceReadError.systemMessage(errno) }
        if failure == nil && rename(temporary, path) != 0 { failure = SourceReadError.systemMessage(errno) }
        if failure != nil { unlink(temporary) }
        return failure
    }
}
