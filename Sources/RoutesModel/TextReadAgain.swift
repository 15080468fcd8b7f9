import Synchronization
import RoutesSyntax

/// The text of a file that the project did not keep, read again once through its provider
/// (for whichever thread asks first), and checked against the length and digest of the
/// bytes first read.
@usableFromInline final class TextReadAgain: Sendable {
    private let provider: any SourceProvider
    private let path: String
    private let count: Int
    private let digest: UInt64
    private let state = Mutex<(text: SourceText?, changed: Bool)>((nil, false))

    init(provider: any SourceProvider, path: String, bytes: [UInt8]) {
        self.provider = provider
        self.path = path
        count = bytes.count
        digest = Self.digest(bytes)
    }

    var isRead: Bool { state.withLock { $0.text != nil } }
    var isChanged: Bool { state.withLock { $0.changed } }

    @usableFromInline var text: SourceText {
        state.withLock { read in
            if let text = read.text { return text }
            let bytes = (try? provider.read(path).get()) ?? []
            let text = SourceText(bytes: bytes)
            read = (text, bytes.count != count || Self.digest(bytes) != digest)
            return text
        }
    }

    /// A 64-bit digest of bytes (to notice a change, not to resist one): four words at a
    /// time, each into a lane of its own, so that the lanes' multiplies overlap instead of
    /// each waiting on the one before (every file of a lint is digested once: 27 MB at 1M
    /// lines). The lanes are folded together, then the last bytes one at a time.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            let m: UInt64 = 0xFF51_AFD7_ED55_8CCD
            var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count), 0xC2B2_AE3D_27D4_EB4F,
                                                         0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5)
            var i = 0
            while i + 32 <= raw.count {
                lanes.0 = (lanes.0 ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* m
                lanes.1 = (lanes.1 ^ raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* m
                lanes.2 = (lanes.2 ^ raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)) &* m
                lanes.3 = (lanes.3 ^ raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)) &* m
                lanes.0 ^= lanes.0 >> 32
                lanes.1 ^= lanes.1 >> 32
                lanes.2 ^= lanes.2 >> 32
                lanes.3 ^= lanes.3 >> 32
                i += 32
            }
            var hash = lanes.0
            @inline(__always) func fold(_ word: UInt64) {
                hash = (hash ^ word) &* m
                hash ^= hash >> 32
            }
            fold(lanes.1)
            fold(lanes.2)
            fold(lanes.3)
            while i + 8 <= raw.count {
                fold(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                i += 8
            }
            while i < raw.count {
                hash = (hash ^ UInt64(raw[i])) &* 0x0000_0100_0000_01B3
                i += 1
            }
            return hash ^ (hash >> 29)
        }
    }
}

/// A dropped syntax tree parsed again once, for whichever thread asks first.
final class ReparsedSyntax: Sendable {
    private let parsed = Mutex<SyntaxTree?>(nil)

    var isParsed: Bool { parsed.withLock { $0 != nil } }

    func tree(of source: SourceText, file: FileID) -> SyntaxTree {
        parsed.withLock { kept in
            if let kept { return kept }
            let tree = SyntaxTree.parse(source, file: file)
            kept = tree
            return tree
        }
    }
}
