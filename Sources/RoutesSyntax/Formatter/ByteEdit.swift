/// A replacement of bytes of a text.
public struct ByteEdit: Sendable, Hashable {
    public var range: Range<Int>
    public var replacement: [UInt8]
    public init(range: Range<Int>, replacement: [UInt8]) {
        self.range = range
        self.replacement = replacement
    }
}
