import RoutesSyntax

/// A name as written: its text and byte range in its file.
public struct Name: Sendable, Hashable {
    public var text: String
    private var start: Int32
    private var end: Int32
    public var range: Range<Int> {
        get { Int(start)..<Int(end) }
        set {
            start = Int32(newValue.lowerBound)
            end = Int32(newValue.upperBound)
        }
    }
    public init(text: String, range: Range<Int>) {
        self.text = text
        start = Int32(range.lowerBound)
        end = Int32(range.upperBound)
    }
}
