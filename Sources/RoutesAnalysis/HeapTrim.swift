import CMalloc

/// When a lint gives memory it has freed back to the system (`malloc_trim`): after the
/// graphs are made and the model's nodes let go of, and before the main flows grow.
///
/// Freed memory in the middle of the heap is not reused by the analyses' large arrays, so on
/// a large program giving it back keeps the peak down. On a smaller one it costs time and
/// saves little: the trim walks the heap and unmaps pages while the other threads run, and
/// the analysis that follows takes fresh pages again, each one a fault. (The figures behind
/// the threshold are in Benchmarks/HISTORY.md, "fresh pages, and the main thread alone".)
enum HeapTrim {
    /// The graph nodes from which a program's lint trims: about 300k lines.
    static let minimumGraphNodes = 1 << 17

    /// Gives freed memory back when the program (of `graphNodes` nodes) is large enough.
    static func afterFreeing(graphNodes: Int) {
        if graphNodes >= minimumGraphNodes { _ = routes_malloc_trim() }
    }
}
