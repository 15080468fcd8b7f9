/// The outcome of ``StrictScanner/scan(_:count:)``.
struct StrictScan {
    /// The first RFC 8259 violation that json-c would let through (or misread), if any.
    var error: JSONError?
    /// Offsets just past each integer literal (no fraction, no exponent) that does not fit in
    /// `Int64`, ascending. Only literals before `error` are listed.
    var wideIntegerEnds: [Int] = []
}

/// One pass over the input, before json-c sees it, for what json-c 0.16 gets wrong even with
/// `JSON_TOKENER_STRICT` (each observed, and pinned by a test):
///
/// - it accepts single-quoted object keys (`{'a':1}`; single-quoted *values* are rejected);
/// - it accepts `NaN`, `Infinity` and `-Infinity`;
/// - it accepts raw control characters (tab, newline, U+0001 …) inside strings;
/// - it accepts `-01` (as -1) and `1.` (as 1.0), though it rejects `01`;
/// - it takes a raw NUL byte for the end of the input, so `[1]\0junk` parses;
/// - it truncates object keys at an escaped `\u0000` (keys are C strings): `{"a\u0000b":1}`
///   becomes `{"a":1}`;
/// - it saturates integers that do not fit in 64 bits (`18446744073709551616` parses as
///   `UINT64_MAX`, `-9223372036854775809` as `INT64_MIN`) without reporting anything.
///
/// The scanner only tracks whether it is inside a double-quoted string; json-c still checks the
/// structure, the keywords and the escapes. Strings (most of the bytes of a typical document)
/// are skipped eight bytes at a time.
enum StrictScanner {
    static func scan(_ p: UnsafePointer<UInt8>, count n: Int) -> StrictScan {
        var result = StrictScan()
        var i = 0
        @inline(__always) func fail(_ message: String, at offset: Int) -> StrictScan {
            result.error = JSONError(message: message, offset: offset)
            return result
        }
        while i < n {
            let c = p[i]
            switch c {
            case UInt8(ascii: "\""):
                let start = i
                i += 1
                var escapedNul = false
                var closed = false
                while true {
                    // Skip runs of ordinary bytes (not `"`, `\` or a control character).
                    while i &+ 8 <= n {
                        let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                        if containsSpecialByte(word) { break }
                        i &+= 8
                    }
                    guard i < n else { break }  // unterminated: json-c reports it
                    let d = p[i]
                    if d == UInt8(ascii: "\"") {
                        i += 1
                        closed = true
                        break
                    }
                    if d == UInt8(ascii: "\\") {
                        if i + 5 < n, p[i + 1] == UInt8(ascii: "u"), p[i + 2] == UInt8(ascii: "0"),
                            p[i + 3] == UInt8(ascii: "0"), p[i + 4] == UInt8(ascii: "0"),
                            p[i + 5] == UInt8(ascii: "0")
                        {
                            escapedNul = true
                        }
                        i += 2  // json-c validates the escape itself
                        continue
                    }
                    if d < 0x20 {
                        return fail(
                            d == 0 ? "NUL byte in string" : "control character in string must be escaped",
                            at: i)
                    }
                    i += 1
                }
                if escapedNul && closed {
                    var j = i
                    while j < n, isWhitespace(p[j]) { j += 1 }
                    if j < n, p[j] == UInt8(ascii: ":") {
                        return fail("object keys containing \\u0000 are not supported", at: start)
                    }
                }
            case 0x20, 0x09, 0x0A, 0x0D,
                UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: ","), UInt8(ascii: ":"):
                i += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                i += 1  // true, false, null: json-c checks the words
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = i
                if c == UInt8(ascii: "-") {
                    i += 1
                    guard i < n, isDigit(p[i]) else {
                        if hasPrefix(p, n, at: i, "Infinity") {
                            return fail("NaN and Infinity are not allowed", at: start)
                        }
                        return fail(i < n ? "expected digit after '-'" : "unexpected end of data", at: i)
                    }
                }
                let integerStart = i
                if p[i] == UInt8(ascii: "0") {
                    i += 1
                    if i < n, isDigit(p[i]) {
                        return fail("leading zeros are not allowed", at: integerStart)
                    }
                } else {
                    while i < n, isDigit(p[i]) { i += 1 }
                }
                let integerEnd = i
                var isInteger = true
                if i < n, p[i] == UInt8(ascii: ".") {
                    isInteger = false
                    i += 1
                    guard i < n, isDigit(p[i]) else {
                        return fail("expected digit after decimal point", at: i)
                    }
                    while i < n, isDigit(p[i]) { i += 1 }
                }
                if i < n, (p[i] | 0x20) == UInt8(ascii: "e") {
                    isInteger = false
                    i += 1
                    if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
                    guard i < n, isDigit(p[i]) else {
                        return fail("expected digit in exponent", at: i)
                    }
                    while i < n, isDigit(p[i]) { i += 1 }
                }
                if isInteger,
                    exceedsInt64(p + integerStart, digits: integerEnd - integerStart,
                                 negative: start != integerStart)
                {
                    result.wideIntegerEnds.append(i)
                }
            case UInt8(ascii: "'"):
                return fail("single-quoted strings are not allowed", at: i)
            case UInt8(ascii: "/"):
                return fail("comments are not allowed", at: i)
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                if hasPrefix(p, n, at: i, "NaN") || hasPrefix(p, n, at: i, "Infinity") {
                    return fail("NaN and Infinity are not allowed", at: i)
                }
                return fail("unexpected character", at: i)
            case 0:
                return fail("NUL byte in input", at: i)
            default:
                return fail("unexpected character", at: i)
            }
        }
        return result
    }

    @inline(__always) static func isDigit(_ c: UInt8) -> Bool {
        c &- UInt8(ascii: "0") < 10
    }

    @inline(__always) static func isWhitespace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09
    }

    /// Whether any byte of `word` is `"`, `\` or below 0x20 (the classic "has a zero byte" /
    /// "has a byte less than n" bit tricks, which are exact as to whether such a byte exists).
    @inline(__always) static func containsSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let below20 = (word &- (ones &* 0x20)) & ~word
        let quoteZero = (quote &- ones) & ~quote
        let backslashZero = (backslash &- ones) & ~backslash
        return ((below20 | quoteZero | backslashZero) & highBits) != 0
    }

    static func hasPrefix(_ p: UnsafePointer<UInt8>, _ n: Int, at i: Int, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard i + length <= n else { return false }
        for k in 0..<length where p[i + k] != word.utf8Start[k] { return false }
        return true
    }

    /// Whether the decimal digits (no leading zeros) denote a magnitude outside `Int64`'s range.
    static func exceedsInt64(_ digits: UnsafePointer<UInt8>, digits count: Int, negative: Bool) -> Bool {
        if count < 19 { return false }
        if count > 19 { return true }
        let limit: StaticString = negative ? "9223372036854775808" : "9223372036854775807"
        for k in 0..<19 {
            let a = digits[k], b = limit.utf8Start[k]
            if a != b { return a > b }
        }
        return false
    }
}
