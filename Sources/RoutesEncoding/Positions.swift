import RoutesJSON
import RoutesSyntax

/// The one conversion of byte offsets and ranges to JSON positions and ranges, as LSP writes
/// them: `{"line", "character"}`, 0-based lines, columns in UTF-16 code units (LSP's default,
/// and the CLI's JSON) or in the encoding an editor negotiated. Used by the CLI's JSON, the
/// language server and the tree encoders.
public enum JSONPositions {
    public static func position(_ offset: Int, in text: SourceText, encoding: PositionEncoding = .utf16) -> JSONValue {
        let position = text.position(of: offset, encoding: encoding)
        return ["line": .int(Int64(position.line)), "character": .int(Int64(position.column))]
    }

    /// `{"start": position, "end": position}`.
    public static func range(_ range: Range<Int>, in text: SourceText, encoding: PositionEncoding = .utf16) -> JSONValue {
        ["start": position(range.lowerBound, in: text, encoding: encoding),
         "end": position(range.upperBound, in: text, encoding: encoding)]
    }
}
