import RoutesSyntax

/// A name as written: its text and byte range in its file.
public struct Name: Sendable, Hashable {
    public var text: String
    private var stored: Range32
    public var range: Range<Int> {
        get { stored.range }
        set { stored = Range32(newValue) }
    }
    public init(text: String, range: Range<Int>) {
        self.text = text
        stored = Range32(range)
    }
}

/// A byte range of a file in 32 bits a bound, half a `Range<Int>`: the model of a program of
/// a million lines holds hundreds of thousands of ranges (names, declarations, nodes, links'
/// elements), and no text reaches 2^31 bytes (`SourceLimits`).
struct Range32: Sendable, Hashable {
    private var start: Int32
    private var end: Int32

    init(_ range: Range<Int>) {
        start = Int32(range.lowerBound)
        end = Int32(range.upperBound)
    }

    var range: Range<Int> { Int(start)..<Int(end) }
    var upperBound: Int { Int(end) }
}
