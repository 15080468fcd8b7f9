/// A map from non-negative integers to non-negative `Int32`s, for the hot tables of the link
/// rules (a prefix's longer prefixes, a tree's children by literal): an open-addressing table
/// with a multiplicative hash, where `[Int64: Int32]`'s seeded SipHash cost more than the
/// work around it. Insertions and lookups only.
struct IntTable {
    /// Keys (`-1`: empty) and values, side by side.
    private var keys: [Int64]
    private var values: [Int32]
    private var shift: UInt64
    private(set) var count = 0

    /// A table for about `capacity` keys (it grows past that).
    init(capacity: Int = 0) {
        var bits = 4
        while (1 << bits) * 3 < capacity * 4 { bits += 1 }
        keys = Array(repeating: -1, count: 1 << bits)
        values = Array(repeating: 0, count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    @inline(__always) private func slot(_ key: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The value of `key` (not negative), if it has one.
    subscript(key: Int64) -> Int32? {
        let mask = keys.count - 1
        return keys.withUnsafeBufferPointer { keys in
            var i = slot(key)
            while true {
                let found = keys[i]
                if found == key { return values[i] }
                if found < 0 { return nil }
                i = (i + 1) & mask
            }
        }
    }

    /// Gives `key` (not negative) the value `value` (not negative).
    mutating func set(_ key: Int64, _ value: Int32) {
        precondition(key >= 0 && value >= 0)
        if (count + 1) * 4 > keys.count * 3 { grow() }
        let mask = keys.count - 1
        var i = slot(key)
        while keys[i] >= 0 && keys[i] != key { i = (i + 1) & mask }
        if keys[i] < 0 { count += 1 }
        keys[i] = key
        values[i] = value
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = Array(repeating: -1, count: oldKeys.count * 2)
        values = Array(repeating: 0, count: oldKeys.count * 2)
        shift -= 1
        count = 0
        for (key, value) in zip(oldKeys, oldValues) where key >= 0 { set(key, value) }
    }
}
