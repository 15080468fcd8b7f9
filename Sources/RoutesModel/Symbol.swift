import Synchronization
import RoutesSyntax

/// A declaration, by file and index into that file's `declarations`.
public struct Symbol: Sendable, Hashable, Comparable {
    // 32 bits each (8 bytes a symbol, not 16): tables of symbols run to a million entries
    // in a program of a million lines, and neither files nor declarations come near 2^31.
    private var file32: Int32
    private var declaration32: Int32
    public var file: FileID {
        get { Int(file32) }
        set { file32 = Int32(newValue) }
    }
    public var declaration: Int {
        get { Int(declaration32) }
        set { declaration32 = Int32(newValue) }
    }
    public init(file: FileID, declaration: Int) {
        file32 = Int32(file)
        declaration32 = Int32(declaration)
    }
    public static func < (a: Symbol, b: Symbol) -> Bool {
        (a.file, a.declaration) < (b.file, b.declaration)
    }
}
