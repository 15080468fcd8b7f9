import RoutesJSON
import Testing

let richDocument: JSONValue = [
    "jsonrpc": "2.0",
    "id": 7,
    "method": "textDocument/publishDiagnostics",
    "params": [
        "uri": "file:///tmp/App.routes",
        "version": .null,
        "flags": ["on": true, "off": false],
        "diagnostics": [
            [
                "range": ["start": ["line": 0, "character": 4], "end": ["line": 0, "character": 17]],
                "message": "Quote \" backslash \\ newline \n tab \t é 😀 𝄞 中文 a\u{0}b",
                "tags": [1, 2],
                "score": 0.1,
                "huge": 1e300,
                "tiny": 5e-300,
                "negative": -9223372036854775808,
            ],
        ],
        "empty": [:],
        "none": [],
        "nested": [[[[]]], [[:]]],
    ],
]

@Test func aNestedDocumentSurvivesCompactSerializationAndParsing() throws {
    let text = JSON.serialize(richDocument)
    #expect(try JSON.parse(text) == richDocument)
}

@Test func aNestedDocumentSurvivesPrettySerializationAndParsing() throws {
    let text = JSON.serialize(richDocument, pretty: true)
    #expect(text.contains("\n  \"id\": 7,\n"))
    #expect(try JSON.parse(text) == richDocument)
}

@Test func escapesInInputDecodeToTheirCharacters() throws {
    let value = try JSON.parse(#""\" \\ \n \t \u00e9 \ud83d\ude00 \/ \b \f \r""#)
    #expect(value == .string("\" \\ \n \t é 😀 / \u{8} \u{C} \r"))
}

@Test func escapedNULInsideAStringIsKept() throws {
    let value = try JSON.parse(#"["a\u0000b", "\u0000"]"#)
    #expect(value == ["a\u{0}b", "\u{0}"])
    #expect(value[0]?.stringValue?.utf8.count == 3)
    #expect(JSON.serialize(value) == #"["a\u0000b","\u0000"]"#)
}

@Test func astralPlaneCharactersRoundTripAsRawUTF8AndFromEscapes() throws {
    let text = "😀𝄞🂡\u{10FFFF}"
    #expect(JSON.serialize(.string(text)) == "\"\(text)\"")
    #expect(try JSON.parse("\"\(text)\"") == .string(text))
    #expect(try JSON.parse(#""\ud834\udd1e\udbff\udfff""#) == .string("𝄞\u{10FFFF}"))
}

@Test func unicodeKeysRoundTrip() throws {
    let value: JSONValue = ["ключ": 1, "🔑": 2, "é": 3]
    let text = JSON.serialize(value)
    #expect(text == #"{"ключ":1,"🔑":2,"é":3}"#)
    #expect(try JSON.parse(text) == value)
}

@Test func loneSurrogateEscapesBecomeTheReplacementCharacter() throws {
    #expect(try JSON.parse(#""\ud800""#) == "\u{FFFD}")
    #expect(try JSON.parse(#""\udc00x""#) == "\u{FFFD}x")
}

@Test func invalidUTF8InStringsIsRepairedNotRejected() throws {
    // json-c passes the bytes through; String(decoding:) turns each bad sequence into U+FFFD.
    let bytes: [UInt8] = [0x5B, 0x22, 0xFF, 0x61, 0x22, 0x2C, 0x22, 0xC3, 0x22, 0x5D]  // ["\xFFa","\xC3"]
    #expect(try JSON.parse(bytes: bytes) == ["\u{FFFD}a", "\u{FFFD}"])
}

@Test func invalidUTF8KeysThatRepairToTheSameKeyAreMerged() throws {
    // {"\xFF":1,"\xFE":2,"ok":3}: distinct for json-c, both "\u{FFFD}" for Swift.
    let bytes: [UInt8] = Array("{\"".utf8) + [0xFF] + Array("\":1,\"".utf8) + [0xFE] + Array("\":2,\"ok\":3}".utf8)
    let value = try JSON.parse(bytes: bytes)
    #expect(value.objectValue?.keys == ["\u{FFFD}", "ok"])
    #expect(value["\u{FFFD}"] == 2)
}

@Test func parsingFromBytesAndFromStringAgree() throws {
    let text = JSON.serialize(richDocument)
    let fromBytes = try JSON.parse(bytes: Array(text.utf8))
    let fromBuffer = try Array(text.utf8).withUnsafeBytes { buffer in try JSON.parse(bytes: buffer) }
    #expect(fromBytes == richDocument)
    #expect(fromBuffer == richDocument)
}

@Test func aBufferIsReadOnlyUpToItsCount() throws {
    // json-c must not read past the buffer: "123" inside "123456" is 123, "[1]" inside "[1]]]" is fine.
    let digits = Array("123456".utf8)
    let number = try digits.withUnsafeBytes { try JSON.parse(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<3])) }
    #expect(number == 123)
    let brackets = Array("[1]]]".utf8)
    let array = try brackets.withUnsafeBytes { try JSON.parse(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<3])) }
    #expect(array == [1])
    let truncated = Array("{\"a\":1}".utf8)
    #expect(throws: JSONError(message: "unexpected end of data", offset: 6)) {
        try truncated.withUnsafeBytes { try JSON.parse(bytes: UnsafeRawBufferPointer(rebasing: $0[0..<6])) }
    }
}

@Test func duplicateKeysKeepTheFirstPositionAndTheLastValue() throws {
    let value = try JSON.parse(#"{"a":1,"b":2,"a":3}"#)
    #expect(value.objectValue?.keys == ["a", "b"])
    #expect(value["a"] == 3)
    #expect(JSON.serialize(value) == #"{"a":3,"b":2}"#)
}

@Test func parsedKeysKeepTheirDocumentOrder() throws {
    let text = #"{"zeta":1,"alpha":2,"mid":3,"beta":4}"#
    let value = try JSON.parse(text)
    #expect(value.objectValue?.keys == ["zeta", "alpha", "mid", "beta"])
    #expect(JSON.serialize(value) == text)
}

@Test func largeObjectsKeepOrderAndLookUpEveryKey() throws {
    let keys = (0..<500).map { "key\(($0 * 7919) % 500)" }
    let text = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",") + "}"
    let value = try JSON.parse(text)
    #expect(value.objectValue?.keys == keys)
    for (position, key) in keys.enumerated() { #expect(value[key] == .int(Int64(position))) }
    #expect(JSON.serialize(value) == text)
}
