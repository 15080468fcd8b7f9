import CMalloc
import Dispatch
import Synchronization
import Testing
@testable import RoutesModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The helper threads (`Helpers`): every job runs, the work of `parallelMap` is shared with
/// them, and no caller waits for work that no thread has begun (nested work, busy helpers).
@Suite(.serialized) struct HelpersTests {
    /// Waits for `semaphore`, at most `seconds`: false when it timed out (a test that would
    /// otherwise hang fails instead).
    private static func wait(_ semaphore: DispatchSemaphore, seconds: Int = 20) -> Bool {
        semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    @Test func everyJobRunsOnce() {
        let ran = Atomic<Int>(0)
        let allRan = DispatchSemaphore(value: 0)
        let jobs = 300
        for _ in 0..<jobs {
            Helpers.shared.async {
                if ran.wrappingAdd(1, ordering: .relaxed).newValue == jobs { allRan.signal() }
            }
        }
        #expect(Self.wait(allRan))
        #expect(ran.load(ordering: .relaxed) == jobs)
        #expect(Helpers.shared.count == max(1, onlineProcessors - 1))
    }

    /// The items of a `parallelMap` are taken by a helper too: each item waits (a while at
    /// most) until two threads have taken items.
    @Test func parallelMapSharesItsItemsWithAHelper() {
        let threads = Mutex<Set<Int>>([])
        let results = parallelMap(16) { i -> Int in
            threads.withLock { _ = $0.insert(Self.threadID()) }
            let until = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
            while threads.withLock({ $0.count }) < 2 && DispatchTime.now().uptimeNanoseconds < until { sched_yield() }
            return i * 3
        }
        #expect(results == (0..<16).map { $0 * 3 })
        #expect(threads.withLock { $0.count } >= 2)
    }

    /// A job of a helper that hands out work of its own (as the links' reading does) gets it
    /// done, by itself if no other thread takes it.
    @Test func nestedWorkIsDone() {
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<[[Int]]>([])
        Helpers.shared.async {
            let rows = parallelMap(20) { row in parallelMap(5) { row * 10 + $0 } }
            outcome.withLock { $0 = rows }
            done.signal()
        }
        #expect(Self.wait(done))
        #expect(outcome.withLock { $0 } == (0..<20).map { row in (0..<5).map { row * 10 + $0 } })
    }

    /// With every helper busy (blocked until the caller is done), a `parallelMap` is done by
    /// its caller alone, and the helpers' later turns find nothing left to do.
    @Test func busyHelpersLeaveTheWorkToTheCaller() {
        let release = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        for _ in 0..<Helpers.shared.count {
            Helpers.shared.async {
                blocked.signal()
                _ = release.wait(timeout: .now() + .seconds(30))
            }
        }
        for _ in 0..<Helpers.shared.count { #expect(Self.wait(blocked)) }
        let caller = Self.threadID()
        let byCaller = Atomic<Int>(0)
        let results = parallelMap(50) { i -> Int in
            if Self.threadID() == caller { byCaller.wrappingAdd(1, ordering: .relaxed) }
            return i + 1
        }
        #expect(results == (1...50).map { $0 })
        #expect(byCaller.load(ordering: .relaxed) == 50)
        for _ in 0..<Helpers.shared.count { release.signal() }
    }

    /// The calling thread, as a number.
    /// Helpers start one another: each of a set of four takes one of four jobs that wait
    /// until all four have begun.
    @Test func everyHelperStarts() {
        let helpers = Helpers(count: 4)
        let begun = Atomic<Int>(0)
        let allBegun = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            helpers.async {
                begun.wrappingAdd(1, ordering: .relaxed)
                let until = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
                while begun.load(ordering: .relaxed) < 4 && DispatchTime.now().uptimeNanoseconds < until { sched_yield() }
                if begun.load(ordering: .relaxed) == 4 { allBegun.signal() }
            }
        }
        for _ in 0..<4 { #expect(Self.wait(allBegun)) }
    }

    private static func threadID() -> Int { Int(bitPattern: pthread_self()) }

    #if os(Linux)
    /// A thread told to leave the processor it runs on is moved off it, and left free to run
    /// on every processor it could run on before.
    @Test func aThreadLeavesABusyProcessor() {
        let before = routes_thread_affinity()
        #expect(before > 0)
        let cpu = routes_current_cpu()
        #expect(cpu >= 0)
        routes_thread_leave_cpu(cpu)
        if before.nonzeroBitCount >= 2 {
            #expect(routes_current_cpu() != cpu)
        }
        #expect(routes_thread_affinity() == before)
        // Named a processor it does not run on (or none), it stays as it is.
        routes_thread_leave_cpu(-1)
        routes_thread_leave_cpu(routes_current_cpu() == 0 ? 1 : 0)
        #expect(routes_thread_affinity() == before)
    }
    #endif
}
