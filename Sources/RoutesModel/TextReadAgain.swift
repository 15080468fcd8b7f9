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

    /// A 64-bit digest of bytes, eight at a time (to notice a change, not to resist one).
    static func digest(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            var i = 0
            while i + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 32
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
