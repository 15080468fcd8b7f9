#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``MessageFramer`` found in its input.
public enum FramerEvent: Sendable, Equatable {
    /// The body of one message (the bytes after the header block, `Content-Length` of them).
    case message([UInt8])
    /// A problem with the input, to be logged. The framer has already recovered from it.
    case error(String)
}

/// The LSP 3.17 base protocol's framing, as a state machine without I/O: ``feed(_:)`` bytes as
/// they arrive, then pull ``next()`` until it returns `nil`.
///
/// A message is a header block, then a body of `Content-Length` bytes. The header block is a
/// sequence of `Name: value` lines ended by an empty line. Rules:
/// - Header fields may come in any order; names are case-insensitive; unknown fields (such as
///   `Content-Type`) are ignored. `Content-Length` is required: decimal digits, at most
///   ``maxContentLength`` (64 MiB). If it appears twice with different values, the last one
///   counts (and an error event says so).
/// - **Line endings**: `\r\n` as the protocol says, and also a bare `\n` (kinder to hand-written
///   clients and test scripts; a line's `\r` before its `\n` is dropped). A lone `\r` does not end
///   a line. So the block may end with `\r\n\r\n`, `\n\n`, `\r\n\n` or `\n\r\n`.
/// - Empty lines *before* a header block (say, a stray `\r\n` after a body) are skipped silently.
/// - A line that is not `token: value` is reported as an error event and ignored.
/// - **Recovery**: a missing, malformed (non-numeric, negative, empty) or too large
///   `Content-Length`, or a header block longer than ``maxHeaderBlockLength`` without its empty
///   line, is reported as an error event; then the framer *resyncs*: it discards input up to
///   the next occurrence of `Content-Length:` (any case, anywhere — even inside junk without
///   line breaks) and reads a header block from there. The search starts just after the start
///   of the offending header line (a bad `Content-Length`) or of the header block (a missing
///   one), so a valid `Content-Length` header hidden behind junk in the same block is found.
///
/// Every byte is examined a bounded number of times and consumed input is dropped in amortized
/// linear time, so the cost is linear in the input, however it is split into feeds.
public struct MessageFramer: Sendable {
    /// The largest accepted `Content-Length`: 64 MiB.
    public static let maxContentLength = 64 << 20
    /// The largest accepted header block (all its lines), in bytes: 64 KiB.
    public static let maxHeaderBlockLength = 64 << 10

    private static let contentLengthName = Array("content-length".utf8)
    private static let resyncPattern = Array("content-length:".utf8)
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    private struct HeaderScan: Sendable {
        /// Where the current (incomplete) line starts.
        var lineStart: Int
        /// Where to continue looking for the line's `\n`: the bytes before it have no `\n`.
        var scanFrom: Int
        var contentLength: Int?
        /// Lines seen in this header block (well-formed or not).
        var fieldCount = 0

        init(at position: Int) {
            lineStart = position
            scanFrom = position
        }
    }

    private enum State: Sendable {
        /// Reading a header block that starts at `start`.
        case headers(HeaderScan)
        /// The header block is consumed; the body starts at `start`.
        case body(length: Int)
        /// Discarding input up to the next `Content-Length:`.
        case resync
    }

    private enum Step {
        case needMoreInput
        case proceed
        case event(FramerEvent)
    }

    private var buffer: [UInt8] = []
    /// The first byte not consumed yet.
    private var start = 0
    private var state = State.headers(HeaderScan(at: 0))

    public init() {}

    /// Appends bytes to the input.
    public mutating func feed(_ bytes: some Collection<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next message or error found in the input fed so far, or `nil` if more input is needed.
    public mutating func next() -> FramerEvent? {
        while true {
            let step: Step
            switch state {
            case .body(let length):
                guard buffer.count - start >= length else { return nil }
                let body = Array(buffer[start ..< start + length])
                start += length
                state = .headers(HeaderScan(at: start))
                return .message(body)
            case .resync:
                step = resync()
            case .headers(let scan):
                step = scanHeaderLine(scan)
            }
            switch step {
            case .needMoreInput: return nil
            case .proceed: continue
            case .event(let event): return event
            }
        }
    }

    /// Bytes fed but not consumed yet (including a partial message, or junk being skipped).
    public var bufferedByteCount: Int { buffer.count - start }

    /// Whether the input fed so far ends inside a message: a partial header block or body.
    /// (Junk being skipped while resyncing does not count.)
    public var isInsideMessage: Bool {
        switch state {
        case .body: true
        case .headers: start < buffer.count
        case .resync: false
        }
    }

    // MARK: - States

    private mutating func resync() -> Step {
        if let found = find(Self.resyncPattern, from: start) {
            start = found
            state = .headers(HeaderScan(at: found))
            return .proceed
        }
        // Keep a tail that may be the beginning of a `Content-Length:` split across feeds.
        start = max(start, buffer.count - (Self.resyncPattern.count - 1))
        return .needMoreInput
    }

    private mutating func scanHeaderLine(_ current: HeaderScan) -> Step {
        var scan = current
        guard let newline = firstNewline(from: scan.scanFrom) else {
            if buffer.count - start > Self.maxHeaderBlockLength {
                return fail("a header block longer than \(Self.maxHeaderBlockLength) bytes",
                            resyncFrom: start + 1)
            }
            scan.scanFrom = buffer.count
            state = .headers(scan)
            return .needMoreInput
        }
        if newline + 1 - start > Self.maxHeaderBlockLength {
            return fail("a header block longer than \(Self.maxHeaderBlockLength) bytes",
                        resyncFrom: start + 1)
        }
        let lineStart = scan.lineStart
        var lineEnd = newline
        if lineEnd > lineStart && buffer[lineEnd - 1] == Self.carriageReturn { lineEnd -= 1 }
        let nextLine = newline + 1

        if lineEnd == lineStart { return endHeaderBlock(scan, nextLine: nextLine) }
        scan.fieldCount += 1
        scan.lineStart = nextLine
        scan.scanFrom = nextLine
        state = .headers(scan)
        return headerField(lineStart ..< lineEnd, scan: scan)
    }

    /// An empty line: the end of the header block, or before any header a line to skip.
    private mutating func endHeaderBlock(_ scan: HeaderScan, nextLine: Int) -> Step {
        if scan.fieldCount == 0 {
            // An empty line before any header: skip it.
            start = nextLine
            state = .headers(HeaderScan(at: nextLine))
            return .proceed
        }
        guard let length = scan.contentLength else {
            return fail("a header block without Content-Length", resyncFrom: start + 1)
        }
        start = nextLine
        if buffer.capacity < start + length { buffer.reserveCapacity(start + length) }
        state = .body(length: length)
        return .proceed
    }

    /// A header line (`line` without its line break), counted in `scan` already: a
    /// Content-Length is read into the scan; other headers are ignored.
    private mutating func headerField(_ line: Range<Int>, scan current: HeaderScan) -> Step {
        var scan = current
        guard let colon = firstIndex(of: UInt8(ascii: ":"), in: line),
              colon > line.lowerBound,
              buffer[line.lowerBound ..< colon].allSatisfy(Self.isTokenByte) else {
            return .event(.error("ignoring a malformed header line \"\(quote(line))\""))
        }
        guard equalsIgnoringCase(line.lowerBound ..< colon, Self.contentLengthName) else {
            return .proceed  // an unknown header, or Content-Type: ignored
        }
        var valueStart = colon + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd && Self.isBlank(buffer[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && Self.isBlank(buffer[valueEnd - 1]) { valueEnd -= 1 }
        let value = valueStart ..< valueEnd
        switch parseLength(value) {
        case nil:
            return fail("an invalid Content-Length \"\(quote(value))\"", resyncFrom: line.lowerBound + 1)
        case .some(.tooLarge):
            return fail("a Content-Length of \(quote(value)) bytes, over the limit of "
                        + "\(Self.maxContentLength) (64 MiB)", resyncFrom: line.lowerBound + 1)
        case .some(.length(let length)):
            let previous = scan.contentLength
            scan.contentLength = length
            state = .headers(scan)
            if let previous, previous != length {
                return .event(.error("conflicting Content-Length headers (\(previous), then \(length)); using \(length)"))
            }
            return .proceed
        }
    }

    /// Reports `problem` and resyncs from `position`.
    private mutating func fail(_ problem: String, resyncFrom position: Int) -> Step {
        start = min(position, buffer.count)
        state = .resync
        return .event(.error("\(problem); skipping input up to the next Content-Length header"))
    }

    // MARK: - Byte helpers

    private enum ParsedLength { case length(Int), tooLarge }

    private func parseLength(_ range: Range<Int>) -> ParsedLength? {
        guard !range.isEmpty else { return nil }
        var value = 0
        var tooLarge = false
        for index in range {
            let byte = buffer[index]
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            if !tooLarge {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                if value > Self.maxContentLength { tooLarge = true }
            }
        }
        return tooLarge ? .tooLarge : .length(value)
    }

    private func firstNewline(from position: Int) -> Int? {
        guard position < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            let base = bytes.baseAddress!
            guard let found = memchr(base + position, Int32(Self.newline), bytes.count - position) else {
                return nil
            }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func firstIndex(of byte: UInt8, in range: Range<Int>) -> Int? {
        buffer[range].firstIndex(of: byte)
    }

    /// The first position at or after `position` where `pattern` (lowercase ASCII) occurs,
    /// compared case-insensitively.
    private func find(_ pattern: [UInt8], from position: Int) -> Int? {
        let last = buffer.count - pattern.count
        guard position <= last else { return nil }
        let first = pattern[0]
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            var index = position
            while index <= last {
                if Self.lowercased(bytes[index]) == first {
                    var matched = 1
                    while matched < pattern.count && Self.lowercased(bytes[index + matched]) == pattern[matched] {
                        matched += 1
                    }
                    if matched == pattern.count { return index }
                }
                index += 1
            }
            return nil
        }
    }

    private func equalsIgnoringCase(_ range: Range<Int>, _ lowercase: [UInt8]) -> Bool {
        guard range.count == lowercase.count else { return false }
        return zip(buffer[range], lowercase).allSatisfy { Self.lowercased($0) == $1 }
    }

    /// At most 60 bytes of the input, printable: other bytes as `\xNN`.
    private func quote(_ range: Range<Int>) -> String {
        let shown = range.prefix(60)
        var text = ""
        for index in shown {
            let byte = buffer[index]
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return range.count > shown.count ? text + "…" : text
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// RFC 9110 `tchar`: the bytes a header field name is made of.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a") ... UInt8(ascii: "z"), UInt8(ascii: "A") ... UInt8(ascii: "Z"),
             UInt8(ascii: "0") ... UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Drops consumed input: all of it when everything is consumed, otherwise when the consumed
    /// prefix is at least half the buffer (so each byte is moved O(1) times amortized).
    private mutating func compact() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        } else if start >= 4096 && start >= buffer.count / 2 {
            buffer.removeSubrange(0 ..< start)
        } else {
            return
        }
        if case .headers(var scan) = state {
            scan.lineStart -= start
            scan.scanFrom -= start
            state = .headers(scan)
        }
        start = 0
    }
}
