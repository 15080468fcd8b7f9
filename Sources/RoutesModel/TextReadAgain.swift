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
    /// time, each into a lane of its own (`WordHash.fold`), so that the lanes' multiplies
    /// overlap instead of each waiting on the one before; the lanes folded together, then
    /// the last words and bytes.
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count), 0xC2B2_AE3D_27D4_EB4F,
                                                         0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5)
            var i = 0
            while i + 32 <= raw.count {
                lanes.0 = WordHash.fold(lanes.0, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                lanes.1 = WordHash.fold(lanes.1, raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
                lanes.2 = WordHash.fold(lanes.2, raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
                lanes.3 = WordHash.fold(lanes.3, raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
                i += 32
            }
            let joined = WordHash.fold(WordHash.fold(WordHash.fold(lanes.0, lanes.1), lanes.2), lanes.3)
            let hash = WordHash.fold(joined, raw, from: i)
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
