#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a text may declare a link, asked of a file's bytes before it is parsed: a lint's
/// model keeps the screens' parameters of the files it loads once some file may declare one
/// (the link rules read the parameters of every screen a link names; see `Project`).
public enum LinkKeyword {
    /// Whether some line of `bytes` starts, after spaces or tabs, with the word `link`
    /// followed by a space, a tab or the end of the line, as a link declaration does (its name
    /// and pattern may go on on the next lines). A yes may be wrong (a builder named `link`);
    /// a no is right for every declaration. From each `k` (found by `memchr`), a look around
    /// it.
    public static func mayDeclareLink(in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            guard count >= 5, let base = buffer.baseAddress else { return false }
            @inline(__always) func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            // `k` at `offset`: `lin` before it, a blank or a line break after it, and only
            // blanks back to the start of its line.
            @inline(__always) func endsWord(_ byte: UInt8) -> Bool { isBlank(byte) || byte == 0x0A || byte == 0x0D }
            @inline(__always) func declares(at offset: Int) -> Bool {
                guard offset >= 3, offset + 1 < count, endsWord(buffer[offset + 1]),
                      buffer[offset - 3] == UInt8(ascii: "l"), buffer[offset - 2] == UInt8(ascii: "i"),
                      buffer[offset - 1] == UInt8(ascii: "n") else { return false }
                var before = offset - 4
                while before >= 0 && isBlank(buffer[before]) { before -= 1 }
                return before < 0 || buffer[before] == 0x0A || buffer[before] == 0x0D
            }
            var offset = 0
            while offset < count, let found = memchr(base + offset, Int32(UInt8(ascii: "k")), count - offset) {
                let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if declares(at: at) { return true }
                offset = at + 1
            }
            return false
        }
    }
}
