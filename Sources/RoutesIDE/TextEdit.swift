/// Replace `range` (bytes) of a file by `newText`.
public struct TextEdit: Sendable, Hashable {
    public var range: Range<Int>
    public var newText: String
    public init(range: Range<Int>, newText: String) {
        self.range = range
        self.newText = newText
    }
}
