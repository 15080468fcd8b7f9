import Synchronization
import RoutesSyntax

/// "Did you mean" suggestions.
public enum Suggestion {
    /// The candidate closest to `name` by edit distance (case differences cost little; two
    /// neighbours swapped are one edit), if it is close enough to be a plausible typo.
    public static func closest(to name: String, among candidates: [String]) -> String? {
        let lowered = name.lowercased()
        let target = Array(lowered.unicodeScalars)
        // An ASCII name is compared with ASCII candidates byte by byte, lowercasing on the
        // fly: a scope has thousands of names, and lowercasing each into a new string and
        // measuring it in full was most of an edit's time when a name became undefined.
        let asciiTarget: [UInt8]? = lowered.utf8.count == target.count ? Array(lowered.utf8) : nil
        // The smallest distance wins, then the first name in sorted order. Candidates are
        // not sorted or lowercased up front: many are ruled out by length alone (an edit
        // distance is at least the difference in length).
        var best: (distance: Int, text: String)? = nil
        func offer(_ distance: Int, _ candidate: String) {
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.text) { best = (distance, candidate) }
        }
        // The name that ends with the target as a word, when exactly one does.
        var suffixMatch: String? = nil
        var suffixIsAmbiguous = false
        // ASCII candidates within their limit by length, measured below: (index, limit).
        var pending: [(index: Int, limit: Int)] = []
        var largestLimit = 0
        for (index, candidate) in candidates.enumerated() {
            if let asciiTarget {
                var bytes = candidate
                let done = bytes.withUTF8 { utf8 -> Bool in
                    guard Self.isASCII(utf8) else { return false }
                    // A name that starts with the target is that far from it: the rest's length.
                    if asciiTarget.count >= 3 && utf8.count >= asciiTarget.count && Self.asciiHasPrefix(utf8, asciiTarget) {
                        offer(utf8.count - asciiTarget.count, candidate)
                        return true
                    }
                    // And so is the one name that ends with it as a word of its own
                    // (`ItemDetail` for `Detail`, after a declaration was renamed; `appStore`
                    // for `store`, but nothing of `cartStore` and `userStore`).
                    if asciiTarget.count >= 4 && utf8.count > asciiTarget.count && Self.asciiHasWordSuffix(utf8, asciiTarget) {
                        if let match = suffixMatch, match != candidate { suffixIsAmbiguous = true }
                        suffixMatch = candidate
                    }
                    // An ASCII candidate keeps its length when lowercased, so the gap to the
                    // (lowercased) target bounds the distance.
                    let limit = max(1, max(asciiTarget.count, utf8.count) / 3)
                    if abs(utf8.count - asciiTarget.count) <= limit {
                        pending.append((index, limit))
                        largestLimit = max(largestLimit, limit)
                    }
                    return true
                }
                if done { continue }
            }
            let count = candidate.unicodeScalars.count
            let limit = max(1, max(target.count, count) / 3)
            // A non-ASCII name is never a prefix of an ASCII candidate, and the gap in length
            // bounds the distance of an ASCII candidate (its length is kept when lowercased).
            if candidate.utf8.count == count && abs(count - target.count) > limit { continue }
            let lower = candidate.lowercased()
            let isPrefix = lower.hasPrefix(lowered) && target.count >= 3
            let distance = Self.distance(target, Array(lower.unicodeScalars))
            if distance <= limit || isPrefix { offer(distance, candidate) }
        }
        if let suffixMatch, !suffixIsAmbiguous { offer(suffixMatch.utf8.count - lowered.utf8.count, suffixMatch) }
        guard let asciiTarget else { return best?.text }
        // The ASCII candidates, for a growing cutoff k: a typo is usually one edit away, a
        // distance bounded by k costs a band of 2k + 1 cells per row, and most candidates
        // leave the band within a few rows. Pass k finds every distance up to k of the
        // candidates whose limit allows it; none is below k (pass k - 1 found none), so once
        // the best is within k no later pass can beat it.
        var k = 1
        while k <= largestLimit && (best == nil || best!.distance >= k) {
            for (index, limit) in pending where limit >= k {
                var bytes = candidates[index]
                if let distance = bytes.withUTF8({ Self.asciiDistance(asciiTarget, $0, cutoff: k) }) { offer(distance, candidates[index]) }
            }
            k += 1
        }
        return best?.text
    }

    @inline(__always) private static func lowerASCII(_ b: UInt8) -> UInt8 {
        b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }

    private static func isASCII(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var all: UInt8 = 0
        for byte in b { all |= byte }
        return all < 0x80
    }

    /// Whether ASCII `c`, lowercased, starts with the lowercased ASCII `prefix`.
    private static func asciiHasPrefix(_ c: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard c.count >= prefix.count else { return false }
        for i in prefix.indices where lowerASCII(c[i]) != prefix[i] { return false }
        return true
    }

    /// Whether ASCII `c` ends with `suffix` (lowercase) compared without case, starting at a
    /// word of its own: an upper-case letter, or after a `_`.
    private static func asciiHasWordSuffix(_ c: UnsafeBufferPointer<UInt8>, _ suffix: [UInt8]) -> Bool {
        let start = c.count - suffix.count
        guard start > 0 else { return false }
        for i in suffix.indices where lowerASCII(c[start + i]) != suffix[i] { return false }
        return (c[start] >= 0x41 && c[start] <= 0x5A) || c[start - 1] == 0x5F
    }

    /// The edit distance between lowercased ASCII `t` and ASCII `c` lowercased, or nil when
    /// it exceeds `cutoff`. Swapping two neighbouring letters is one edit (`emtpy`, `empty`):
    /// the optimal string alignment distance. Only the band of cells within `cutoff` of the
    /// diagonal is computed (a path through any other cell costs more than `cutoff`), and the
    /// search stops once a whole row of the band is above it (a swap reaches back two rows,
    /// but through a cell of the row between that costs no more).
    private static func asciiDistance(_ t: [UInt8], _ c: UnsafeBufferPointer<UInt8>, cutoff: Int) -> Int? {
        let n = t.count, m = c.count
        let k = min(cutoff, max(n, m))
        if abs(n - m) > k { return nil }
        if n == 0 { return m }
        if m == 0 { return n }
        let big = k + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (m + 1)) { rows -> Int? in
            var before = rows.baseAddress!
            var prev = before + (m + 1)
            var cur = prev + (m + 1)
            for j in 0...m { prev[j] = min(j, big) }
            for i in 1...n {
                let lo = max(1, i - k), hi = min(m, i + k)
                cur[lo - 1] = lo == 1 ? min(i, big) : big
                var rowMin = cur[lo - 1]
                let byte = t[i - 1]
                for j in lo...hi {
                    let other = lowerASCII(c[j - 1])
                    let cost = byte == other ? 0 : 1
                    var cell = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost, big)
                    if i > 1 && j > 1 && cost == 1 && byte == lowerASCII(c[j - 2]) && t[i - 2] == other {
                        cell = min(cell, before[j - 2] + 1)
                    }
                    cur[j] = cell
                    if cell < rowMin { rowMin = cell }
                }
                if hi < m { cur[hi + 1] = big }
                if rowMin > k { return nil }
                (before, prev, cur) = (prev, cur, before)
            }
            let distance = prev[m]
            return distance <= k ? distance : nil
        }
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps
    /// of two neighbours, each one edit.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = Array(repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    cur[j] = min(cur[j], before[j - 2] + 1)
                }
            }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[b.count]
    }
}
