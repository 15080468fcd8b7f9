import RoutesSyntax

/// A file to start loading from.
public struct ProjectEntry: Sendable {
    public var canonicalPath: String
    public var displayPath: String
    public var group: Int
    /// Canonical; imports of this file and of everything it imports may not leave it.
    public var workspaceRoot: String
    public init(canonicalPath: String, displayPath: String, group: Int, workspaceRoot: String) {
        self.canonicalPath = canonicalPath
        self.displayPath = displayPath
        self.group = group
        self.workspaceRoot = workspaceRoot
    }
}
