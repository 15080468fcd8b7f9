import Foundation
import RoutesJSON
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Test func nestingUpToTheDefaultLimitOf512Parses() throws {
    #expect(JSON.defaultMaxDepth == 512)
    let arrays = try JSON.parse(nestedArrays(depth: 512))
    var depth = 0
    var current = arrays
    while let inner = current.arrayValue {
        depth += 1
        guard let next = inner.first else { break }
        current = next
    }
    #expect(depth == 512)
    #expect(try JSON.parse(nestedObjects(depth: 512)).objectValue?.keys == ["k"])
}

@Test func nestingBeyondTheLimitIsAnErrorNotACrash() {
    #expect(parseError(nestedArrays(depth: 513)) == JSONError(message: "nesting too deep", offset: 512))
    #expect(parseError(nestedObjects(depth: 513))?.message == "nesting too deep")
    #expect(parseError(nestedArrays(depth: 100_000))?.message == "nesting too deep")
}

@Test func aParserHonoursItsOwnDepthLimit() throws {
    // Depth counts values: the top-level value is at depth 1, so [[1]] needs 3, as does [[[]]].
    let parser = JSONParser(maxDepth: 3)
    #expect(parser.maxDepth == 3)
    #expect(try parser.parse(bytes: Array("[[1]]".utf8)) == [[1]])
    #expect(try parser.parse(bytes: Array(#"{"a":{"b":1}}"#.utf8)) == ["a": ["b": 1]])
    #expect(try parser.parse(bytes: Array("[[[]]]".utf8)) == [[[]]])
    #expect(throws: JSONError(message: "nesting too deep", offset: 3)) {
        try parser.parse(bytes: Array("[[[1]]]".utf8))
    }
    #expect(throws: JSONError(message: "nesting too deep", offset: 15)) {
        try parser.parse(bytes: Array(#"{"a":{"b":{"c":1}}}"#.utf8))
    }
    // json-c's own default (32) is not what the static functions use.
    #expect(try JSON.parse(nestedArrays(depth: 33)).arrayValue != nil)
}

@Test func theLargestAllowedDepthParsesAndSerializes() throws {
    let parser = JSONParser(maxDepth: JSONParser.maxDepthLimit)
    let value = try parser.parse(nestedArrays(depth: JSONParser.maxDepthLimit))
    #expect(JSON.serialize(value) == nestedArrays(depth: JSONParser.maxDepthLimit))
    #expect(throws: JSONError(message: "nesting too deep", offset: JSONParser.maxDepthLimit)) {
        try parser.parse(nestedArrays(depth: JSONParser.maxDepthLimit + 1))
    }
}

@Test func oneParserHandlesValidAndInvalidInputsInAnyOrder() throws {
    let parser = JSONParser()
    let inputs: [(String, Result<JSONValue, JSONError>)] = [
        (#"{"a":[1,2]}"#, .success(["a": [1, 2]])),
        (#"{"a":"#, .failure(JSONError(message: "unexpected end of data", offset: 5))),
        ("42", .success(42)),  // a number at the very end after an incomplete document
        ("[1,]", .failure(JSONError(message: "unexpected character", offset: 3))),
        (#""str""#, .success("str")),
        (nestedArrays(depth: 600), .failure(JSONError(message: "nesting too deep", offset: 512))),
        ("[[[]]]", .success([[[]]])),
        ("{'k':1}", .failure(JSONError(message: "single-quoted strings are not allowed", offset: 1))),
        (#"{"k":1}"#, .success(["k": 1])),
        ("", .failure(JSONError(message: "unexpected end of data", offset: 0))),
        ("18446744073709551616", .success(.double(18446744073709551616.0))),
        ("null", .success(.null)),
        ("[\"unterminated", .failure(JSONError(message: "unexpected end of data", offset: 14))),
        ("true", .success(true)),
    ]
    for round in 0..<3 {
        for (input, expected) in inputs {
            let actual = Result { () throws(JSONError) -> JSONValue in try parser.parse(input) }
            #expect(actual == expected, "round \(round): \(input.prefix(20).debugDescription)")
        }
    }
}

@Test func repeatedParsingAndSerializingDoesNotCrashOrGrowWithoutBound() async throws {
    // Ownership under repeated use: every json-c tree is released exactly once. A double
    // release would crash; a leak would show as growth in the resident set. In a process of
    // its own (an exit test), so that what other suites allocate meanwhile does not count.
    await #expect(processExitsWith: .success) {
        let parser = JSONParser()
        let text = JSON.serialize(richDocument)
        let bytes = Array(text.utf8)
        // Warm up (allocator arenas, caches), then measure.
        for _ in 0..<1_000 { _ = try? parser.parse(bytes: bytes) }
        let residentBefore = residentSetKilobytes()
        for iteration in 0..<100_000 {
            guard let value = try? parser.parse(bytes: bytes) else { exit(3) }
            let again = JSON.serialize(value)
            if iteration % 10_000 == 0 && again != text { exit(4) }
            if iteration % 3 == 0 {
                _ = try? parser.parse(bytes: Array(bytes.dropLast()))  // error path
            }
        }
        let residentAfter = residentSetKilobytes()
        // Under AddressSanitizer (scripts/sanitize.sh sets ASAN_OPTIONS) freed memory is held
        // in quarantine on purpose, so growth says nothing there; the crash check still runs.
        let sanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
        if !sanitized, let residentBefore, let residentAfter {
            // Leaking even one tree per iteration would add hundreds of megabytes.
            if residentAfter - residentBefore >= 20_000 { exit(5) }
        }
        exit(0)
    }
}

@Test func aMegabyteDocumentRoundTrips() throws {
    var items: [JSONValue] = []
    for index in 0..<6000 {
        items.append([
            "uri": .string("file:///workspace/module\(index)/App.routes"),
            "range": ["start": ["line": .int(Int64(index)), "character": 4], "end": ["line": .int(Int64(index)), "character": 17]],
            "message": .string(String(repeating: "Screen \(index) is unreachable; ", count: 3)),
            "severity": 2,
            "ratio": .double(Double(index) / 7),
        ])
    }
    let document: JSONValue = ["jsonrpc": "2.0", "id": 1, "result": .array(items),
                               "text": .string(String(repeating: "line of source text\n", count: 10_000))]
    // (How fast is measured by Benchmarks/, not asserted here.)
    let text = JSON.serialize(document)
    #expect(text.utf8.count > 1_000_000)
    #expect(try JSON.parse(text) == document)
}

/// The resident set size of this process, from /proc (nil where unavailable).
func residentSetKilobytes() -> Int? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix("VmRSS:") {
            return Int(text.dropFirst(6).filter(\.isNumber))
        }
    }
    return nil
}
