/// A set of small non-negative integers (builder indices, declaration numbers) as bits: a
/// program's analysis keeps a few over its builders and declarations, at a bit each.
struct BitSet: Equatable {
    private var words: [UInt64]

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    @inline(__always) func contains(_ i: Int) -> Bool { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }

    /// Adds i; false when it was already there.
    @discardableResult
    @inline(__always) mutating func insert(_ i: Int) -> Bool {
        let bit: UInt64 = 1 << UInt64(i & 63)
        if words[i >> 6] & bit != 0 { return false }
        words[i >> 6] |= bit
        return true
    }

    @inline(__always) mutating func remove(_ i: Int) { words[i >> 6] &= ~(1 << UInt64(i & 63)) }

    /// The members, increasing.
    var members: [Int] {
        var out: [Int] = []
        for (wordIndex, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                out.append(wordIndex * 64 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
        return out
    }
}

/// The non-negative numbers of `list`, increasing, each once (sorted, not hashed: a set of a
/// few thousand numbers costs more to hash than to sort).
func sortedUnique(_ list: [Int]) -> [Int] {
    var out = list.sorted()
    var last = -1, kept = 0
    for number in out where number != last {
        out[kept] = number
        kept += 1
        last = number
    }
    out.removeLast(out.count - kept)
    return out
}

/// Whether `sorted` (increasing) holds x, by binary search.
func containsSorted(_ sorted: [Int], _ x: Int) -> Bool {
    var lo = 0, hi = sorted.count
    while lo < hi {
        let mid = (lo + hi) / 2
        if sorted[mid] < x { lo = mid + 1 } else { hi = mid }
    }
    return lo < sorted.count && sorted[lo] == x
}
