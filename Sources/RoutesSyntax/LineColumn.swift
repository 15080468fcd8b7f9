/// How a column is counted. The CLI prints Unicode-scalar columns, LSP uses UTF-16 code
/// units unless the client negotiates UTF-8.
public enum PositionEncoding: Sendable, Hashable {
    case utf8
    case utf16
    case scalars
}

/// A zero-based line and column, the column counted in some `PositionEncoding`.
public struct LineColumn: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public static func < (a: LineColumn, b: LineColumn) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }
    public var description: String { "\(line):\(column)" }
}
