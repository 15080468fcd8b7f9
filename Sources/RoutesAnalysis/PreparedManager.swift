import RoutesModel

/// A fresh decision-diagram manager for a program's analysis, made on a helper thread while
/// the caller builds the program's graph. A new manager writes its whole unique table and
/// operation cache before the first node is made: megabytes of fresh pages on a large
/// program, each a page fault, taken otherwise on the thread that then computes the
/// semantics, in a stretch where every other core is idle.
///
/// (The node array, which the analysis fills as it goes, is not written ahead: pages written
/// on the helper thread before the graph's model is given back raise a large lint's peak
/// memory, and the flows were no faster; see Benchmarks/HISTORY.md.)
///
/// The manager is the one `Semantics` would make (`Semantics.freshManager(graphNodes:)`): the
/// analysis is the same whichever thread made it. It serves once, for a graph of the size
/// it was made for; another attempt of the analysis makes its own.
final class PreparedManager: @unchecked Sendable {
    private let graphNodes: Int
    private let work: SharedWorkList<UncheckedSendable<BDD>>
    private var taken = false

    /// Starts making the manager for a graph of `graphNodes` nodes on a helper thread.
    init(graphNodes: Int) {
        self.graphNodes = graphNodes
        work = SharedWorkList(count: 1) { _ in UncheckedSendable(Semantics.freshManager(graphNodes: graphNodes)) }
        work.start()
    }

    /// The manager, once (nil afterwards, or for a graph of another size): made by the caller
    /// if no helper has begun it, waited for if one is making it.
    func take(graphNodes nodes: Int) -> BDD? {
        guard !taken, nodes == graphNodes else { return nil }
        taken = true
        return work.results()[0].value
    }
}
