import Synchronization
import RoutesSyntax

/// A file that declares `root`, with its transitive imports.
public struct Program: Sendable {
    /// The `root` declaration.
    public var root: Symbol
    /// The files of the program, imports first (inclusion order), the root's file last.
    public var files: [FileID]
}
