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
    static func scan(_ input: UnsafePointer<UInt8>, count: Int) -> StrictScan {
        var cursor = Cursor(input: input, count: count)
        do throws(JSONError) {
            while cursor.position < count { try cursor.scanNext() }
            return StrictScan(error: nil, wideIntegerEnds: cursor.wideIntegerEnds)
        } catch {
            return StrictScan(error: error, wideIntegerEnds: cursor.wideIntegerEnds)
        }
    }

    /// Where the scan is in the input, and the wide integers it has found. Each step starts at
    /// `position` and leaves it after what it read, or throws the violation it found.
    struct Cursor {
        let input: UnsafePointer<UInt8>
        let count: Int
        var position = 0
        var wideIntegerEnds: [Int] = []

        init(input: UnsafePointer<UInt8>, count: Int) {
            self.input = input
            self.count = count
        }

        /// A string, a number, or one byte of anything else, by the byte at the position.
        @inline(__always)
        mutating func scanNext() throws(JSONError) {
            let byte = input[position]
            switch byte {
            case UInt8(ascii: "\""):
                try string()
            case 0x20, 0x09, 0x0A, 0x0D,
                UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
                UInt8(ascii: ","), UInt8(ascii: ":"):
                position += 1
            case UInt8(ascii: "a")...UInt8(ascii: "z"):
                position += 1  // true, false, null: json-c checks the words
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number()
            case UInt8(ascii: "'"):
                throw JSONError(message: "single-quoted strings are not allowed", offset: position)
            case UInt8(ascii: "/"):
                throw JSONError(message: "comments are not allowed", offset: position)
            case UInt8(ascii: "N"), UInt8(ascii: "I"):
                if hasPrefix("NaN", at: position) || hasPrefix("Infinity", at: position) {
                    throw JSONError(message: "NaN and Infinity are not allowed", offset: position)
                }
                throw JSONError(message: "unexpected character", offset: position)
            case 0:
                throw JSONError(message: "NUL byte in input", offset: position)
            default:
                throw JSONError(message: "unexpected character", offset: position)
            }
        }

        /// A double-quoted string, from its opening quote: no raw control character or NUL
        /// inside, and no escaped NUL (`\u0000`) when it is an object key.
        mutating func string() throws(JSONError) {
            let start = position
            position += 1
            var escapedNul = false
            var closed = false
            while true {
                skipOrdinaryBytes()
                guard position < count else { break }  // unterminated: json-c reports it
                let byte = input[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    closed = true
                    break
                }
                if byte == UInt8(ascii: "\\") {
                    if hasPrefix("\\u0000", at: position) { escapedNul = true }
                    position += 2  // json-c validates the escape itself
                    continue
                }
                if byte < 0x20 {
                    throw JSONError(message: byte == 0 ? "NUL byte in string" : "control character in string must be escaped",
                                    offset: position)
                }
                position += 1
            }
            if escapedNul && closed && isFollowedByColon() {
                throw JSONError(message: "object keys containing \\u0000 are not supported", offset: start)
            }
        }

        /// Skips runs of ordinary bytes (not `"`, `\` or a control character), eight at a time.
        @inline(__always)
        mutating func skipOrdinaryBytes() {
            while position &+ 8 <= count {
                let word = UnsafeRawPointer(input + position).loadUnaligned(as: UInt64.self)
                if containsSpecialByte(word) { break }
                position &+= 8
            }
        }

        /// Whether a `:` follows the position, after whitespace (the string before it is an
        /// object key).
        func isFollowedByColon() -> Bool {
            var next = position
            while next < count, isWhitespace(input[next]) { next += 1 }
            return next < count && input[next] == UInt8(ascii: ":")
        }

        /// A number, from its `-` or first digit: no leading zeros, digits after `-`, `.` and
        /// `e`. An integer beyond `Int64` is listed in `wideIntegerEnds`.
        mutating func number() throws(JSONError) {
            let start = position
            if input[position] == UInt8(ascii: "-") { try minusSign() }
            let integerStart = position
            try integerDigits()
            let integerEnd = position
            let hasFraction = try fraction()
            let hasExponent = try exponent()
            if !hasFraction && !hasExponent,
               exceedsInt64(input + integerStart, digits: integerEnd - integerStart, negative: start != integerStart) {
                wideIntegerEnds.append(position)
            }
        }

        /// A `-`, which a digit must follow (`-Infinity` is not a number).
        mutating func minusSign() throws(JSONError) {
            let start = position
            position += 1
            guard position < count, isDigit(input[position]) else {
                if hasPrefix("Infinity", at: position) {
                    throw JSONError(message: "NaN and Infinity are not allowed", offset: start)
                }
                throw JSONError(message: position < count ? "expected digit after '-'" : "unexpected end of data", offset: position)
            }
        }

        /// `0`, or digits that do not start with `0`.
        mutating func integerDigits() throws(JSONError) {
            if input[position] == UInt8(ascii: "0") {
                position += 1
                if position < count, isDigit(input[position]) {
                    throw JSONError(message: "leading zeros are not allowed", offset: position - 1)
                }
            } else {
                skipDigits()
            }
        }

        /// A `.` and its digits, if one is there.
        mutating func fraction() throws(JSONError) -> Bool {
            guard position < count, input[position] == UInt8(ascii: ".") else { return false }
            position += 1
            guard position < count, isDigit(input[position]) else {
                throw JSONError(message: "expected digit after decimal point", offset: position)
            }
            skipDigits()
            return true
        }

        /// An `e` or `E`, a sign, and digits, if an exponent is there.
        mutating func exponent() throws(JSONError) -> Bool {
            guard position < count, (input[position] | 0x20) == UInt8(ascii: "e") else { return false }
            position += 1
            if position < count, input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") { position += 1 }
            guard position < count, isDigit(input[position]) else {
                throw JSONError(message: "expected digit in exponent", offset: position)
            }
            skipDigits()
            return true
        }

        @inline(__always)
        mutating func skipDigits() {
            while position < count, isDigit(input[position]) { position += 1 }
        }

        func hasPrefix(_ word: StaticString, at offset: Int) -> Bool {
            StrictScanner.hasPrefix(input, count, at: offset, word)
        }
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
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

    static func hasPrefix(_ input: UnsafePointer<UInt8>, _ count: Int, at offset: Int, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard offset + length <= count else { return false }
        for index in 0..<length where input[offset + index] != word.utf8Start[index] { return false }
        return true
    }

    /// Whether the decimal digits (no leading zeros) denote a magnitude outside `Int64`'s range.
    static func exceedsInt64(_ digits: UnsafePointer<UInt8>, digits count: Int, negative: Bool) -> Bool {
        if count < 19 { return false }
        if count > 19 { return true }
        let limit: StaticString = negative ? "9223372036854775808" : "9223372036854775807"
        for index in 0..<19 {
            let digit = digits[index], limitDigit = limit.utf8Start[index]
            if digit != limitDigit { return digit > limitDigit }
        }
        return false
    }
}
