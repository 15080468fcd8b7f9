/// Where offsets go when sorted, non-overlapping edits are applied.
enum EditMap {
    /// The new offset of `offset` as a range's start: an insertion at it comes before it, and
    /// an offset inside a replaced range goes to its replacement's start.
    static func start(of offset: Int, _ edits: [TextEdit]) -> Int {
        var delta = 0
        for edit in edits {
            if edit.range.upperBound <= offset {
                delta += edit.newText.utf8.count - edit.range.count
            } else if edit.range.lowerBound < offset {
                return edit.range.lowerBound + delta
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
        for edit in edits {
            if edit.range.upperBound <= offset && !(edit.range.isEmpty && edit.range.lowerBound == offset) {
                delta += edit.newText.utf8.count - edit.range.count
            } else if edit.range.lowerBound < offset {
                return edit.range.lowerBound + delta + edit.newText.utf8.count
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
