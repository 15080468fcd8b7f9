import CMalloc
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
    /// one, at most one per item), since the caller of `results()` does its share too. On the
    /// queue whose threads `parallelMap` has woken already: a queue of another quality of
    /// service starts its first thread late on Linux, while the caller goes on alone and then
    /// waits for the work (see Benchmarks/HISTORY.md).
    public func start() {
        for _ in 0..<min(count, max(1, onlineProcessors - 1)) {
            DispatchQueue.global().async { self.work() }
        }
    }

    /// Does the items no thread has taken yet, without waiting for those being done: for a
    /// thread that offers its time to this work after its own (see
    /// `PendingLinks.afterReading(_:)`), instead of `start()`.
    public func takeShare() { work() }

    private func work() {
        routes_thread_heap_prefer_huge_pages()
        while true {
            let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard i < count else { return }
            slots.set(i, body(i))
            if finished.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == count { allDone.signal() }
        }
    }

    /// Every item's result, in order: the caller takes the items no thread has taken yet, then
    /// waits for those still being done. Several callers may ask at once: each one woken
    /// wakes the next.
    public func results() -> [T] {
        work()
        if finished.load(ordering: .acquiring) < count {
            allDone.wait()
            allDone.signal()
        }
        return (0..<count).map { slots.get($0) }
    }
}
