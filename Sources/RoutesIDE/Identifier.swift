/// Identifier syntax (docs/language.md#files-names-and-comments): `[A-Za-z_][A-Za-z0-9_]*`.
enum Identifier {
    static func isValid(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard let first = bytes.first else { return false }
        func start(_ b: UInt8) -> Bool { (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F }
        guard start(first) else { return false }
        return bytes.dropFirst().allSatisfy { start($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
