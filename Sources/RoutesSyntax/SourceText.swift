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
        clean.withUnsafeBufferPointer { buf in
            let n = buf.count
            var i = 0
            while i < n {
                // Eight bytes at a time while they hold no line break and no non-ASCII byte.
                if i + 8 <= n, !SourceText.wordNeedsLook(buf, i) {
                    i += 8
                    continue
                }
                let b = buf[i]
                if b >= 0x80 { ascii = false }
                if b == 0x0A {
                    starts.append(UInt32(truncatingIfNeeded: i + 1))
                } else if b == 0x0D {
                    if i + 1 < n && buf[i + 1] == 0x0A {
                        i += 1
                    }
                    starts.append(UInt32(truncatingIfNeeded: i + 1))
                }
                i += 1
            }
        }
        self.starts = starts
        self.isASCII = ascii
    }

    public init(_ string: String) {
        self.init(bytes: Array(string.utf8))
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
        @inline(__always) func isBoundary(_ i: Int) -> Bool { i == bytes.count || bytes[i] & 0xC0 != 0x80 }
        guard invalidUTF8.isEmpty, isBoundary(lo), isBoundary(hi), SourceText.repair(replacement).1.isEmpty else {
            var spliced = bytes
            spliced.replaceSubrange(lo..<hi, with: replacement)
            return SourceText(bytes: spliced)
        }
        let r = replacement.count
        let n = bytes.count - (hi - lo) + r
        let new = [UInt8](unsafeUninitializedCapacity: n) { out, written in
            bytes.withUnsafeBufferPointer { old in
                let o = out.baseAddress!
                if lo > 0 { o.update(from: old.baseAddress!, count: lo) }
                replacement.withUnsafeBufferPointer { if r > 0 { (o + lo).update(from: $0.baseAddress!, count: r) } }
                if bytes.count > hi { (o + lo + r).update(from: old.baseAddress! + hi, count: bytes.count - hi) }
            }
            written = n
        }
        // A line starts at s > 0 when byte s - 1 is a line feed, or a carriage return not
        // followed by a line feed: it depends on bytes s - 1 and s only. Before the edit those
        // are unchanged, from lo + r + 1 on they are the old ones shifted, and in between they
        // are looked at again.
        let delta = r - (hi - lo)
        var newStarts: [UInt32] = []
        newStarts.reserveCapacity(starts.count + 8)
        var k = 0
        while k < starts.count && Int(starts[k]) < max(lo, 1) {
            newStarts.append(starts[k])
            k += 1
        }
        if lo + r >= max(lo, 1) {
            for s in max(lo, 1)...(lo + r) {
                let b = new[s - 1]
                if b == 0x0A || (b == 0x0D && (s == n || new[s] != 0x0A)) { newStarts.append(UInt32(truncatingIfNeeded: s)) }
            }
        }
        while k < starts.count && Int(starts[k]) < hi + 1 { k += 1 }
        while k < starts.count {
            newStarts.append(UInt32(truncatingIfNeeded: Int(starts[k]) + delta))
            k += 1
        }
        var ascii = isASCII
        if ascii {
            for b in replacement where b >= 0x80 { ascii = false; break }
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
        return bytes.withUnsafeBufferPointer { p in
            var i = off
            // The LF of a CR LF belongs to the line the CR ends.
            if i < p.count && p[i] == 0x0A && i > 0 && p[i - 1] == 0x0D { i -= 1 }
            let limit = max(0, i - 256)
            while i > limit {
                let b = p[i - 1]
                if b == 0x0A || b == 0x0D { return i }
                i -= 1
            }
            let start = i == 0 ? 0 : Int(starts[line(containing: off)])
            return start == 0 ? min(contentStart, off) : start
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
        var i = range.lowerBound
        var counted = 0
        while i < range.upperBound {
            let len = SourceText.sequenceLength(bytes[i])
            let units: Int
            switch encoding {
            case .utf8: units = len
            case .utf16: units = len == 4 ? 2 : 1
            case .scalars: units = 1
            }
            if counted + units > column { break }
            counted += units
            i += len
        }
        return min(i, range.upperBound)
    }

    /// The width of bytes `from..<to` in the given encoding.
    public func columnWidth(from: Int, to: Int, encoding: PositionEncoding) -> Int {
        if encoding == .utf8 { return to - from }
        var n = 0
        var i = from
        while i < to {
            let b = bytes[i]
            if b < 0x80 {
                n += 1
                i += 1
            } else {
                let len = SourceText.sequenceLength(b)
                n += (encoding == .utf16 && len == 4) ? 2 : 1
                i += len
            }
        }
        return n
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

    /// The length of the valid UTF-8 sequence starting at `i`, or 0 when none does.
    @inline(__always)
    static func validSequence(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        let n = b.count
        let c0 = b[i]
        if c0 < 0x80 { return 1 }
        @inline(__always) func cont(_ j: Int) -> Bool { j < n && b[j] & 0xC0 == 0x80 }
        switch c0 {
        case 0xC2...0xDF:
            return cont(i + 1) ? 2 : 0
        case 0xE0:
            return i + 2 < n && (0xA0...0xBF).contains(b[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(i + 1) && cont(i + 2) ? 3 : 0
        case 0xED:
            return i + 2 < n && (0x80...0x9F).contains(b[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xF0:
            return i + 3 < n && (0x90...0xBF).contains(b[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF1...0xF3:
            return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF4:
            return i + 3 < n && (0x80...0x8F).contains(b[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        default:
            return 0
        }
    }

    /// Eight bytes from `i` (which must have eight bytes after it), in memory order.
    @inline(__always) static func word(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(b.baseAddress! + i).loadUnaligned(as: UInt64.self))
    }

    /// Whether the eight bytes from `i` hold a line break or a non-ASCII byte.
    @inline(__always) static func wordNeedsLook(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let w = word(b, i)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // A byte of `v` is zero iff the byte of `(v - ones) & ~v & highs` is nonzero.
        @inline(__always) func hasZeroByte(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        return w & highs != 0 || hasZeroByte(w ^ (ones &* 0x0A)) || hasZeroByte(w ^ (ones &* 0x0D))
    }

    static func repair(_ raw: [UInt8]) -> ([UInt8], [Range<Int>]) {
        raw.withUnsafeBufferPointer { b -> ([UInt8], [Range<Int>]) in
            let n = b.count
            // Fast path: scan until the first invalid byte (ASCII eight bytes at a time).
            var i = 0
            while i < n {
                if i + 8 <= n && SourceText.word(b, i) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
                let len = validSequence(b, i)
                if len == 0 { break }
                i += len
            }
            if i == n { return (raw, []) }
            var out = [UInt8]()
            out.reserveCapacity(n + 16)
            out.append(contentsOf: b[0..<i])
            var invalid: [Range<Int>] = []
            while i < n {
                let len = validSequence(b, i)
                if len > 0 {
                    out.append(contentsOf: b[i..<(i + len)])
                    i += len
                    continue
                }
                // A maximal run of bytes that start no valid sequence.
                while i < n && validSequence(b, i) == 0 { i += 1 }
                let start = out.count
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                invalid.append(start..<out.count)
            }
            return (out, invalid)
        }
    }
}
