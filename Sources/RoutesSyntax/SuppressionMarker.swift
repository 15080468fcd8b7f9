/// The word that opens a suppression comment (`// routes:ignore rule-id`). What such a
/// comment suppresses is the analysis's business; whether a text holds the word at all is
/// asked of every file, and a file without it needs no second look (a lint does not keep the
/// texts of those files, see `Project`).
public enum SuppressionMarker {
    public static let word: [UInt8] = Array("routes:ignore".utf8)

    /// Whether `bytes` contain the marker anywhere (in a comment or not): eight bytes at a
    /// time to each `:` (rare in source text), then a comparison around it.
    public static func isMentioned(in bytes: [UInt8]) -> Bool {
        let colon = 6  // word[6] == ":"
        return bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            guard count >= word.count else { return false }
            @inline(__always) func matches(at offset: Int) -> Bool {
                guard offset >= colon, offset - colon + word.count <= count else { return false }
                for letter in 0..<word.count where buffer[offset - colon + letter] != word[letter] { return false }
                return true
            }
            var offset = 0
            while offset + 8 <= count {
                let eight = UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt64.self))
                // A byte of `eight ^ ::::::::` is zero where `eight` has a colon.
                let zeroAtColons = eight ^ 0x3A3A_3A3A_3A3A_3A3A
                if (zeroAtColons &- 0x0101_0101_0101_0101) & ~zeroAtColons & 0x8080_8080_8080_8080 != 0 {
                    for byte in 0..<8 where buffer[offset + byte] == UInt8(ascii: ":") && matches(at: offset + byte) { return true }
                }
                offset += 8
            }
            while offset < count {
                if buffer[offset] == UInt8(ascii: ":") && matches(at: offset) { return true }
                offset += 1
            }
            return false
        }
    }

    /// The line a `// routes:ignore` comment applies to: its own when code stands before it
    /// there, else the next one (which may be past the last line), with whether the comment
    /// is alone on its line; nil for a comment that does not start with the marker.
    static func targetLine(of comment: Token, in source: SourceText) -> (line: Int, alone: Bool)? {
        let bytes = source.bytes
        var wordStart = comment.start + 2
        while wordStart < comment.end && (bytes[wordStart] == 0x20 || bytes[wordStart] == 0x09) { wordStart += 1 }
        guard comment.end - wordStart >= word.count, bytes[wordStart..<(wordStart + word.count)].elementsEqual(word) else { return nil }
        var spacesStart = comment.start
        while spacesStart > 0 && (bytes[spacesStart - 1] == 0x20 || bytes[spacesStart - 1] == 0x09) { spacesStart -= 1 }
        let alone = spacesStart == source.lineStart(containing: comment.start)
        return (source.line(containing: comment.start) + (alone ? 1 : 0), alone)
    }
}
