/// Why a JSON text was rejected, and where.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. `unexpected character` or `unexpected end of data`
    /// (json-c's wording where json-c found the problem).
    public var message: String
    /// The byte offset (in the UTF-8 input) where parsing failed. For truncated input this is the
    /// input's length.
    public var offset: Int

    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    /// `invalid JSON at byte <offset>: <message>`.
    public var description: String { "invalid JSON at byte \(offset): \(message)" }
}
