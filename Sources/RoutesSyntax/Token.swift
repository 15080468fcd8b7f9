/// One token: a kind and a byte range. 12 bytes, so a 100k-line file stays small.
public struct Token: Sendable, Hashable {
    public var kind: TokenKind
    /// True when a line break separates this token from the previous non-trivia token (or
    /// it is the first one of the file).
    public var startsLine: Bool
    /// True for a string with a bad escape or no closing quote (already reported).
    public var isMalformed: Bool
    public var offset: UInt32
    public var length: UInt32

    @inlinable public var start: Int { Int(offset) }
    @inlinable public var end: Int { Int(offset) + Int(length) }
    @inlinable public var range: Range<Int> { start..<end }
}
