

/// A set of node ids that is usually small against the graph: a flag per node to ask, and
/// the members in the order they came to go through (an edit's work goes through the
/// members, not over every node).
struct MarkedNodes {
    private(set) var flags: [Bool]
    private(set) var members: [Int] = []

    init(count: Int) { flags = [Bool](repeating: false, count: count) }

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }

    @inline(__always) subscript(_ g: Int) -> Bool { flags[g] }

    /// Adds g; false when it was already there.
    @discardableResult
    @inline(__always) mutating func insert(_ g: Int) -> Bool {
        if flags[g] { return false }
        flags[g] = true
        members.append(g)
        return true
    }

    /// The members, increasing.
    var sorted: [Int] { members.sorted() }
}
