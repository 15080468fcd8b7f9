import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `routes`: lint, preview and serve navigation trees written in the Routes language.
struct Routes: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "Check, preview and serve ComposableNavigator routing trees written in .routes files.",
        discussion: """
            A .routes file states an app's navigation tree (screen, anyOf, conditional, \
            if let, if screen, wildcard, empty). `routes lint` finds screens no path can \
            reach, shadowed anyOf branches and dependencies used out of scope.
            """,
        version: "routes \(Routes.version)",
        subcommands: [Lint.self, Fmt.self, Tree.self, LinkCommand.self, LinksCommand.self, Gen.self, LSP.self, RulesCommand.self, Explain.self]
    )
}

extension Routes {
    /// The first name after `routes help` that is no subcommand at its place (`routes help nope`,
    /// `routes help gen nope`), or nil. argument-parser prints the root's help for such a name
    /// and exits 0; a misspelt command is bad usage, so the caller exits 2 instead.
    static func unknownHelpTopic(_ arguments: [String]) -> String? {
        guard arguments.first == "help" else { return nil }
        var commands: [ParsableCommand.Type] = configuration.subcommands
        // (`routes help help`: argument-parser's own command, which no list names.)
        if arguments.count == 2 && arguments[1] == "help" { return nil }
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            guard let command = commands.first(where: { $0._commandName == name }) else { return name }
            commands = command.configuration.subcommands
        }
        return nil
    }
}

/// Runs the command line. Usage errors exit with status 2 (not argument-parser's 64), as
/// README.md's Usage says; `--help` and `--version` exit 0.
@main
enum Main {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // Editors start `routes lsp` (or `routes lsp --stdio`) for every session: serve at once,
        // without argument-parser's reflection-based parsing (about a millisecond and a half
        // of start-up). Every other form, `routes lsp --help` included, is parsed as usual.
        if arguments == ["lsp"] || arguments == ["lsp", "--stdio"] {
            LSP.serve()
        }
        if let unknown = Routes.unknownHelpTopic(arguments) {
            Terminal.writeError("Error: unknown command '\(unknown)'\nSee 'routes help' for the commands.\n")
            exit(2)
        }
        do {
            // Likewise `routes lint PATH…` with no options (what CI runs): the same defaults,
            // without the reflection (about 7% of a 10k-line lint).
            if arguments.first == "lint", !arguments.dropFirst().contains(where: { $0.hasPrefix("-") }) {
                let paths = Array(arguments.dropFirst())
                try Lint.check(paths: paths.isEmpty ? ["."] : paths, format: .text, color: .auto, denyWarnings: false, root: nil)
            }
            var command = try Routes.parseAsRoot(arguments)
            try command.run()
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let code = Routes.exitCode(for: error)
            let message = Routes.fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { print(message) }
                exit(0)
            }
            if !message.isEmpty {
                Terminal.writeError(message.hasSuffix("\n") ? message : message + "\n")
            }
            exit(2)
        }
    }
}
