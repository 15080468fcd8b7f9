import ArgumentParser
import RoutesAnalysis
import RoutesEncoding
import RoutesJSON
import RoutesModel
import RoutesSyntax

enum TreeFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, dot, mermaid
}

/// `routes tree FILE [--path PATH] [--flag NAME=true|false ...] [--optional NAME=present|absent ...]
/// [--format text|json|dot|mermaid]` (README.md, `routes tree`).
struct Tree: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a program's routing tree, or resolve a path in it.",
        discussion: """
            Without --path: the routing tree from `root`, references expanded inline, `↻ name` \
            for a builder already being expanded on the current chain (large trees are cut \
            at 20000 nodes and depth 200, with a `… (truncated: N more nodes)` line). With \
            --path: for each element, the `screen` node that built it and its presentation, \
            then the first element not built and why, under the environment shown on the \
            first line. Unset flags are true and unset optionals present.

            dot and mermaid draw the tree as a graph (recursion as dashed back edges); with \
            --path they highlight the screen nodes that built the path's elements.

            Exit status: 0 on success; 1 when the program has errors (printed on stderr; the \
            preview still goes as far as it can); 2 for bad usage: an unreadable FILE, a file \
            without `root`, an unknown or malformed --flag/--optional, or a bad --path.
            """
    )

    @Argument(help: "A .routes file that declares `root`.")
    var file: String

    @Option(help: ArgumentHelp("A path to resolve, e.g. 'Home/Detail(id: \"42\")'.", valueName: "path"))
    var path: String?

    @Option(name: .customLong("flag"), help: ArgumentHelp("Set a flag (repeatable; unset flags are true).", valueName: "name=true|false"))
    var flags: [String] = []

    @Option(name: .customLong("optional"), help: ArgumentHelp("Set an optional (repeatable; unset optionals are present).", valueName: "name=present|absent"))
    var optionals: [String] = []

    @Option(help: "Output format: text, json, dot or mermaid.")
    var format: TreeFormat = .text

    @Option(name: .customLong("root"), help: "Workspace root that imports may not leave (default: the current directory when FILE lies inside it, else FILE's directory).")
    var root: String?

    /// Checked here rather than in `run()`, so that a bad `--root` prints `tree`'s usage.
    func validate() throws {
        try validateRoot(root)
    }

    /// Prints `routes: error: message` and exits with status 2.
    func usageError(_ message: String) -> ExitCode {
        Terminal.writeError("routes: error: \(message)\n")
        return ExitCode(2)
    }

    /// `NAME=VALUE` pairs of one option, with the values it accepts.
    func parseAssignments(_ items: [String], option: String, values: [String: Bool]) throws -> [String: Bool] {
        var result: [String: Bool] = [:]
        let accepted = values.keys.sorted { values[$0]! && !values[$1]! }.joined(separator: "|")
        for item in items {
            guard let eq = item.firstIndex(of: "=") else {
                throw usageError("--\(option) '\(item)': expected NAME=\(accepted)")
            }
            let name = String(item[..<eq]), value = String(item[item.index(after: eq)...])
            guard !name.isEmpty else {
                throw usageError("--\(option) '\(item)': the name is missing; expected NAME=\(accepted)")
            }
            guard let parsed = values[value] else {
                throw usageError("--\(option) '\(item)': '\(value)' is not a valid value; expected \(name)=\(accepted)")
            }
            result[name] = parsed  // the last one given wins
        }
        return result
    }

    func run() throws {
        let (project, program) = try loadProgram()
        let environment = try programEnvironment(of: program, in: project)
        var resolution: PathResolution? = nil
        if let path {
            do {
                let literal = try PathLiteral.parse(path)
                resolution = try Resolution.resolve(literal, program: program, project: project, environment: environment)
            } catch {
                throw usageError("--path: " + error.rendered(literal: path))
            }
        }
        let errors = writeErrors(of: program, in: project)
        writePreview(of: program, in: project, resolution: resolution)
        if !errors.isEmpty { throw ExitCode(1) }
    }

    /// The project of `file` and the program it roots.
    func loadProgram() throws -> (project: Project, program: Program) {
        let provider = FileSystemProvider()
        if let canonical = provider.canonicalPath(file), isDirectory(canonical) {
            throw usageError("'\(file)' is a directory; `routes tree` takes one .routes file that declares `root`")
        }
        let inputs = try Inputs(paths: [file], root: root, provider: provider)
        if let failure = inputs.failures.first { throw usageError(failure) }
        guard let entry = inputs.entries.first else { throw usageError("cannot read '\(file)'") }
        let project = Project(entries: [entry], provider: provider)
        if let (_, why) = project.unreadableEntries.first { throw usageError("cannot read '\(file)': \(why)") }
        guard let fileID = project.file(atPath: entry.canonicalPath),
              let program = project.programs.first(where: { $0.root.file == fileID }) else {
            throw usageError("'\(file)' declares no `root`: `routes tree` previews a program (a file that declares `root`, with its imports)")
        }
        return (project, program)
    }

    /// The environment that `--flag` and `--optional` give.
    func programEnvironment(of program: Program, in project: Project) throws -> ProgramEnvironment {
        let given = Environment(
            flags: try parseAssignments(flags, option: "flag", values: ["true": true, "false": false]),
            optionals: try parseAssignments(optionals, option: "optional", values: ["present": true, "absent": false]))
        do {
            return try ProgramEnvironment(given, program: program, project: project)
        } catch {
            let option = error.expected == .flag ? "flag" : "optional"
            var message = "--\(option) \(error.name): \(error.message)"
            if project.scopes[program.root.file][error.name].map({ project.declaration($0).kind }) == (error.expected == .flag ? .optional : .flag) {
                message += error.expected == .flag
                    ? " (use --optional \(error.name)=present|absent)" : " (use --flag \(error.name)=true|false)"
            }
            throw usageError(message)
        }
    }

    /// Writes the errors of the program on stderr (the preview goes on regardless); returns them.
    func writeErrors(of program: Program, in project: Project) -> [Diagnostic] {
        let programFiles = Set(program.files)
        let errors = Analysis.check(project).filter { $0.severity == .error && programFiles.contains($0.file) }
        for diagnostic in errors {
            Terminal.writeError("\(project.locationText(file: diagnostic.file, offset: diagnostic.range.lowerBound)): error: \(diagnostic.message) [\(diagnostic.rule.rawValue)]\n")
        }
        return errors
    }

    /// The routing tree, or the resolution of `--path`, in `format` on stdout.
    func writePreview(of program: Program, in project: Project, resolution: PathResolution?) {
        let tree = resolution == nil || format == .dot || format == .mermaid
            ? RoutingTree(program: program, project: project) : nil
        switch (format, resolution) {
        case (.text, nil):
            Terminal.write(tree!.text)
        case (.text, let resolution?):
            Terminal.write(resolution.text(project: project))
        case (.json, nil):
            Terminal.write(JSON.serialize(TreeJSON.tree(tree!, project: project), pretty: true) + "\n")
        case (.json, let resolution?):
            Terminal.write(JSON.serialize(TreeJSON.resolution(resolution, project: project), pretty: true) + "\n")
        case (.dot, _), (.mermaid, _):
            let highlight = Set(resolution?.elements.compactMap(\.node) ?? [])
            let title = resolution.map { "path: \(path!) (environment: \($0.environment.summary))" }
            Terminal.write(format == .dot
                ? PreviewGraph.dot(tree!, highlight: highlight, title: title)
                : PreviewGraph.mermaid(tree!, highlight: highlight, title: title))
        }
    }
}
