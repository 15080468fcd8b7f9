/// The text of one source file as valid UTF-8 bytes.
///
/// Invalid UTF-8 is repaired once, here: each maximal run of bytes that do not form a valid
/// sequence becomes one U+FFFD, and its (new) range is remembered so that the lexer can
/// report it as one syntax error (`SyntaxError`). Every later layer can then rely on valid UTF-8, and a
/// run counts as one scalar and one UTF-16 unit in columns, as an editor shows it.
public struct SourceText: Sendable {
    /// Valid UTF-8.
    public let bytes: [UInt8]
    /// Ranges (in `bytes`) of the U+FFFD that replaced invalid runs, in order.
    public let invalidUTF8: [Range<Int>]
    /// Offsets where lines start, `starts[0] == 0`: four bytes a line, as a workspace of a
    /// million lines keeps them all. Every text fits: a file read is at most 16 MiB, and an
    /// editor's document arrives in a message of at most 64 MiB (`MessageFramer`), far
    /// below 4 GiB.
    private let starts: [UInt32]
    /// Offsets where lines start; `lineStarts[0] == 0`.
    public var lineStarts: [Int] { starts.map { Int($0) } }
    /// True when every byte is ASCII, so every column encoding is the byte offset.
    public let isASCII: Bool

    public init<C: Collection>(bytes raw: C) where C.Element == UInt8 {
        let (clean, invalid) = SourceText.repair(Array(raw))
        self.bytes = clean
        self.invalidUTF8 = invalid
        var starts: [UInt32] = [0]
        var ascii = true
        clean.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            var offset = 0
            while offset < count {
                // Eight bytes at a time while they hold no line break and no non-ASCII byte.
                if offset + 8 <= count, !SourceText.wordNeedsLook(buffer, offset) {
                    offset += 8
                    continue
                }
                let byte = buffer[offset]
                if byte >= 0x80 { ascii = false }
                if byte == 0x0A {
                    starts.append(UInt32(truncatingIfNeeded: offset + 1))
                } else if byte == 0x0D {
                    if offset + 1 < count && buffer[offset + 1] == 0x0A {
                        offset += 1
                    }
                    starts.append(UInt32(truncatingIfNeeded: offset + 1))
                }
                offset += 1
            }
        }
        self.starts = starts
        self.isASCII = ascii
    }

    public init(_ string: String) {
        self.init(bytes: Array(string.utf8))
    }

    /// The part of `source` in `range` (whole characters) as a text of its own, whose runs of
    /// invalid UTF-8 are still known as such: lexed, it gives the tokens the whole text gives
    /// there (a U+FFFD written in the file is an unexpected character, a repaired run is not,
    /// and the two lex otherwise).
    public init(part range: Range<Int>, of source: SourceText) {
        let plain = SourceText(bytes: source.bytes[range])
        bytes = plain.bytes
        starts = plain.starts
        isASCII = plain.isASCII
        invalidUTF8 = source.invalidUTF8.compactMap { run in
            run.lowerBound >= range.lowerBound && run.upperBound <= range.upperBound
                ? (run.lowerBound - range.lowerBound)..<(run.upperBound - range.lowerBound) : nil
        }
    }

    private init(clean bytes: [UInt8], lineStarts: [UInt32], isASCII: Bool) {
        self.bytes = bytes
        self.invalidUTF8 = []
        self.starts = lineStarts
        self.isASCII = isASCII
    }

    /// This text with `range` replaced by `replacement`: the same as `SourceText(bytes:)` of
    /// the spliced bytes, in time proportional to the replacement when the edit joins whole
    /// characters of valid text (what an editor sends): the bytes are copied once, only the
    /// lines around the edit are scanned, the later line starts are shifted. Otherwise the
    /// spliced bytes are read again from the start.
    public func replacing(_ range: Range<Int>, with replacement: [UInt8]) -> SourceText {
        let lo = max(0, min(range.lowerBound, bytes.count))
        let hi = max(lo, min(range.upperBound, bytes.count))
        @inline(__always) func isBoundary(_ offset: Int) -> Bool { offset == bytes.count || bytes[offset] & 0xC0 != 0x80 }
        guard invalidUTF8.isEmpty, isBoundary(lo), isBoundary(hi), SourceText.repair(replacement).1.isEmpty else {
            var spliced = bytes
            spliced.replaceSubrange(lo..<hi, with: replacement)
            return SourceText(bytes: spliced)
        }
        let inserted = replacement.count
        let newCount = bytes.count - (hi - lo) + inserted
        let new = [UInt8](unsafeUninitializedCapacity: newCount) { out, written in
            bytes.withUnsafeBufferPointer { old in
                let destination = out.baseAddress!
                if lo > 0 { destination.update(from: old.baseAddress!, count: lo) }
                replacement.withUnsafeBufferPointer {
                    if inserted > 0 { (destination + lo).update(from: $0.baseAddress!, count: inserted) }
                }
                if bytes.count > hi { (destination + lo + inserted).update(from: old.baseAddress! + hi, count: bytes.count - hi) }
            }
            written = newCount
        }
        // A line starts at s > 0 when byte s - 1 is a line feed, or a carriage return not
        // followed by a line feed: it depends on bytes s - 1 and s only. Before the edit those
        // are unchanged, from lo + inserted + 1 on they are the old ones shifted, and in
        // between they are looked at again.
        let delta = inserted - (hi - lo)
        var newStarts: [UInt32] = []
        newStarts.reserveCapacity(starts.count + 8)
        var oldLine = 0
        while oldLine < starts.count && Int(starts[oldLine]) < max(lo, 1) {
            newStarts.append(starts[oldLine])
            oldLine += 1
        }
        if lo + inserted >= max(lo, 1) {
            for start in max(lo, 1)...(lo + inserted) {
                let before = new[start - 1]
                if before == 0x0A || (before == 0x0D && (start == newCount || new[start] != 0x0A)) {
                    newStarts.append(UInt32(truncatingIfNeeded: start))
                }
            }
        }
        while oldLine < starts.count && Int(starts[oldLine]) < hi + 1 { oldLine += 1 }
        while oldLine < starts.count {
            newStarts.append(UInt32(truncatingIfNeeded: Int(starts[oldLine]) + delta))
            oldLine += 1
        }
        var ascii = isASCII
        if ascii {
            for byte in replacement where byte >= 0x80 { ascii = false; break }
        } else {
            ascii = !new.contains { $0 >= 0x80 }
        }
        return SourceText(clean: new, lineStarts: newStarts, isASCII: ascii)
    }

    public var count: Int { bytes.count }
    public var lineCount: Int { starts.count }

    /// The text as a Swift string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The text of a byte range (clamped).
    public func text(_ range: Range<Int>) -> String {
        let lo = max(0, min(range.lowerBound, bytes.count))
        let hi = max(lo, min(range.upperBound, bytes.count))
        return String(decoding: bytes[lo..<hi], as: UTF8.self)
    }

    // MARK: Lines

    /// Where the first line's text starts: after a byte-order mark, which belongs to no line
    /// (columns on the first line do not count it, and its text does not show it).
    @inline(__always)
    public var contentStart: Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// The offset where the line containing `offset` starts (`lineStarts[line(containing:)]`,
    /// after the byte-order mark on the first line):
    /// found by looking back for the line break when it is near, as it is on lines people
    /// write (the parser asks at every `{`), else by the binary search.
    public func lineStart(containing offset: Int) -> Int {
        let off = max(0, min(offset, bytes.count))
        return bytes.withUnsafeBufferPointer { buffer in
            var start = off
            // The LF of a CR LF belongs to the line the CR ends.
            if start < buffer.count && buffer[start] == 0x0A && start > 0 && buffer[start - 1] == 0x0D { start -= 1 }
            let limit = max(0, start - 256)
            while start > limit {
                let before = buffer[start - 1]
                if before == 0x0A || before == 0x0D { return start }
                start -= 1
            }
            let found = start == 0 ? 0 : Int(starts[line(containing: off)])
            return found == 0 ? min(contentStart, off) : found
        }
    }

    /// The zero-based line containing `offset` (clamped to the text).
    public func line(containing offset: Int) -> Int {
        let off = max(0, min(offset, bytes.count))
        var lo = 0
        var hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if Int(starts[mid]) <= off { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The byte range of a line without its line terminator.
    public func lineRange(_ line: Int) -> Range<Int> {
        guard line >= 0 && line < starts.count else { return bytes.count..<bytes.count }
        let start = line == 0 ? contentStart : Int(starts[line])
        var end = line + 1 < starts.count ? Int(starts[line + 1]) : bytes.count
        while end > start && (bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D) { end -= 1 }
        return start..<end
    }

    /// The text of a line without its terminator.
    public func lineText(_ line: Int) -> String { text(lineRange(line)) }

    /// Where `range` ends without the spaces and tabs at its end (the text of a comment, as
    /// the formatter writes and compares it).
    func endWithoutTrailingSpaces(_ range: Range<Int>) -> Int {
        var end = range.upperBound
        while end > range.lowerBound && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
        return end
    }

    // MARK: Offsets and positions

    /// The (line, column) of a byte offset. An offset inside a multi-byte character counts
    /// as the start of that character.
    public func position(of offset: Int, encoding: PositionEncoding) -> LineColumn {
        var off = max(0, min(offset, bytes.count))
        let line = self.line(containing: off)
        let start = line == 0 ? contentStart : Int(starts[line])
        off = max(off, start)
        if isASCII || encoding == .utf8 {
            return LineColumn(line: line, column: off - start)
        }
        return LineColumn(line: line, column: columnWidth(from: start, to: off, encoding: encoding))
    }

    /// The byte offset of a (line, column). Out-of-range values are clamped as LSP says: a
    /// line past the end means the end of the text, a column past the end of its line means
    /// the end of the line; a column inside a character means the start of that character.
    public func offset(of position: LineColumn, encoding: PositionEncoding) -> Int {
        if position.line < 0 { return 0 }
        if position.line >= starts.count { return bytes.count }
        let range = lineRange(position.line)
        let column = max(0, position.column)
        if isASCII {
            return min(range.lowerBound + column, range.upperBound)
        }
        var offset = range.lowerBound
        var counted = 0
        while offset < range.upperBound {
            let length = SourceText.sequenceLength(bytes[offset])
            let units: Int
            switch encoding {
            case .utf8: units = length
            case .utf16: units = length == 4 ? 2 : 1
            case .scalars: units = 1
            }
            if counted + units > column { break }
            counted += units
            offset += length
        }
        return min(offset, range.upperBound)
    }

    /// The width of bytes `from..<to` in the given encoding.
    public func columnWidth(from: Int, to: Int, encoding: PositionEncoding) -> Int {
        if encoding == .utf8 { return to - from }
        var width = 0
        var offset = from
        while offset < to {
            let byte = bytes[offset]
            if byte < 0x80 {
                width += 1
                offset += 1
            } else {
                let length = SourceText.sequenceLength(byte)
                width += (encoding == .utf16 && length == 4) ? 2 : 1
                offset += length
            }
        }
        return width
    }

    @inline(__always)
    static func sequenceLength(_ lead: UInt8) -> Int {
        if lead < 0x80 { return 1 }
        if lead >= 0xF0 { return 4 }
        if lead >= 0xE0 { return 3 }
        if lead >= 0xC0 { return 2 }
        return 1  // a continuation byte: cannot start a character in repaired text
    }

    // MARK: Repair

    /// The length of the valid UTF-8 sequence starting at `offset`, or 0 when none does.
    @inline(__always)
    static func validSequence(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
        let count = bytes.count
        let lead = bytes[offset]
        if lead < 0x80 { return 1 }
        @inline(__always) func isContinuation(_ at: Int) -> Bool { at < count && bytes[at] & 0xC0 == 0x80 }
        let second = offset + 1, third = offset + 2, fourth = offset + 3
        switch lead {
        case 0xC2...0xDF:
            return isContinuation(second) ? 2 : 0
        case 0xE0:
            return third < count && (0xA0...0xBF).contains(bytes[second]) && isContinuation(third) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return isContinuation(second) && isContinuation(third) ? 3 : 0
        case 0xED:
            return third < count && (0x80...0x9F).contains(bytes[second]) && isContinuation(third) ? 3 : 0
        case 0xF0:
            return fourth < count && (0x90...0xBF).contains(bytes[second]) && isContinuation(third) && isContinuation(fourth) ? 4 : 0
        case 0xF1...0xF3:
            return isContinuation(second) && isContinuation(third) && isContinuation(fourth) ? 4 : 0
        case 0xF4:
            return fourth < count && (0x80...0x8F).contains(bytes[second]) && isContinuation(third) && isContinuation(fourth) ? 4 : 0
        default:
            return 0
        }
    }

    /// Eight bytes from `offset` (which must have eight bytes after it), in memory order.
    @inline(__always) static func word(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self))
    }

    /// Whether the eight bytes from `offset` hold a line break or a non-ASCII byte.
    @inline(__always) static func wordNeedsLook(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        let eight = word(bytes, offset)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte of `v` is zero iff the byte of `(v - ones) & ~v & highs` is nonzero.
        @inline(__always) func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        return eight & highs != 0 || hasZeroByte(eight ^ (ones &* 0x0A)) || hasZeroByte(eight ^ (ones &* 0x0D))
    }

    /// The bytes with each maximal run of invalid UTF-8 replaced by U+FFFD, and the ranges of
    /// those replacements.
    static func repair(_ raw: [UInt8]) -> ([UInt8], [Range<Int>]) {
        raw.withUnsafeBufferPointer { buffer -> ([UInt8], [Range<Int>]) in
            let count = buffer.count
            // Fast path: scan until the first invalid byte (ASCII eight bytes at a time).
            var offset = 0
            while offset < count {
                if offset + 8 <= count && SourceText.word(buffer, offset) & 0x8080_8080_8080_8080 == 0 {
                    offset += 8
                    continue
                }
                let length = validSequence(buffer, offset)
                if length == 0 { break }
                offset += length
            }
            if offset == count { return (raw, []) }
            var out = [UInt8]()
            out.reserveCapacity(count + 16)
            out.append(contentsOf: buffer[0..<offset])
            var invalid: [Range<Int>] = []
            while offset < count {
                let length = validSequence(buffer, offset)
                if length > 0 {
                    out.append(contentsOf: buffer[offset..<(offset + length)])
                    offset += length
                    continue
                }
                // A maximal run of bytes that start no valid sequence.
                while offset < count && validSequence(buffer, offset) == 0 { offset += 1 }
                let start = out.count
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                invalid.append(start..<out.count)
            }
            return (out, invalid)
        }
    }
}
