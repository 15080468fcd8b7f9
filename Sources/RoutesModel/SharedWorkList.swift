import CMalloc
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Items of independent work, taken one at a time by the helper threads (``Helpers``) and by
/// whoever asks for the results, who does what is left rather than wait for threads that have
/// not begun (the helpers may be busy with the very work that asks, or with other work). One
/// item is work that either a helper or the caller does.
public final class SharedWorkList<T>: @unchecked Sendable {
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

    /// Offers the work to the helper threads (at most one per item): the caller of
    /// `results()` does its share too.
    public func start() {
        for _ in 0..<min(count, Helpers.shared.count) {
            Helpers.shared.async { self.work() }
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
