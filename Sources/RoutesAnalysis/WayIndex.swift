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
        if let s = flowStorage, s.size >= graph.nodes.count * sigmaCount { return s }
        let s = FlowStorage(size: graph.nodes.count * sigmaCount)
        flowStorage = s
        return s
    }

    /// The nodes from which a flow leads to g, with the `anyOf` branches among them in the
    /// order a walk back from g reaches them.
    func region(leadingTo g: Int, _ graph: BuilderGraph) -> Region {
        let count = graph.nodes.count
        if predecessors == nil {
            var start = [Int32](repeating: 0, count: count + 1)
            for p in 0..<count { Flow.forEachSuccessor(p, in: graph, crossNestings: true) { start[$0 + 1] += 1 } }
            for s in 0..<count { start[s + 1] += start[s] }
            var next = start
            var sources = [Int32](repeating: 0, count: Int(start[count]))
            for p in 0..<count {
                Flow.forEachSuccessor(p, in: graph, crossNestings: true) {
                    sources[Int(next[$0])] = Int32(p)
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
        while let x = stack.popLast() {
            if let p = graph.nodes[x].parent, case .anyOf = graph.nodes[p].kind {
                region.addBranch(graph.nodes[x].indexInParent, of: p)
            }
            for p in predecessors!.neighbors(x) where region.insert(Int(p)) { stack.append(Int(p)) }
        }
        return region
    }
}
