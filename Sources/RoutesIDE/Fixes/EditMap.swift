/// Where offsets go when sorted, non-overlapping edits are applied.
enum EditMap {
    /// The new offset of `offset` as a range's start: an insertion at it comes before it, and
    /// an offset inside a replaced range goes to its replacement's start.
    static func start(of offset: Int, _ edits: [TextEdit]) -> Int {
        var delta = 0
        for e in edits {
            if e.range.upperBound <= offset {
                delta += e.newText.utf8.count - e.range.count
            } else if e.range.lowerBound < offset {
                return e.range.lowerBound + delta
            } else {
                break
            }
        }
        return offset + delta
    }

    /// The new offset of `offset` as a range's end: an insertion at it comes after it, and an
    /// offset inside a replaced range goes to its replacement's end.
    static func end(of offset: Int, _ edits: [TextEdit]) -> Int {
        var delta = 0
        for e in edits {
            if e.range.upperBound <= offset && !(e.range.isEmpty && e.range.lowerBound == offset) {
                delta += e.newText.utf8.count - e.range.count
            } else if e.range.lowerBound < offset {
                return e.range.lowerBound + delta + e.newText.utf8.count
            } else {
                break
            }
        }
        return offset + delta
    }

    static func map(_ range: Range<Int>, _ edits: [TextEdit]) -> Range<Int> {
        let lo = start(of: range.lowerBound, edits)
        return lo..<max(lo, end(of: range.upperBound, edits))
    }
}
