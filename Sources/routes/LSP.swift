import ArgumentParser
import RoutesLSP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `routes lsp`: the language server on stdin/stdout (README.md, `routes lsp`).
struct LSP: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server on stdin and stdout.",
        discussion: """
            Speaks JSON-RPC 2.0 with LSP 3.17 framing. Logs go to stderr; set ROUTES_LSP_LOG \
            to debug, info, warning or error to choose how much. Exit status: 0 after \
            shutdown and exit, 1 otherwise.
            """
    )

    @Flag(help: "Use stdin and stdout (the default and only transport; accepted and ignored).")
    var stdio = false

    func run() throws {
        Self.serve()
    }

    /// Serves stdin/stdout until `exit`, then ends the process with the server's status.
    static func serve() -> Never {
        // Take stdout for the protocol and point descriptor 1 at stderr, so that a stray
        // print cannot corrupt the stream.
        let server = Server(output: MessageWriter.protectingStandardOutput(), version: Routes.version)
        // The features register their handlers on the server; they must live while it runs.
        let features = LanguageFeatures(server: server)
        let status = withExtendedLifetime(features) { server.run(input: 0) }
        // (`exit` alone would be ParsableCommand's.)
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }
}
