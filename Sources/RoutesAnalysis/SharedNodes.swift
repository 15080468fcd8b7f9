#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import CMalloc

/// What the threads that make nodes in one manager at once share (`BDD.beginSharing()`):
/// the top of the node array, taken a chunk at a time, and a monitor in which a thread that
/// must grow the unique table waits for the others to stop where they hold none of it (at
/// the start of making a node, or out of work).
final class SharedNodes: @unchecked Sendable {
    /// The next slot at the top of the node array (an atomic count).
    private let top: UnsafeMutablePointer<Int64>
    /// Where the slots end: the node budget, or the array's room.
    let limit: Int
    /// Nonzero (atomically) while a thread waits to grow the unique table.
    let growRequested: UnsafeMutablePointer<Int32>
    let monitor = Monitor()
    /// The sharing managers, the one `beginSharing()` was called on first.
    var managers: [BDD] = []
    /// Under the monitor: how many threads wait where they hold nothing of the table, and
    /// how many take part (the thread that began the sharing, and each that has joined and
    /// not left).
    var parked = 0
    var members = 1

    init(top: Int, limit: Int) {
        self.top = .allocate(capacity: 1)
        self.top.initialize(to: Int64(top))
        self.limit = limit
        growRequested = .allocate(capacity: 1)
        growRequested.initialize(to: 0)
    }

    deinit {
        top.deallocate()
        growRequested.deallocate()
    }

    /// The slots given out so far (every slot below is a node or free), at most `limit`.
    var slotsHandedOut: Int { min(Int(routes_fetch_add_i64(top, 0)), limit) }

    /// The first of `count` slots taken from the top.
    func takeChunk(_ count: Int) -> Int { Int(routes_fetch_add_i64(top, Int64(count))) }

    /// Grows the node array or the unique table (`BDD.growShared`) once every other thread
    /// waits (or has left); a thread that finds a growth asked for already waits for it
    /// instead.
    func requestGrowth(by manager: BDD) {
        monitor.lock()
        if routes_load_relaxed_i32(growRequested) != 0 {
            waitWhileGrowing()
            monitor.unlock()
            return
        }
        routes_store_relaxed_i32(growRequested, 1)
        while parked < members - 1 { monitor.wait() }
        manager.growShared(self)
        routes_store_relaxed_i32(growRequested, 0)
        monitor.broadcast()
        monitor.unlock()
    }

    /// Waits, holding nothing of the table, until a growth asked for is done.
    func park() {
        monitor.lock()
        waitWhileGrowing()
        monitor.unlock()
    }

    /// (Under the monitor.)
    private func waitWhileGrowing() {
        parked += 1
        monitor.broadcast()
        while routes_load_relaxed_i32(growRequested) != 0 { monitor.wait() }
        parked -= 1
    }

    /// Waits under the monitor for a `broadcast`, counted as parked: for a thread out of
    /// work, which holds nothing of the table.
    func waitParked() {
        parked += 1
        monitor.broadcast()
        monitor.wait()
        parked -= 1
    }

    /// A thread begins to take part: from now on a growth waits for it. (Before, it holds
    /// nothing of the table, so a growth asked for meanwhile need not wait for it; should one
    /// be under way, it waits for it to end.)
    func join() {
        monitor.lock()
        joinLocked()
        monitor.unlock()
    }

    /// `join()` under the monitor.
    func joinLocked() {
        members += 1
        if routes_load_relaxed_i32(growRequested) != 0 { waitWhileGrowing() }
    }

    /// A thread that makes no more nodes stops taking part, so that a growth another thread
    /// asks for does not wait for it.
    func depart() {
        monitor.lock()
        leave()
        monitor.unlock()
    }

    /// `depart()` under the monitor.
    func leave() {
        members -= 1
        monitor.broadcast()
    }
}

/// A mutex and a condition variable: for threads that hand each other work and wait for it
/// (see `SharedNodes` and `Flow.runOnTwoThreads()`).
final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a `broadcast` (the mutex held); may wake without one.
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
}
