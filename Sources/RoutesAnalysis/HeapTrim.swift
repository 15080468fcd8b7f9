import CMalloc

/// When a lint gives memory it has freed back to the system (`malloc_trim`): after the
/// graphs are made and the model's nodes let go of, and before the main flows grow.
///
/// Freed memory in the middle of the heap is not reused by the analyses' large arrays, so on
/// a large program giving it back keeps the peak down (on the 1M-line benchmark workspace,
/// 147 MB with the trim after the graphs, 177 MB without, 2026-12-04). On a smaller one it costs time and
/// saves little: the trim walks the heap and unmaps pages while the other threads run, and
/// the analysis that follows takes fresh pages again, each one a fault (on the 100k-line
/// workspace, without the trim after the graphs: 62.3 ms instead of 65.3, 800 page faults
/// fewer, 4 MB more at the peak).
enum HeapTrim {
    /// The graph nodes from which a program's lint trims: about 300k lines.
    static let minimumGraphNodes = 1 << 17

    /// Gives freed memory back when the program (of `graphNodes` nodes) is large enough.
    static func afterFreeing(graphNodes: Int) {
        if graphNodes >= minimumGraphNodes { _ = routes_malloc_trim() }
    }
}
