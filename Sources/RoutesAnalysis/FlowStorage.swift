#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Storage for flows, reused across them: per state a context, pending delta, built
/// environments and, for flows that track them, predecessor, valid only when stamped with
/// the current generation, so that starting a new flow is O(1) however large the graph. A
/// state's slot is σ × the graph's node count + its node's global id: each σ's states lie
/// together, so that the pages of states no flow reaches (most programs have few screens
/// below a sheet that allows no push) are never touched. The stamps start as fresh zero
/// pages (`calloc`), so that those pages take no memory either. A storage for one flow (a
/// program's main flows) has no stamps: its states start as fresh zero pages themselves
/// (`BDD.zero` is 0), every one live.
final class FlowStorage {
    let size: Int
    private(set) var generation: UInt32 = 0
    /// Nil in a storage for one flow.
    let stamp: UnsafeMutablePointer<UInt32>?
    let contexts: UnsafeMutablePointer<BDD.Ref>
    let pending: UnsafeMutablePointer<BDD.Ref>
    let built: UnsafeMutablePointer<BDD.Ref>
    /// Nil in a storage whose flows record no ways (`Flow.tracksPredecessors`): a program's
    /// main flows, a fifth of whose storage they would be.
    let predecessor: UnsafeMutablePointer<Int32>?

    /// `forOneFlow`: a storage without stamps, for a program's main flows, which start
    /// once (the slots of the states a flow never reaches take no memory, and a stamp per
    /// slot would). Resetting it clears every state.
    init(size: Int, tracksPredecessors: Bool = true, forOneFlow: Bool = false) {
        self.size = size
        let slots = max(size, 1)
        // Stamped slots are cleared when first touched: only the stamps start zeroed (a
        // storage made for each edit's flows would otherwise clear four arrays, not one).
        func states() -> UnsafeMutablePointer<BDD.Ref> {
            forOneFlow ? zeroedArray(of: BDD.Ref.self, count: slots) : uninitializedArray(of: BDD.Ref.self, count: slots)
        }
        stamp = forOneFlow ? nil : zeroedArray(of: UInt32.self, count: slots)
        contexts = states()
        pending = states()
        built = states()
        predecessor = tracksPredecessors ? uninitializedArray(of: Int32.self, count: slots) : nil
        if forOneFlow { predecessor?.initialize(repeating: -1, count: slots) }
    }

    deinit {
        free(stamp)
        free(contexts)
        free(pending)
        free(built)
        free(predecessor)
    }

    /// A storage holding the same states (for a second flow continued from one fixpoint).
    func copy() -> FlowStorage {
        let duplicate = FlowStorage(size: size, tracksPredecessors: predecessor != nil, forOneFlow: stamp == nil)
        let slots = max(size, 1)
        duplicate.generation = generation
        if let stamp { duplicate.stamp?.update(from: stamp, count: slots) }
        duplicate.contexts.update(from: contexts, count: slots)
        duplicate.pending.update(from: pending, count: slots)
        duplicate.built.update(from: built, count: slots)
        if let predecessor { duplicate.predecessor?.update(from: predecessor, count: slots) }
        return duplicate
    }

    /// Forgets every state: a new flow.
    func reset() {
        generation &+= 1
        guard stamp == nil, generation > 1 else { return }
        let slots = max(size, 1)
        contexts.update(repeating: BDD.zero, count: slots)
        pending.update(repeating: BDD.zero, count: slots)
        built.update(repeating: BDD.zero, count: slots)
        predecessor?.update(repeating: -1, count: slots)
    }

    @inline(__always) func touch(_ key: Int) {
        if let stamp, stamp[key] != generation {
            stamp[key] = generation
            contexts[key] = BDD.zero
            pending[key] = BDD.zero
            built[key] = BDD.zero
            predecessor?[key] = -1
        }
    }

    @inline(__always) func isLive(_ key: Int) -> Bool { stamp.map { $0[key] == generation } ?? true }
}

/// The nodes a flow may visit, and for each `anyOf` among them the branches that are in the
/// region, so that a flow through a small region never walks a huge `anyOf`.
final class Region {
    private let marks: UnsafeMutablePointer<UInt32>
    private var generation: UInt32 = 0
    private(set) var branches: [Int: [Int]] = [:]
    /// A region over the nodes 0..<count of a graph.
    init(count: Int) {
        // Fresh zero pages: a region over a small part of a large graph touches few of them.
        marks = zeroedArray(of: UInt32.self, count: max(count, 1))
    }

    deinit { free(marks) }

    func reset() {
        generation &+= 1
        branches.removeAll(keepingCapacity: true)
    }

    @inline(__always) func contains(_ g: Int) -> Bool { marks[g] == generation }

    /// Adds g; false when it was already there.
    @discardableResult
    func insert(_ g: Int) -> Bool {
        if marks[g] == generation { return false }
        marks[g] = generation
        return true
    }

    func addBranch(_ branchIndex: Int, of anyOf: Int) {
        branches[anyOf, default: []].append(branchIndex)
    }
}

/// `count` zeroed elements from `calloc`, which maps fresh zero pages for a large array
/// rather than writing zeros: pages never written take no memory. Freed with `free`.
private func zeroedArray<T>(of: T.Type, count: Int) -> UnsafeMutablePointer<T> {
    guard let memory = calloc(count, MemoryLayout<T>.stride) else { fatalError("out of memory") }
    return memory.bindMemory(to: T.self, capacity: count)
}

/// `count` elements of trivial type `T` from `malloc`, not initialized. Freed with `free`.
private func uninitializedArray<T>(of: T.Type, count: Int) -> UnsafeMutablePointer<T> {
    guard let memory = malloc(count * MemoryLayout<T>.stride) else { fatalError("out of memory") }
    return memory.bindMemory(to: T.self, capacity: count)
}
