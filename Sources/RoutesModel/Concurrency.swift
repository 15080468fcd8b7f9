import CMalloc
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
    DispatchQueue.concurrentPerform(iterations: count) {
        routes_thread_heap_prefer_huge_pages()
        results.set($0, body($0))
    }
    return (0..<count).map { results.get($0) }
}

/// Results written by parallel workers: one slot each, so no two threads touch the same
/// memory and no lock is needed; read once every worker is done.
final class ParallelResults<T>: @unchecked Sendable {
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

/// The processors online (at least one).
let onlineProcessors: Int = {
    #if canImport(Glibc)
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
    return 2
    #endif
}()
