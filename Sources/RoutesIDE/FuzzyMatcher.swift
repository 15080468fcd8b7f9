/// Fuzzy matching of names (ASCII identifiers) against a typed query, as editors' symbol
/// pickers do: a case-insensitive subsequence, ranked.
struct FuzzyMatcher {
    /// Smaller is better.
    struct Score: Comparable, Hashable {
        /// 0 the name itself (same case), 1 the name in another case, 2 a prefix, 3 every run
        /// of matched letters starts a word, 4 any other subsequence.
        var tier: Int
        /// Higher is better: points for letters at word starts, runs and the same case.
        var points: Int
        var length: Int

        static func < (a: Score, b: Score) -> Bool {
            (a.tier, -a.points, a.length) < (b.tier, -b.points, b.length)
        }
    }

    let query: [UInt8]
    let lowered: [UInt8]

    init(query: String) {
        self.query = Array(query.utf8)
        lowered = self.query.map(Self.lower)
    }

    static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }
    static func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    static func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Whether a word starts at `i`: the first letter, after `_`, an upper-case letter after a
    /// lower-case one or a digit, the last upper-case letter of a run before a lower-case one
    /// (`S` of `URLSession`), a digit after a non-digit.
    static func isWordStart(_ c: [UInt8], _ i: Int) -> Bool {
        if i == 0 { return true }
        let byte = c[i], previous = c[i - 1]
        if previous == 0x5F { return byte != 0x5F }
        if isUpper(byte) {
            if isLower(previous) || isDigit(previous) { return true }
            if isUpper(previous), i + 1 < c.count, isLower(c[i + 1]) { return true }
            return false
        }
        return isDigit(byte) && !isDigit(previous)
    }

    /// The score of `name`, or nil when it does not match.
    func score(_ name: String) -> Score? {
        let m = lowered.count
        if m == 0 { return Score(tier: 4, points: 0, length: 0) }
        // A quick subsequence check first, without allocating: most names do not match.
        var matched = 0
        for byte in name.utf8 where matched < m && Self.lower(byte) == lowered[matched] { matched += 1 }
        guard matched == m else { return nil }
        let c = Array(name.utf8)
        let n = c.count
        let cl = c.map(Self.lower)
        if m == n && cl == lowered { return Score(tier: c == query ? 0 : 1, points: 0, length: n) }
        let starts = (0..<n).map { Self.isWordStart(c, $0) }
        // Dynamic programming over (query letter i, name letter j matched to it):
        // best[i][j] the best points with letter i matched at j; byWords[i][j] whether some
        // matching of letters 0...i, with i at j, starts every run of matched letters at a word.
        let none = Int.min / 4
        var best = [Int](repeating: none, count: n)
        var byWords = [Bool](repeating: false, count: n)
        for j in 0..<n where cl[j] == lowered[0] {
            best[j] = points(c, starts, query: 0, at: j, afterRun: false)
            byWords[j] = starts[j]
        }
        for i in 1..<m {
            var next = [Int](repeating: none, count: n)
            var nextWords = [Bool](repeating: false, count: n)
            var bestBefore = none  // the best of best[0..<j-1]
            var wordsBefore = false
            for j in 1..<n {
                if j >= 2 {
                    bestBefore = max(bestBefore, best[j - 2])
                    wordsBefore = wordsBefore || byWords[j - 2]
                }
                guard cl[j] == lowered[i] else { continue }
                let run = best[j - 1] > none ? best[j - 1] + points(c, starts, query: i, at: j, afterRun: true) : none
                let jump = bestBefore > none ? bestBefore + points(c, starts, query: i, at: j, afterRun: false) : none
                next[j] = max(run, jump)
                nextWords[j] = byWords[j - 1] || (starts[j] && (wordsBefore || byWords[j - 1]))
            }
            best = next
            byWords = nextWords
        }
        var top = none
        var wordMatch = false
        for j in 0..<n {
            top = max(top, best[j])
            wordMatch = wordMatch || byWords[j]
        }
        guard top > none else { return nil }
        let tier = cl.starts(with: lowered) ? 2 : wordMatch ? 3 : 4
        return Score(tier: tier, points: top, length: n)
    }

    private func points(_ c: [UInt8], _ starts: [Bool], query i: Int, at j: Int, afterRun: Bool) -> Int {
        var total = 1
        if starts[j] { total += 8 }
        if afterRun { total += 4 }
        if c[j] == query[i] { total += 1 }
        if j == 0 { total += 2 }
        return total
    }
}
