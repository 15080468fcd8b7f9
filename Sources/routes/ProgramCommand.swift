import ArgumentParser
import RoutesAnalysis
import RoutesModel
import RoutesSyntax

/// A command over one program, given as the file that declares its `root`, with an
/// environment (`--flag`, `--optional`): `routes tree` and `routes link`.
protocol ProgramCommand: ParsableCommand {
    var file: String { get }
    var root: String? { get }
    var environment: EnvironmentOptions { get }
}

/// `--flag NAME=true|false` and `--optional NAME=present|absent`, as `tree` and `link` take them.
struct EnvironmentOptions: ParsableArguments {
    @Option(name: .customLong("flag"), help: ArgumentHelp("Set a flag (repeatable; unset flags are true).", valueName: "name=true|false"))
    var flags: [String] = []

    @Option(name: .customLong("optional"), help: ArgumentHelp("Set an optional (repeatable; unset optionals are present).", valueName: "name=present|absent"))
    var optionals: [String] = []

    /// Whether neither option was given.
    var isEmpty: Bool { flags.isEmpty && optionals.isEmpty }
}

extension ProgramCommand {
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
            // The same name given again must say the same (a script that sets it twice means
            // one of them by mistake).
            if let earlier = result[name], earlier != parsed {
                let spelled = { (v: Bool) in values.first { $0.value == v }!.key }
                throw usageError("--\(option) \(name) is given twice, as \(spelled(earlier)) and as \(spelled(parsed))")
            }
            result[name] = parsed
        }
        return result
    }

    /// The project of `file` and the program it roots.
    func loadProgram() throws -> (project: Project, program: Program) {
        let provider = FileSystemProvider()
        if file == "-" {
            // A program is a file with its imports, found beside it: not standard input.
            throw usageError("`routes \(Self.configuration.commandName ?? "tree")` reads a program from its file, not from standard input ('-'): name the .routes file that declares `root`")
        }
        if let canonical = provider.canonicalPath(file), isDirectory(canonical) {
            throw usageError("'\(file)' is a directory; `routes \(Self.configuration.commandName ?? "tree")` takes one .routes file that declares `root`")
        }
        let inputs = try Inputs(paths: [file], root: root, provider: provider)
        if let failure = inputs.failures.first { throw usageError(failure) }
        guard let entry = inputs.entries.first else { throw usageError("cannot read '\(file)'") }
        let project = Project(entries: [entry], provider: provider)
        if let (_, why) = project.unreadableEntries.first { throw usageError("cannot read '\(file)': \(why)") }
        guard let fileID = project.file(atPath: entry.canonicalPath),
              let program = project.programs.first(where: { $0.root.file == fileID }) else {
            throw usageError("'\(file)' declares no `root`: `routes \(Self.configuration.commandName ?? "tree")` works on a program (a file that declares `root`, with its imports)")
        }
        return (project, program)
    }

    /// The environment that `--flag` and `--optional` give.
    func programEnvironment(of program: Program, in project: Project) throws -> ProgramEnvironment {
        let given = Environment(
            flags: try parseAssignments(environment.flags, option: "flag", values: ["true": true, "false": false]),
            optionals: try parseAssignments(environment.optionals, option: "optional", values: ["present": true, "absent": false]))
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
        for diagnostic in errors { Terminal.writeError(errorLine(diagnostic, in: project)) }
        return errors
    }

}

/// An error of a program as `tree`, `link` and `links` print it on stderr, one line:
/// `path:LINE:COL: error: message [rule]`.
func errorLine(_ diagnostic: Diagnostic, in project: Project) -> String {
    "\(project.locationText(file: diagnostic.file, offset: diagnostic.range.lowerBound)): error: \(diagnostic.message) [\(diagnostic.rule.rawValue)]\n"
}
