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

extension EditMap {
    /// `start(of:_:)` and `end(of:_:)` over many edits, each offset found by a binary search:
    /// the edits of a whole round of fixes, over which every diagnostic of a file is mapped
    /// (a walk of the edits per diagnostic would be quadratic in the fixes).
    struct Indexed {
        let edits: [TextEdit]
        /// How much the edits before the i-th lengthen the text.
        private let delta: [Int]

        /// `edits` sorted and non-overlapping, at most one insertion per offset.
        init(_ edits: [TextEdit]) {
            self.edits = edits
            var delta = [0]
            delta.reserveCapacity(edits.count + 1)
            for edit in edits { delta.append(delta.last! + edit.newText.utf8.count - edit.range.count) }
            self.delta = delta
        }

        /// The first edit for which `before` is false (it is true of a prefix of the edits).
        private func firstNot(_ before: (TextEdit) -> Bool) -> Int {
            var lo = 0, hi = edits.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if before(edits[mid]) { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }

        func start(of offset: Int) -> Int {
            // The edits that end at or before the offset come before it (their ends do not
            // decrease, the edits being sorted and apart).
            let i = firstNot { $0.range.upperBound <= offset }
            if i < edits.count && edits[i].range.lowerBound < offset { return edits[i].range.lowerBound + delta[i] }
            return offset + delta[i]
        }

        func end(of offset: Int) -> Int {
            // The same, but for an insertion at the offset, which comes after it (it sorts
            // after every other edit that ends there).
            let i = firstNot { $0.range.upperBound <= offset && !($0.range.isEmpty && $0.range.lowerBound == offset) }
            if i < edits.count && edits[i].range.lowerBound < offset {
                return edits[i].range.lowerBound + delta[i] + edits[i].newText.utf8.count
            }
            return offset + delta[i]
        }

        func map(_ range: Range<Int>) -> Range<Int> {
            let lo = start(of: range.lowerBound)
            return lo..<max(lo, end(of: range.upperBound))
        }
    }
}
