import RoutesSyntax

/// A range in a file of the project. Offsets are bytes into the file's `SourceText`.
public struct SourceLocation: Sendable, Hashable {
    public var file: FileID
    public var range: Range<Int>
    public init(file: FileID, range: Range<Int>) {
        self.file = file
        self.range = range
    }
}
