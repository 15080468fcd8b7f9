import CMalloc
import Dispatch
import RoutesModel

/// A flow on two threads (`Flow.runOnTwoThreads()`): each thread holds the states of the
/// nodes of half the program's files, works in a manager sharing the program's decision
/// diagrams (`BDD.beginSharing()`), and hands the contexts it adds to the other thread's
/// states over in batches. Every transfer distributes over union and contexts only grow, so
/// the fixpoint does not depend on the order in which the contexts arrive: the two threads
/// reach the states one thread does, and the same functions (the same refs, in one manager).
extension Flow {
    /// The graph nodes from which a program's work runs on two threads (when there is a
    /// helper thread): its main flows, the resolution of its graph's nodes
    /// (`BuilderGraph.init`) and the builds outside its builders' bodies
    /// (`Semantics.evaluateOutsideBodiesOnTwoThreads`). Below, starting the other thread
    /// and handing work over costs more than it saves.
    static let nodesForTwoThreads = 1 << 13

    /// `run()`, from the states queued so far, on this thread and a helper thread (see
    /// `FlowSide`), for a graph of `minimumNodes` nodes or more on a machine of more than one
    /// processor. A flow that tracks predecessors, has a region or a target, or a program
    /// that does not split into halves of at least a quarter each runs on this thread.
    /// `sides` (tests) gives the nodes of the second thread instead of `FlowSide.halves`.
    mutating func runOnTwoThreads(from minimumNodes: Int = Self.nodesForTwoThreads, sides given: BitSet? = nil) {
        guard graph.nodes.count >= minimumNodes, Helpers.processors > 1 || given != nil, region == nil, target == nil,
              !tracksPredecessors, !bdd.exhausted, bdd.sharing == nil, let sides = given ?? FlowSide.halves(of: graph) else {
            run()
            return
        }
        semantics.prepareBranchContexts(for: reading)
        let worker = bdd.beginSharing()
        let exchange = FlowExchange(nodes: bdd.sharing!)
        var other = self
        other.bdd = worker
        // This thread holds the first state queued (`root`), to have work from the start.
        let flipped = head < queue.count && sides.contains(Int(queue[head]) / sigmaCount)
        other.side = FlowSide(me: 1, second: sides, flipped: flipped, exchange: exchange)
        other.queue = []
        other.head = 0
        side = FlowSide(me: 0, second: sides, flipped: flipped, exchange: exchange)
        // The states queued so far go to the thread that holds them (their pending contexts
        // are in the storage both read).
        var mine: [Int32] = []
        for key in queue[head...] {
            if side!.holdsOther(Int(key) / sigmaCount) { other.queue.append(key) } else { mine.append(key) }
        }
        queue = mine
        head = 0
        let box = FlowBox(other)
        let finished = DispatchSemaphore(value: 0)
        Helpers.shared.async {
            if exchange.helperStarts() {
                routes_thread_heap_prefer_huge_pages()
                _ = box.flow.runSide()
            }
            finished.signal()
        }
        let takenBack = runSide()
        // (A helper thread that never took its part will find it taken and leave it.)
        if takenBack == nil && exchange.helperMustBeAwaited() { finished.wait() }
        bdd.endSharing(worker)
        side = nil
        queue = []
        head = 0
        guard let takenBack else { return }
        // Every helper thread was busy (perhaps with this very thread's caller, another
        // program's analysis) until this thread ran out of work: it does the other part too.
        queue = Array(box.flow.queue)
        for item in takenBack {
            let key = Int(item.key)
            add(key / sigmaCount, sigma: key % sigmaCount, item.context, from: nil)
        }
        run()
    }

    /// One thread's part: its states' transfers, then what the other hands over, until
    /// neither has anything left (or a budget is spent). For the first thread, when the
    /// helper thread had not begun the second part by the time this one ran out of work:
    /// what was handed to it, for this thread to go on with alone (the part's queue is its
    /// flow's).
    private mutating func runSide() -> [(key: Int32, context: BDD.Ref)]? {
        guard let side else { return nil }
        while true {
            run()
            if bdd.exhausted || side.exchange.stopped {
                side.exchange.stop(side.me)
                return nil
            }
            if !outbox.isEmpty { side.exchange.send(&outbox, to: 1 - side.me) }
            let incoming: [(key: Int32, context: BDD.Ref)]
            switch side.exchange.nextWork(for: side.me) {
            case .work(let items): incoming = items
            case .done: return nil
            case .takenBack(let items): return items
            }
            for item in incoming {
                let key = Int(item.key)
                add(key / sigmaCount, sigma: key % sigmaCount, item.context, from: nil)
            }
        }
    }
}

/// A flow handed to the helper thread.
private final class FlowBox: @unchecked Sendable {
    var flow: Flow
    init(_ flow: Flow) { self.flow = flow }
}

/// Which of the two threads of `Flow.runOnTwoThreads()` a flow is, and which nodes' states
/// the other one holds: those of every other file, a whole file on one thread, so that only
/// the references and nestings that cross files hand contexts over.
final class FlowSide: @unchecked Sendable {
    /// How many contexts for the other thread a thread gathers before it hands them over.
    static let batch = 256

    let me: Int
    let exchange: FlowExchange
    /// The nodes of the second thread (`me` 1), or with `flipped`, of the first.
    private let second: BitSet
    /// Whether this thread is the one whose nodes `second` does not hold.
    private let holdsTheRest: Bool

    init(me: Int, second: BitSet, flipped: Bool, exchange: FlowExchange) {
        self.me = me
        self.second = second
        self.exchange = exchange
        holdsTheRest = (me == 0) != flipped
    }

    @inline(__always) func holdsOther(_ g: Int) -> Bool { second.contains(g) == holdsTheRest }

    /// The second thread's nodes: by files, else by blocks.
    static func halves(of graph: BuilderGraph) -> BitSet? {
        byFiles(graph) ?? byBlocks(graph)
    }

    /// Whole files, each given in the program's order to the thread that holds fewer nodes
    /// so far (the first to the first thread), when that leaves each thread a quarter of the
    /// graph's nodes or more: a whole file on one thread, so that only the references and
    /// nestings that cross files hand contexts over (a split by blocks hands over about nine
    /// times as many and visits more states twice). Balanced by nodes, not by files: a
    /// program's root file often holds a large share of them (a top `anyOf` with a branch
    /// per feature), whose thread then holds fewer of the other files, rather than finishing
    /// long after the other thread.
    static func byFiles(_ graph: BuilderGraph) -> BitSet? {
        let count = graph.nodes.count
        var second = BitSet(count: count)
        var held = (first: 0, second: 0)
        for file in graph.files.files {
            let start = graph.firstNode(of: file), nodes = graph.fileNodeCount(file)
            if held.second < held.first {
                for g in start..<(start + nodes) { _ = second.insert(g) }
                held.second += nodes
            } else {
                held.first += nodes
            }
        }
        return held.second * 4 >= count && held.second * 4 <= count * 3 ? second : nil
    }

    /// The nodes of every other block (a builder's body, a nesting), by where their tops are,
    /// each node with its block's top; nil when that leaves either thread less than a
    /// quarter of the nodes.
    static func byBlocks(_ graph: BuilderGraph) -> BitSet? {
        let count = graph.nodes.count
        var top = [Int32](repeating: -1, count: count)
        var way: [Int] = []
        for g in 0..<count where top[g] < 0 {
            var n = g
            while top[n] < 0, let parent = graph.nodes[n].parent {
                way.append(n)
                n = parent
            }
            let t = top[n] >= 0 ? top[n] : Int32(n)
            top[n] = t
            for m in way { top[m] = t }
            way.removeAll(keepingCapacity: true)
        }
        var tops = BitSet(count: count)
        var dealt = 0
        for g in 0..<count where top[g] == Int32(g) {
            if dealt & 1 == 1 { _ = tops.insert(g) }
            dealt += 1
        }
        var second = BitSet(count: count)
        var ones = 0
        for g in 0..<count where tops.contains(Int(top[g])) {
            _ = second.insert(g)
            ones += 1
        }
        return ones * 4 >= count && ones * 4 <= count * 3 ? second : nil
    }
}

/// How the two threads of a flow hand contexts over and find out that both are done: under
/// the monitor of the nodes they share, so that a thread waiting for work counts as holding
/// nothing of the unique table (see `SharedNodes`).
final class FlowExchange: @unchecked Sendable {
    private let nodes: SharedNodes
    private var inbox: [[(key: Int32, context: BDD.Ref)]] = [[], []]
    private var idle = [false, false]
    private var left = [false, false]
    private var done = false
    /// The second part: not begun, begun by the helper thread, or taken back by the first.
    private enum HelperPart { case waiting, begun, takenBack }
    private var helperPart = HelperPart.waiting
    private let stopFlag: UnsafeMutablePointer<Int32>

    init(nodes: SharedNodes) {
        self.nodes = nodes
        stopFlag = .allocate(capacity: 1)
        stopFlag.initialize(to: 0)
    }

    deinit { stopFlag.deallocate() }

    /// Whether a thread stopped the flow (its manager's budget spent): the other stops too.
    var stopped: Bool { routes_load_relaxed_i32(stopFlag) != 0 }

    /// Hands `items` to thread `other` (and empties them).
    func send(_ items: inout [(key: Int32, context: BDD.Ref)], to other: Int) {
        nodes.monitor.lock()
        inbox[other].append(contentsOf: items)
        if idle[other] { nodes.monitor.broadcast() }
        nodes.monitor.unlock()
        items.removeAll(keepingCapacity: true)
    }

    /// Whether the helper thread begins the second part (false: the first thread took it
    /// back, or the flow stopped before). One that begins joins the threads sharing the
    /// nodes (`SharedNodes.joinLocked()`): a growth asked for before did not wait for it.
    func helperStarts() -> Bool {
        nodes.monitor.lock()
        defer { nodes.monitor.unlock() }
        guard helperPart == .waiting else { return false }
        helperPart = .begun
        nodes.joinLocked()
        return true
    }

    /// Whether the first thread must wait for the helper thread before it ends the sharing:
    /// only when the helper began the second part (one that has not begun will find the part
    /// taken and leave it, and may not come at all while every helper thread is busy).
    func helperMustBeAwaited() -> Bool {
        nodes.monitor.lock()
        defer { nodes.monitor.unlock() }
        if helperPart == .waiting { helperPart = .takenBack }
        return helperPart == .begun
    }

    enum Next {
        /// Contexts handed over.
        case work([(key: Int32, context: BDD.Ref)])
        /// Both threads are out of work with nothing handed over, or the flow stopped.
        case done
        /// (To the first thread.) The helper thread has not begun the second part: the first
        /// takes it back, with what was handed to it.
        case takenBack([(key: Int32, context: BDD.Ref)])
    }

    /// What thread `me`, out of work, does next.
    func nextWork(for me: Int) -> Next {
        nodes.monitor.lock()
        defer { nodes.monitor.unlock() }
        while true {
            // (While the table grows, a thread out of work stays where it holds none of it.)
            if routes_load_relaxed_i32(nodes.growRequested) == 0 {
                if done {
                    leave(me)
                    return .done
                }
                if !inbox[me].isEmpty {
                    var items: [(key: Int32, context: BDD.Ref)] = []
                    swap(&items, &inbox[me])
                    return .work(items)
                }
                if me == 0 && helperPart == .waiting {
                    helperPart = .takenBack
                    done = true
                    leave(0)
                    leave(1)
                    var items: [(key: Int32, context: BDD.Ref)] = []
                    swap(&items, &inbox[1])
                    return .takenBack(items)
                }
                if idle[1 - me] && inbox[1 - me].isEmpty {
                    done = true
                    nodes.monitor.broadcast()
                    leave(me)
                    return .done
                }
            }
            idle[me] = true
            nodes.waitParked()
            idle[me] = false
        }
    }

    /// Thread `me` stops, and the flow with it.
    func stop(_ me: Int) {
        nodes.monitor.lock()
        stopFlag.pointee = 1
        done = true
        if helperPart == .waiting { helperPart = .takenBack }
        nodes.monitor.broadcast()
        leave(me)
        nodes.monitor.unlock()
    }

    /// (Under the monitor.) The helper thread's part counts among the sharing threads only
    /// once begun (`helperStarts()`).
    private func leave(_ me: Int) {
        guard !left[me] else { return }
        left[me] = true
        if me == 1 && helperPart != .begun { return }
        nodes.leave()
    }
}
