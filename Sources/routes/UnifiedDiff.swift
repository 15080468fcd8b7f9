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

        var isEqual: Bool { if case .equal = self { return true } else { return false } }
    }

    /// One side of a diff: its lines, and whether the last one ends with its line break.
    struct Side {
        var lines: [ArraySlice<UInt8>]
        var endsWithNewline: Bool

        init(_ bytes: [UInt8]) {
            lines = UnifiedDiff.lines(bytes)
            endsWithNewline = bytes.last == 0x0A
        }

        /// Whether `index` is the last line and has no line break.
        func isUnterminated(_ index: Int) -> Bool { index == lines.count - 1 && !endsWithNewline }

        /// Line `index` in a hunk, after its `prefix` (with the note of a missing line break).
        func hunkLine(_ index: Int, prefix: String) -> String {
            prefix + text(lines[index]) + "\n" + (isUnterminated(index) ? "\\ No newline at end of file\n" : "")
        }
    }

    /// The diff of `old` and `new` labelled `path` on both sides; nil when they are equal.
    static func render(path: String, old: [UInt8], new: [UInt8], context: Int = 3) -> String? {
        if old == new { return nil }
        let oldSide = Side(old), newSide = Side(new)
        let (oldNumbers, newNumbers) = numbered(oldSide, newSide)
        var ops: [Op] = []
        diff(oldNumbers, 0..<oldNumbers.count, newNumbers, 0..<newNumbers.count, into: &ops)
        putDeletionsFirst(&ops)
        var out = "--- \(path)\n+++ \(path)\n"
        let (oldBefore, newBefore) = linesBefore(ops)
        var floor = 0
        var position = 0
        while position < ops.count {
            if ops[position].isEqual { position += 1; continue }
            let start = max(floor, position - context)
            let end = min(ops.count, lastChange(of: ops, hunkFrom: position, context: context) + 1 + context)
            let oldCount = oldBefore[end] - oldBefore[start], newCount = newBefore[end] - newBefore[start]
            out += "@@ -\(oldCount == 0 ? oldBefore[start] : oldBefore[start] + 1),\(oldCount)"
                + " +\(newCount == 0 ? newBefore[start] : newBefore[start] + 1),\(newCount) @@\n"
            for op in ops[start..<end] {
                switch op {
                case .equal(let oldLine, _): out += oldSide.hunkLine(oldLine, prefix: " ")
                case .delete(let oldLine): out += oldSide.hunkLine(oldLine, prefix: "-")
                case .insert(let newLine): out += newSide.hunkLine(newLine, prefix: "+")
                }
            }
            floor = end
            position = end
        }
        return out
    }

    /// Each distinct line a number, the same on both sides; a last line without its line
    /// break is another line.
    static func numbered(_ old: Side, _ new: Side) -> (old: [Int], new: [Int]) {
        struct Key: Hashable {
            var line: ArraySlice<UInt8>
            var unterminated: Bool
        }
        var ids: [Key: Int] = [:]
        func number(_ side: Side) -> [Int] {
            side.lines.indices.map { index in
                let key = Key(line: side.lines[index], unterminated: side.isUnterminated(index))
                if let id = ids[key] { return id }
                ids[key] = ids.count
                return ids.count - 1
            }
        }
        let oldNumbers = number(old)
        return (oldNumbers, number(new))
    }

    /// In each run of changes, the deleted lines first.
    static func putDeletionsFirst(_ ops: inout [Op]) {
        var run = 0
        while run < ops.count {
            if ops[run].isEqual { run += 1; continue }
            var end = run
            while end < ops.count && !ops[end].isEqual { end += 1 }
            let changes = ops[run..<end]
            let deletions = changes.filter { if case .delete = $0 { return true } else { return false } }
            let insertions = changes.filter { if case .insert = $0 { return true } else { return false } }
            ops.replaceSubrange(run..<end, with: deletions + insertions)
            run = end
        }
    }

    /// The old and the new lines consumed before each op (and after the last).
    static func linesBefore(_ ops: [Op]) -> (old: [Int], new: [Int]) {
        var oldBefore = Array(repeating: 0, count: ops.count + 1), newBefore = oldBefore
        for (index, op) in ops.enumerated() {
            switch op {
            case .equal: oldBefore[index + 1] = oldBefore[index] + 1; newBefore[index + 1] = newBefore[index] + 1
            case .delete: oldBefore[index + 1] = oldBefore[index] + 1; newBefore[index + 1] = newBefore[index]
            case .insert: oldBefore[index + 1] = oldBefore[index]; newBefore[index + 1] = newBefore[index] + 1
            }
        }
        return (oldBefore, newBefore)
    }

    /// The last change of the hunk that starts with the change at `first`: the hunk goes on
    /// while changes are at most 2 × context equal lines apart.
    static func lastChange(of ops: [Op], hunkFrom first: Int, context: Int) -> Int {
        var lastChange = first
        var position = first
        while position < ops.count {
            if !ops[position].isEqual { lastChange = position; position += 1; continue }
            var equalEnd = position
            while equalEnd < ops.count && ops[equalEnd].isEqual { equalEnd += 1 }
            if equalEnd == ops.count || equalEnd - position > 2 * context { break }
            position = equalEnd
        }
        return lastChange
    }

    static func text(_ line: ArraySlice<UInt8>) -> String { String(decoding: line, as: UTF8.self) }

    /// The lines of a text, without their `\n`.
    static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            out.append(bytes[start..<index])
            start = index + 1
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
