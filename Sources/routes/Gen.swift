import ArgumentParser

/// `routes gen`: code generated from checked programs.
struct Gen: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate code from checked .routes programs.",
        subcommands: [GenSwift.self]
    )
}
