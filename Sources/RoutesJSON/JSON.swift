import CJSONC

/// Parsing and serializing JSON. All JSON in the project goes through here, and through json-c.
///
/// Parsing is strict RFC 8259: exactly one JSON value, optionally surrounded by whitespace
/// (space, tab, newline, carriage return). Rejected, with a ``JSONError`` that gives the byte
/// offset: trailing data, comments, trailing commas, single-quoted strings or keys, `NaN` and
/// `Infinity`, leading zeros, `1.`, unescaped control characters in strings, raw NUL bytes,
/// a byte order mark, truncated input, empty input, and nesting deeper than the parser's
/// ``JSONParser/maxDepth`` (``defaultMaxDepth``, 512, for these static functions).
///
/// Decisions the RFC leaves open:
/// - **Invalid UTF-8** inside strings (and object keys) is not an error: each ill-formed sequence
///   becomes U+FFFD, as `String(decoding:as:)` repairs it. Escaped lone surrogates (`"\ud800"`)
///   likewise arrive as U+FFFD (json-c replaces them).
/// - **Integers** that fit in `Int64` are ``JSONValue/int(_:)``; larger ones (even those json-c
///   could hold as `uint64`) are ``JSONValue/double(_:)``, rounded to the nearest `Double`.
///   Numbers with a fraction or an exponent are always doubles; a magnitude beyond `Double`'s
///   range (`1e400`) parses as ±infinity.
/// - **Duplicate keys**: the key keeps its first position and its last value (json-c).
/// - **Object keys containing U+0000** (`"\u0000"`) are rejected: json-c stores keys as C
///   strings and would silently truncate them. (U+0000 inside string *values* is fine.)
public enum JSON {
    /// The nesting limit used by the static parse functions. (json-c's own default is only 32.)
    public static let defaultMaxDepth = 512

    /// Parses exactly one JSON value from `text` (see ``JSON`` for the rules).
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try JSONParser().parse(text)
    }

    /// Parses exactly one JSON value from UTF-8 `bytes`.
    public static func parse(bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        try JSONParser().parse(bytes: bytes)
    }

    /// Parses exactly one JSON value from UTF-8 `bytes`.
    public static func parse(bytes: [UInt8]) throws(JSONError) -> JSONValue {
        try JSONParser().parse(bytes: bytes)
    }

    /// The JSON text of `value`, written by json-c.
    ///
    /// Compact output has no whitespace at all. Pretty output indents by two spaces, puts each
    /// array element and object member on its own line, writes `"key": value`, and prints empty
    /// arrays and objects as `[]` and `{}`. Either way: object keys keep their order; `/` is not
    /// escaped; non-ASCII characters are written as UTF-8, not `\u` escapes; `"`, `\` and control
    /// characters are escaped (`\n`, `\t`, … or `\u00XX`, so U+0000 becomes `\u0000`).
    ///
    /// Doubles are written in Swift's shortest round-tripping form (`0.1`, `1e+300`, `2.0`), so
    /// they parse back to the same `Double` and stay doubles. NaN and ±infinity have no JSON form
    /// and are written as `null`. A U+0000 inside an object *key* (which json-c cannot store) is
    /// written as U+FFFD.
    ///
    /// Serializing recurses once per nesting level; values built in Swift are not depth-limited,
    /// so keep them within a few thousand levels (parsed values are, see ``JSONParser``).
    public static func serialize(_ value: JSONValue, pretty: Bool = false) -> String {
        let flags = pretty
            ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE
            : JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE
        guard let root = JSONCTree.make(value, pretty: pretty) else { return "null" }
        defer { json_object_put(root) }
        var length = 0
        // The text belongs to `root` (it is freed with it): copy it out first.
        guard let text = json_object_to_json_string_length(root, flags, &length) else {
            fatalError("json-c: out of memory while serializing JSON")
        }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
    }
}
