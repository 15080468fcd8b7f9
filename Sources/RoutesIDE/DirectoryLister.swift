/// One entry of a directory: a file or a folder.
public struct DirectoryEntry: Sendable, Hashable {
    public var name: String
    public var isDirectory: Bool
    public init(name: String, isDirectory: Bool) {
        self.name = name
        self.isDirectory = isDirectory
    }
}

/// Lists directories for the completion of import paths: the file system in the language
/// server, a table in tests.
public protocol DirectoryLister: Sendable {
    /// The entries of a directory (absolute path), without `.` and `..`; nil when it cannot be
    /// read.
    func entries(of directory: String) -> [DirectoryEntry]?
}
