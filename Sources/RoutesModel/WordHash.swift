/// Bytes hashed a 64-bit word at a time: what the scopes' name hash (`Scope.hash(utf8:)`)
/// and the digest that tells a file changed (`TextReadAgain.digest(_:)`) share.
@usableFromInline enum WordHash {
    @usableFromInline static let multiplier: UInt64 = 0xFF51_AFD7_ED55_8CCD

    /// `hash` with `word` folded in: a multiply, then the upper half onto the lower.
    @inlinable @inline(__always) static func fold(_ hash: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* multiplier
        return mixed ^ (mixed >> 32)
    }

    /// `hash` with the bytes of `raw` from `start` on folded in, eight at a time, the last
    /// few (fewer than eight) together as one word.
    @inlinable static func fold(_ hash: UInt64, _ raw: UnsafeRawBufferPointer, from start: Int) -> UInt64 {
        var hash = hash
        var i = start
        while i + 8 <= raw.count {
            hash = fold(hash, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        if i < raw.count {
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < raw.count {
                tail |= UInt64(raw[i]) << shift
                shift += 8
                i += 1
            }
            hash = fold(hash, tail)
        }
        return hash
    }
}
