import CJSONC

/// A reusable strict JSON parser that owns one json-c tokener.
///
/// Use one per thread or connection: it is not `Sendable`. Each parse starts afresh (the tokener
/// is reset), so a failed parse does not affect the next one. The rules are those of ``JSON``.
public final class JSONParser {
    /// The deepest nesting accepted, counted in values as json-c counts it: the top-level value
    /// is at depth 1 and the contents of a container at depth d are at depth d + 1. So `1` and
    /// `[]` need a depth of 1, `[1]` and `[[]]` need 2, `[[1]]` needs 3.
    public let maxDepth: Int
    private let tokener: UnsafeMutablePointer<json_tokener>

    /// The largest `maxDepth` a parser accepts. Converting, comparing, serializing and releasing a
    /// value recurse once per level (about 1 KiB of stack per level in debug builds), so deeper
    /// documents could exhaust a thread's stack instead of failing cleanly.
    public static let maxDepthLimit = 2048

    /// Creates a parser accepting nesting up to `maxDepth` levels (1...``maxDepthLimit``).
    public init(maxDepth: Int = JSON.defaultMaxDepth) {
        precondition((1...Self.maxDepthLimit).contains(maxDepth),
                     "JSONParser maxDepth must be in 1...\(Self.maxDepthLimit)")
        guard let tokener = json_tokener_new_ex(Int32(maxDepth)) else {
            fatalError("json-c: out of memory while creating a tokener")
        }
        // STRICT also makes json-c reject data after the value; what it still lets through is
        // caught by StrictScanner.
        json_tokener_set_flags(tokener, JSON_TOKENER_STRICT)
        self.maxDepth = maxDepth
        self.tokener = tokener
    }

    deinit {
        json_tokener_free(tokener)
    }

    /// Parses exactly one JSON value from `text`.
    public func parse(_ text: String) throws(JSONError) -> JSONValue {
        var text = text
        let result: Result<JSONValue, JSONError> = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> JSONValue in
                try parse(bytes: UnsafeRawBufferPointer(buffer))
            }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from UTF-8 `bytes`.
    public func parse(bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONError) -> JSONValue in try parse(bytes: buffer) }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from UTF-8 `bytes`. The bytes need not be NUL-terminated.
    public func parse(bytes: UnsafeRawBufferPointer) throws(JSONError) -> JSONValue {
        json_tokener_reset(tokener)
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONError(message: "unexpected end of data", offset: 0)
        }
        let input = base.assumingMemoryBound(to: UInt8.self)
        let scan = StrictScanner.scan(input, count: bytes.count)
        // On a scanner error, json-c reads only what precedes it: an earlier error of its own
        // (say, a missing comma) is the one to report.
        let limit = scan.error?.offset ?? bytes.count
        let isComplete = scan.error == nil

        let outcome = scan.wideIntegerEnds.isEmpty
            ? feed(input, count: limit, isComplete: isComplete)
            : feedReadingAsDoubles(input, count: limit, wideIntegerEnds: scan.wideIntegerEnds, isComplete: isComplete)

        switch outcome {
        case .value(let root):
            defer { json_object_put(root) }
            if let error = scan.error { throw error }
            return JSONCTree.value(of: root)
        case .failure(let error):
            if let scanError = scan.error, scanError.offset < error.offset { throw scanError }
            throw error
        case .incomplete:
            throw scan.error ?? JSONError(message: "unexpected end of data", offset: bytes.count)
        }
    }

    /// Runs the tokener over `count` bytes in which the integer literals ending at
    /// `wideIntegerEnds` do not fit in 64 bits, which json-c would saturate: each is given an
    /// `e0`, so that json-c reads it as a double, and error offsets are mapped back to `input`.
    private func feedReadingAsDoubles(_ input: UnsafePointer<UInt8>, count: Int, wideIntegerEnds: [Int],
                                      isComplete: Bool) -> FeedOutcome {
        var rewritten = [UInt8]()
        rewritten.reserveCapacity(count + 2 * wideIntegerEnds.count)
        var copied = 0
        for end in wideIntegerEnds {
            rewritten.append(contentsOf: UnsafeBufferPointer(start: input + copied, count: end - copied))
            rewritten.append(contentsOf: [UInt8(ascii: "e"), UInt8(ascii: "0")])
            copied = end
        }
        rewritten.append(contentsOf: UnsafeBufferPointer(start: input + copied, count: count - copied))
        let outcome = rewritten.withUnsafeBufferPointer { buffer in
            feed(buffer.baseAddress!, count: buffer.count, isComplete: isComplete)
        }
        guard case .failure(var error) = outcome else { return outcome }
        error.offset = Self.originalOffset(error.offset, wideIntegerEnds: wideIntegerEnds)
        return .failure(error)
    }

    private enum FeedOutcome {
        /// A complete value (`nil` is JSON null); the caller owns one reference.
        case value(OpaquePointer?)
        case failure(JSONError)
        /// The input ended inside a value and `isComplete` was false.
        case incomplete
    }

    /// Runs the tokener over `count` bytes. With `isComplete`, the end of the bytes is the end of
    /// the input: json-c is then told so, by a NUL, which is how it finishes a number at the very
    /// end of the input and how it reports truncated input (instead of asking for more).
    private func feed(_ input: UnsafePointer<UInt8>, count: Int, isComplete: Bool) -> FeedOutcome {
        var offset = 0
        repeat {
            // json_tokener_parse_ex takes an Int32 length; the tokener is incremental.
            let chunk = min(count - offset, Int(Int32.max))
            let root = UnsafeRawPointer(input + offset).withMemoryRebound(to: CChar.self, capacity: chunk) {
                json_tokener_parse_ex(tokener, $0, Int32(chunk))
            }
            let status = json_tokener_get_error(tokener)
            let end = offset + json_tokener_get_parse_end(tokener)
            if status == json_tokener_success {
                // STRICT already rejects anything but whitespace after the value; make sure.
                var next = end
                while next < count, StrictScanner.isWhitespace(input[next]) { next += 1 }
                if next < count {
                    json_object_put(root)
                    return .failure(JSONError(message: "unexpected data after the JSON value", offset: next))
                }
                return .value(root)
            }
            if status != json_tokener_continue {
                return .failure(JSONError(message: Self.describe(status), offset: end))
            }
            offset += chunk
        } while offset < count

        guard isComplete else { return .incomplete }
        var nul: CChar = 0
        let root = json_tokener_parse_ex(tokener, &nul, 1)
        let status = json_tokener_get_error(tokener)
        if status == json_tokener_success { return .value(root) }
        json_object_put(root)  // NULL; json-c returns no object on failure
        let message = status == json_tokener_continue ? "unexpected end of data" : Self.describe(status)
        return .failure(JSONError(message: message, offset: count))
    }

    private static func describe(_ status: json_tokener_error) -> String {
        guard let text = json_tokener_error_desc(status) else { return "invalid JSON" }
        return String(cString: text)
    }

    /// Maps an offset in the rewritten input (with "e0" after each wide integer) back.
    private static func originalOffset(_ offset: Int, wideIntegerEnds: [Int]) -> Int {
        var inserted = 0
        for end in wideIntegerEnds {
            let rewrittenEnd = end + inserted
            if offset < rewrittenEnd { break }
            if offset < rewrittenEnd + 2 { return end }
            inserted += 2
        }
        return offset - inserted
    }
}

@available(*, unavailable, message: "a JSONParser owns a json-c tokener; use one per thread")
extension JSONParser: Sendable {}
