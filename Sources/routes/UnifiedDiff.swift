/// Unified diffs of two texts, line by line (`routes fmt --diff`): `---`/`+++` headers, hunks
/// with three lines of context, `\ No newline at end of file` where a text ends without one.
/// Lines are split at `\n` (a `\r` before it stays part of the line, so the patch applies to
/// a file with CRLF line ends).
///
/// The matching is patience-style: lines unique to both sides anchor the diff, and the runs
/// between anchors are matched exactly (longest common subsequence) when small enough, else
/// replaced whole. A correct diff, minimal in the common cases (indentation and spacing).
enum UnifiedDiff {
    enum Op: Equatable {
        case equal(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    /// The diff of `old` and `new` labelled `path` on both sides; nil when they are equal.
    static func render(path: String, old: [UInt8], new: [UInt8], context: Int = 3) -> String? {
        if old == new { return nil }
        let a = lines(old), b = lines(new)
        let oldEndsWithNewline = old.last == 0x0A, newEndsWithNewline = new.last == 0x0A
        // Each distinct line a number; a last line without its line break is another line.
        struct Key: Hashable {
            var line: ArraySlice<UInt8>
            var unterminated: Bool
        }
        var ids: [Key: Int] = [:]
        func number(_ lines: [ArraySlice<UInt8>], terminated: Bool) -> [Int] {
            lines.indices.map { i in
                let key = Key(line: lines[i], unterminated: i == lines.count - 1 && !terminated)
                if let id = ids[key] { return id }
                ids[key] = ids.count
                return ids.count - 1
            }
        }
        let ia = number(a, terminated: oldEndsWithNewline), ib = number(b, terminated: newEndsWithNewline)
        var ops: [Op] = []
        diff(ia, 0..<ia.count, ib, 0..<ib.count, into: &ops)
        // In each run of changes, the deleted lines first.
        var run = 0
        while run < ops.count {
            if case .equal = ops[run] { run += 1; continue }
            var end = run
            while end < ops.count {
                if case .equal = ops[end] { break }
                end += 1
            }
            let changes = ops[run..<end]
            let deletions = changes.filter { if case .delete = $0 { return true } else { return false } }
            let insertions = changes.filter { if case .insert = $0 { return true } else { return false } }
            ops.replaceSubrange(run..<end, with: deletions + insertions)
            run = end
        }

        var out = "--- \(path)\n+++ \(path)\n"
        func isEqual(_ k: Int) -> Bool { if case .equal = ops[k] { return true } else { return false } }
        // Old and new lines consumed before each op.
        var oldBefore = Array(repeating: 0, count: ops.count + 1), newBefore = oldBefore
        for (k, op) in ops.enumerated() {
            switch op {
            case .equal: oldBefore[k + 1] = oldBefore[k] + 1; newBefore[k + 1] = newBefore[k] + 1
            case .delete: oldBefore[k + 1] = oldBefore[k] + 1; newBefore[k + 1] = newBefore[k]
            case .insert: oldBefore[k + 1] = oldBefore[k]; newBefore[k + 1] = newBefore[k] + 1
            }
        }
        var floor = 0
        var k = 0
        while k < ops.count {
            if isEqual(k) { k += 1; continue }
            let start = max(floor, k - context)
            // The hunk goes on while changes are at most 2 × context equal lines apart.
            var lastChange = k
            var j = k
            while j < ops.count {
                if !isEqual(j) { lastChange = j; j += 1; continue }
                var e = j
                while e < ops.count && isEqual(e) { e += 1 }
                if e == ops.count || e - j > 2 * context { break }
                j = e
            }
            let end = min(ops.count, lastChange + 1 + context)
            let oldCount = oldBefore[end] - oldBefore[start], newCount = newBefore[end] - newBefore[start]
            out += "@@ -\(oldCount == 0 ? oldBefore[start] : oldBefore[start] + 1),\(oldCount)"
                + " +\(newCount == 0 ? newBefore[start] : newBefore[start] + 1),\(newCount) @@\n"
            for op in ops[start..<end] {
                switch op {
                case .equal(let x, _):
                    out += " " + text(a[x]) + "\n"
                    if x == a.count - 1 && !oldEndsWithNewline { out += "\\ No newline at end of file\n" }
                case .delete(let x):
                    out += "-" + text(a[x]) + "\n"
                    if x == a.count - 1 && !oldEndsWithNewline { out += "\\ No newline at end of file\n" }
                case .insert(let y):
                    out += "+" + text(b[y]) + "\n"
                    if y == b.count - 1 && !newEndsWithNewline { out += "\\ No newline at end of file\n" }
                }
            }
            floor = end
            k = end
        }
        return out
    }

    static func text(_ line: ArraySlice<UInt8>) -> String { String(decoding: line, as: UTF8.self) }

    /// The lines of a text, without their `\n`.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for (i, b) in bytes.enumerated() where b == 0x0A {
            out.append(bytes[start..<i])
            start = i + 1
        }
        if start < bytes.count { out.append(bytes[start...]) }
        return out
    }

    /// The ops turning `a[ra]` into `b[rb]`, appended in order.
    static func diff(_ a: [Int], _ ra: Range<Int>, _ b: [Int], _ rb: Range<Int>, into ops: inout [Op]) {
        var lo1 = ra.lowerBound, lo2 = rb.lowerBound
        var hi1 = ra.upperBound, hi2 = rb.upperBound
        while lo1 < hi1 && lo2 < hi2 && a[lo1] == b[lo2] { ops.append(.equal(lo1, lo2)); lo1 += 1; lo2 += 1 }
        var suffix: [Op] = []
        while lo1 < hi1 && lo2 < hi2 && a[hi1 - 1] == b[hi2 - 1] { hi1 -= 1; hi2 -= 1; suffix.append(.equal(hi1, hi2)) }
        defer { ops.append(contentsOf: suffix.reversed()) }
        if lo1 == hi1 {
            for y in lo2..<hi2 { ops.append(.insert(y)) }
            return
        }
        if lo2 == hi2 {
            for x in lo1..<hi1 { ops.append(.delete(x)) }
            return
        }
        if (hi1 - lo1) * (hi2 - lo2) <= exactLimit {
            exact(a, lo1..<hi1, b, lo2..<hi2, into: &ops)
            return
        }
        // Anchors: lines once in each side, matched in increasing order on both.
        var countA: [Int: Int] = [:], countB: [Int: Int] = [:], whereB: [Int: Int] = [:]
        for x in lo1..<hi1 { countA[a[x], default: 0] += 1 }
        for y in lo2..<hi2 { countB[b[y], default: 0] += 1; whereB[b[y]] = y }
        var pairs: [(Int, Int)] = []
        for x in lo1..<hi1 where countA[a[x]] == 1 && countB[a[x]] == 1 { pairs.append((x, whereB[a[x]]!)) }
        let anchors = longestIncreasing(pairs)
        if anchors.isEmpty {
            exact(a, lo1..<hi1, b, lo2..<hi2, into: &ops)
            return
        }
        var x = lo1, y = lo2
        for (ax, by) in anchors {
            diff(a, x..<ax, b, y..<by, into: &ops)
            ops.append(.equal(ax, by))
            x = ax + 1
            y = by + 1
        }
        diff(a, x..<hi1, b, y..<hi2, into: &ops)
    }

    /// The longest run of pairs increasing in both coordinates (patience sorting).
    static func longestIncreasing(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []      // index into pairs of the smallest tail of each length
        var back = Array(repeating: -1, count: pairs.count)
        for (i, p) in pairs.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[tails[mid]].1 < p.1 { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { back[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var out: [(Int, Int)] = []
        var k = tails.last!
        while k >= 0 {
            out.append(pairs[k])
            k = back[k]
        }
        return out.reversed()
    }

    /// An exact longest-common-subsequence match of two runs when their product is small;
    /// otherwise the whole run replaced.
    /// The largest product of two runs' lengths matched exactly (a table of 2 bytes each).
    static let exactLimit = 4_000_000

    static func exact(_ a: [Int], _ ra: Range<Int>, _ b: [Int], _ rb: Range<Int>, into ops: inout [Op]) {
        let n = ra.count, m = rb.count
        guard n * m <= exactLimit else {
            for x in ra { ops.append(.delete(x)) }
            for y in rb { ops.append(.insert(y)) }
            return
        }
        // lengths[i][j]: the LCS of a[ra.lowerBound + i...] and b[rb.lowerBound + j...].
        var lengths = Array(repeating: UInt16(0), count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                if a[ra.lowerBound + i] == b[rb.lowerBound + j] {
                    lengths[i * (m + 1) + j] = lengths[(i + 1) * (m + 1) + j + 1] &+ 1
                } else {
                    lengths[i * (m + 1) + j] = max(lengths[(i + 1) * (m + 1) + j], lengths[i * (m + 1) + j + 1])
                }
            }
        }
        var i = 0, j = 0
        while i < n && j < m {
            if a[ra.lowerBound + i] == b[rb.lowerBound + j] {
                ops.append(.equal(ra.lowerBound + i, rb.lowerBound + j))
                i += 1
                j += 1
            } else if lengths[(i + 1) * (m + 1) + j] > lengths[i * (m + 1) + j + 1] {
                ops.append(.delete(ra.lowerBound + i))
                i += 1
            } else {
                ops.append(.insert(rb.lowerBound + j))
                j += 1
            }
        }
        while i < n { ops.append(.delete(ra.lowerBound + i)); i += 1 }
        while j < m { ops.append(.insert(rb.lowerBound + j)); j += 1 }
    }
}
