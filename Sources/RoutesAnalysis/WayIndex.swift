import RoutesModel
import RoutesSyntax

/// The way graph reversed (each node's flow predecessors), a region and flow storage, made
/// at the first question `ProgramFacts.way(to:sigma:)` is asked and kept for the next.
final class WayIndex: @unchecked Sendable {
    // Asked by one thread at a time: the checker's, then the session's.
    private var predecessors: Adjacency? = nil
    private var region: Region? = nil
    private var flowStorage: FlowStorage? = nil

    func storage(_ graph: BuilderGraph, _ sigmaCount: Int) -> FlowStorage {
        if let storage = flowStorage, storage.size >= graph.nodes.count * sigmaCount { return storage }
        let storage = FlowStorage(size: graph.nodes.count * sigmaCount)
        flowStorage = storage
        return storage
    }

    /// The nodes from which a flow leads to g, with the `anyOf` branches among them in the
    /// order a walk back from g reaches them.
    func region(leadingTo g: Int, _ graph: BuilderGraph) -> Region {
        let count = graph.nodes.count
        if predecessors == nil {
            var start = [Int32](repeating: 0, count: count + 1)
            for node in 0..<count { Flow.forEachSuccessor(node, in: graph, crossNestings: true) { start[$0 + 1] += 1 } }
            for i in 0..<count { start[i + 1] += start[i] }
            var next = start
            var sources = [Int32](repeating: 0, count: Int(start[count]))
            for node in 0..<count {
                Flow.forEachSuccessor(node, in: graph, crossNestings: true) {
                    sources[Int(next[$0])] = Int32(node)
                    next[$0] += 1
                }
            }
            predecessors = Adjacency(start: start, targets: sources)
        }
        let region = self.region ?? Region(count: count)
        self.region = region
        region.reset()
        var stack = [g]
        region.insert(g)
        while let node = stack.popLast() {
            if let parent = graph.nodes[node].parent, case .anyOf = graph.nodes[parent].kind {
                region.addBranch(graph.nodes[node].indexInParent, of: parent)
            }
            for predecessor in predecessors!.neighbors(node) where region.insert(Int(predecessor)) { stack.append(Int(predecessor)) }
        }
        return region
    }
}
