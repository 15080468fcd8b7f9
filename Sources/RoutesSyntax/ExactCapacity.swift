extension Array {
    /// Copies the array into storage of its own size when more than an eighth of its storage
    /// is unused. For arrays reserved at an upper bound (or grown by doubling) that are then
    /// kept as long as their file is: tokens, syntax nodes, model nodes.
    @inlinable
    public mutating func dropUnusedCapacity() {
        guard capacity > count + count / 8 + 16 else { return }
        var exact: [Element] = []
        exact.reserveCapacity(count)
        exact.append(contentsOf: self)
        self = exact
    }
}
