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
struct Tree: ProgramCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a program's routing tree, or resolve a path in it.",
        discussion: """
            Without --path: the routing tree from `root`, references expanded inline, `↻ name` \
            for a builder already being expanded on the current chain (large trees are cut \
            at 20000 nodes and depth 200, with a `… (truncated: N more nodes)` line). With \
            --path: for each element, the `screen` node that built it and its presentation, \
            then the first element not built and why, under the environment shown on the \
            first line. Unset flags are true and unset optionals present. Without --path, \
            --flag and --optional change nothing (the tree shows every environment; a note \
            says so).

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

    @OptionGroup var environment: EnvironmentOptions

    @Option(help: "Output format: text, json, dot or mermaid.")
    var format: TreeFormat = .text

    @Option(name: .customLong("root"), help: "Workspace root that imports may not leave (default: the nearest folder upward holding routes.json, else .git; else the current directory when FILE lies inside it, else FILE's directory).")
    var root: String?

    /// Checked here rather than in `run()`, so that a bad `--root` prints `tree`'s usage.
    func validate() throws {
        try validateRoot(root)
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
        if path == nil && !self.environment.isEmpty {
            // (Checked above all the same: an unknown name is still an error.)
            Terminal.writeError("routes: note: --flag and --optional choose the environment of a --path; the routing tree shows every environment\n")
        }
        let errors = writeErrors(of: program, in: project)
        writePreview(of: program, in: project, resolution: resolution)
        if !errors.isEmpty { throw ExitCode(1) }
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
