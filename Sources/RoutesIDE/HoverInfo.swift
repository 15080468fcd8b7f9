/// What a hover shows, and the range it is about.
public struct HoverInfo: Sendable, Hashable {
    /// Markdown.
    public var markdown: String
    /// The name or node hovered.
    public var range: Range<Int>
    public init(markdown: String, range: Range<Int>) {
        self.markdown = markdown
        self.range = range
    }
}
