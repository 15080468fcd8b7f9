import RoutesJSON
import Testing

/// An input that must be rejected, with where and why.
struct Rejection: Sendable, CustomTestStringConvertible {
    var input: [UInt8]
    var offset: Int
    var message: String
    init(_ input: String, at offset: Int, _ message: String) {
        self.input = Array(input.utf8)
        self.offset = offset
        self.message = message
    }
    init(bytes: [UInt8], at offset: Int, _ message: String) {
        self.input = bytes
        self.offset = offset
        self.message = message
    }
    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }
}

// Each case pins one thing json-c 0.16 (STRICT) gets wrong or one RFC 8259 rule.
let rejections: [Rejection] = [
    // json-c STRICT accepts single-quoted keys; it rejects single-quoted values by itself.
    Rejection("{'a':1}", at: 1, "single-quoted strings are not allowed"),
    Rejection("'a'", at: 0, "single-quoted strings are not allowed"),
    Rejection("{\"a\":'b'}", at: 5, "single-quoted strings are not allowed"),
    // json-c STRICT accepts NaN, Infinity and -Infinity.
    Rejection("NaN", at: 0, "NaN and Infinity are not allowed"),
    Rejection("[Infinity]", at: 1, "NaN and Infinity are not allowed"),
    Rejection("[-Infinity]", at: 1, "NaN and Infinity are not allowed"),
    Rejection("nan", at: 1, "null expected"),
    // Comments.
    Rejection("/* c */ 1", at: 0, "comments are not allowed"),
    Rejection("[1, // c\n 2]", at: 4, "comments are not allowed"),
    // Trailing commas and missing values.
    Rejection("[1,]", at: 3, "unexpected character"),
    Rejection("{\"a\":1,}", at: 7, "unexpected character"),
    Rejection("[,1]", at: 1, "unexpected character"),
    // Trailing data after the value.
    Rejection("[1] x", at: 4, "unexpected character"),
    Rejection("{\"a\":1} {\"b\":2}", at: 8, "unexpected character"),
    Rejection("1 2", at: 2, "unexpected character"),
    // json-c takes a raw NUL for the end of the input and would accept `[1]`.
    Rejection(bytes: Array("[1]".utf8) + [0], at: 3, "NUL byte in input"),
    Rejection(bytes: Array("[1]".utf8) + [0] + Array("junk".utf8), at: 3, "NUL byte in input"),
    // json-c STRICT accepts raw control characters inside strings.
    Rejection("\"a\tb\"", at: 2, "control character in string must be escaped"),
    Rejection("\"a\nb\"", at: 2, "control character in string must be escaped"),
    Rejection("\"a\rb\"", at: 2, "control character in string must be escaped"),
    Rejection("[\"ok\", \"a\u{1}b\"]", at: 9, "control character in string must be escaped"),
    Rejection("{\"k\u{1F}\":1}", at: 3, "control character in string must be escaped"),
    Rejection(bytes: Array("\"a".utf8) + [0] + Array("b\"".utf8), at: 2, "NUL byte in string"),
    // Numbers: json-c accepts -01 and 1. but rejects 01.
    Rejection("01", at: 0, "leading zeros are not allowed"),
    Rejection("-01", at: 1, "leading zeros are not allowed"),
    Rejection("[00]", at: 1, "leading zeros are not allowed"),
    Rejection("1.", at: 2, "expected digit after decimal point"),
    Rejection("[1.e5]", at: 3, "expected digit after decimal point"),
    Rejection("1e", at: 2, "expected digit in exponent"),
    Rejection("[1e+]", at: 4, "expected digit in exponent"),
    Rejection("[-]", at: 2, "expected digit after '-'"),
    Rejection("-", at: 1, "unexpected end of data"),
    Rejection(".5", at: 0, "unexpected character"),
    Rejection("+1", at: 0, "unexpected character"),
    Rejection("0x10", at: 1, "unexpected character"),
    // Keywords are case-sensitive and complete.
    Rejection("True", at: 0, "unexpected character"),
    Rejection("Null", at: 0, "unexpected character"),
    Rejection("nulll", at: 4, "unexpected character"),
    // Truncated and empty input: an error at the end, never a request for more.
    Rejection("", at: 0, "unexpected end of data"),
    Rejection("   ", at: 3, "unexpected end of data"),
    Rejection("{\"a\":", at: 5, "unexpected end of data"),
    Rejection("[1,2", at: 4, "unexpected end of data"),
    Rejection("\"abc", at: 4, "unexpected end of data"),
    Rejection("tru", at: 3, "unexpected end of data"),
    Rejection("{\"a\":1", at: 6, "unexpected end of data"),
    // Structure (json-c's own checks and wording).
    Rejection("{\"a\" 1}", at: 5, "object property name separator ':' expected"),
    Rejection("[1 2]", at: 3, "array value separator ',' expected"),
    Rejection("{1:2}", at: 1, "quoted object property name expected"),
    Rejection("{\"a\":1 \"b\":2}", at: 7, "object value separator ',' expected"),
    // Escapes.
    Rejection("\"\\x\"", at: 2, "invalid string sequence"),
    Rejection("\"\\'\"", at: 2, "invalid string sequence"),
    Rejection("\"\\u12G4\"", at: 5, "invalid string sequence"),
    // json-c would truncate the key to "a" (keys are C strings).
    Rejection("{\"a\\u0000b\":1}", at: 1, "object keys containing \\u0000 are not supported"),
    Rejection("{\"ok\":{\"\\u0000\" : 1}}", at: 7, "object keys containing \\u0000 are not supported"),
    // A byte order mark is not JSON text.
    Rejection("\u{FEFF}{}", at: 0, "unexpected character"),
    Rejection("[1]\u{FEFF}", at: 3, "unexpected character"),
]

@Test("each non-RFC-8259 input is rejected with its message and byte offset", arguments: rejections)
func nonConformingInputIsRejected(_ rejection: Rejection) {
    let error = parseError(bytes: rejection.input)
    #expect(error == JSONError(message: rejection.message, offset: rejection.offset))
}

@Test func theSameInputsAreRejectedWhenGivenAsAString() {
    for rejection in rejections where !rejection.input.contains(0) {
        let text = String(decoding: rejection.input, as: UTF8.self)
        #expect(parseError(text)?.offset == rejection.offset, "\(text.debugDescription)")
    }
}

@Test func whitespaceAroundTheValueIsAllowed() throws {
    #expect(try JSON.parse(" \t\r\n{\"a\" : [ 1 , 2 ] }\n\t ") == ["a": [1, 2]])
    #expect(try JSON.parse("  42  ") == 42)
    #expect(try JSON.parse("\n\"s\"\n") == "s")
}

@Test func scalarsAreValidDocumentsOnTheirOwn() throws {
    #expect(try JSON.parse("null") == .null)
    #expect(try JSON.parse("true") == .bool(true))
    #expect(try JSON.parse("false") == .bool(false))
    #expect(try JSON.parse("0") == .int(0))
    #expect(try JSON.parse("-12.5e1") == .double(-125))
    #expect(try JSON.parse("\"\"") == .string(""))
}

@Test func singleQuotesInsideDoubleQuotedStringsAreFine() throws {
    #expect(try JSON.parse("{\"don't\":\"it's\"}") == ["don't": "it's"])
}

@Test func escapedControlCharactersAndSlashesAreAccepted() throws {
    #expect(try JSON.parse(#""\b\f\n\r\t\/\u0001\u001F""#) == .string("\u{8}\u{C}\n\r\t/\u{1}\u{1F}"))
}

@Test func theEarliestErrorIsReportedWhenJSONCFindsOneBeforeTheStrictScan() {
    // json-c's missing comma at 3 comes before the single quote at 6.
    #expect(parseError("[1 2, 'x']") == JSONError(message: "array value separator ',' expected", offset: 3))
    // The single quote comes first.
    #expect(parseError("['x', 1 2]")?.offset == 1)
}

@Test func aValueFollowedByAStrictViolationIsStillRejected() {
    #expect(parseError("[1] 'x'") == JSONError(message: "single-quoted strings are not allowed", offset: 4))
    #expect(parseError("1 NaN")?.offset == 2)
}

@Test func controlCharactersAreFoundAtEveryPositionOfLongStrings() {
    // The scanner skips strings eight bytes at a time; a control character, quote or backslash
    // must be noticed wherever it falls in a word.
    for length in 0..<24 {
        for position in 0...length {
            var body = Array(repeating: UInt8(ascii: "x"), count: length)
            body.insert(0x0A, at: position)
            let input = [UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")]
            #expect(parseError(bytes: input) == JSONError(
                message: "control character in string must be escaped", offset: 1 + position))
        }
    }
}

@Test func quotesAndEscapesAreFoundAtEveryPositionOfLongStrings() throws {
    // An escaped quote at every byte position (so also as the last byte of a word), followed by
    // multi-byte characters (bytes with the high bit set must not look special).
    for position in 0..<24 {
        for tail in ["", "é", "éé😀", "abcdefghij"] {
            let body = String(repeating: "x", count: position) + "\\\"" + tail
            let expected = String(repeating: "x", count: position) + "\"" + tail
            #expect(try JSON.parse("[\"\(body)\",\"\(body)\"]") == [.string(expected), .string(expected)])
            #expect(try JSON.parse("{\"\(body)\":1}") == .object(JSONObject([(expected, 1)])))
        }
    }
}
