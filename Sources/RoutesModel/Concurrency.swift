import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `(0..<count).map(body)`, on every core when there is more than one item (each item is
/// independent; the results keep their order).
public func parallelMap<T>(_ count: Int, _ body: @Sendable (Int) -> T) -> [T] {
    if count <= 1 { return (0..<count).map(body) }
    let results = ParallelResults<T>(count: count)
    DispatchQueue.concurrentPerform(iterations: count) { results.set($0, body($0)) }
    return (0..<count).map { results.get($0) }
}

/// Results written by parallel workers: one slot each, so no two threads touch the same
/// memory and no lock is needed; read once every worker is done.
private final class ParallelResults<T>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<T?>
    private let count: Int
    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: max(count, 1))
        slots.initialize(repeating: nil, count: max(count, 1))
    }
    deinit {
        slots.deinitialize(count: max(count, 1))
        slots.deallocate()
    }
    func set(_ i: Int, _ value: T) { slots[i] = value }
    func get(_ i: Int) -> T { slots[i]! }
}

/// Items of independent work, taken one at a time by threads of the pool and by whoever asks
/// for the results, who does what is left rather than wait for threads that have not begun
/// (the pool may be busy with the very work that asks; and a pool thread that runs a
/// `concurrentPerform` of its own may get no helper, so a batch handed to one thread could
/// run on one core). One item is work that either a thread of the pool or the caller does.
public final class SharedWorkList<T: Sendable>: @unchecked Sendable {
    private let count: Int
    private let body: @Sendable (Int) -> T
    // Slot i is written once, by the thread that took item i, before `finished` counts it.
    private let slots: ParallelResults<T>
    private let next = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let allDone = DispatchSemaphore(value: 0)

    public init(count: Int, _ body: @escaping @Sendable (Int) -> T) {
        self.count = count
        self.body = body
        slots = ParallelResults(count: count)
    }

    /// Offers the work to threads of the pool: one fewer than there are processors (at least
    /// one, at most one per item), since the caller of `results()` does its share too.
    public func start() {
        for _ in 0..<min(count, max(1, onlineProcessors - 1)) {
            DispatchQueue.global(qos: .userInitiated).async { self.work() }
        }
    }

    private func work() {
        while true {
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < count else { return }
            slots.set(i, body(i))
            if finished.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == count { allDone.signal() }
        }
    }

    /// Every item's result, in order: the caller takes the items no thread has taken yet, then
    /// waits for those still being done.
    public func results() -> [T] {
        work()
        if finished.load(ordering: .acquiring) < count { allDone.wait() }
        return (0..<count).map { slots.get($0) }
    }
}

/// The processors online (at least one).
let onlineProcessors: Int = {
    #if canImport(Glibc)
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
    return 2
    #endif
}()
