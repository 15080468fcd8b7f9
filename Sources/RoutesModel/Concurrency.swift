import CMalloc
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `(0..<count).map(body)`, on every core when there is more than one item (each item is
/// independent; the results keep their order): the caller and the helper threads
/// (``Helpers``) take the items one at a time.
public func parallelMap<T>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    if count <= 1 { return (0..<count).map(body) }
    let work = SharedWorkList(count: count, body)
    work.start()
    return work.results()
}

/// The threads that help with independent work (``parallelMap(_:_:)``, ``SharedWorkList``):
/// one fewer than the processors (at least one), since whoever hands out work does its
/// share; started on first use and kept for the process.
///
/// Where they run matters on a machine of few processors. A helper starts off the processor
/// of the thread that started it, and once out of work it stays awake a little while
/// (``staysAwake``), yielding its processor to any thread that wants it, before it sleeps.
/// So it keeps to a processor of its own while the caller keeps to another, and takes the
/// next work at once. Threads put to sleep and woken afresh between phases (as a general
/// pool's are) were woken onto the processor of the thread that woke them and shared it with
/// that one, the other idle, for up to milliseconds at a time (see Benchmarks/HISTORY.md).
public final class Helpers: @unchecked Sendable {
    public static let shared = Helpers()
    /// The processors online (at least one): with one, helpers take turns with the caller.
    public static var processors: Int { onlineProcessors }
    /// How many threads help.
    public let count: Int
    /// Jobs not yet taken, in order.
    private let queue = Mutex<[@Sendable () -> Void]>([])
    /// Signalled once per job queued, waited on once per job taken.
    private let queued = DispatchSemaphore(value: 0)
    /// How many helpers are awake without work (see `staysAwake`).
    private let awake = Atomic<Int>(0)

    /// How long, in nanoseconds, a helper out of work stays awake: longer than most gaps
    /// between the phases of a lint. At most one helper at a time does, so that a machine of
    /// many processors spends at most this much of one processor per gap.
    static let staysAwake: UInt64 = 2_000_000

    private convenience init() { self.init(count: max(1, onlineProcessors - 1)) }

    /// `count` helpers (a test makes its own): the caller starts one, which starts the next
    /// before it takes work, and so on, so that the caller pays for one thread's start.
    init(count: Int) {
        self.count = count
        start(count, avoiding: routes_current_cpu())
    }

    /// Starts a helper that starts `count - 1` more.
    private func start(_ count: Int, avoiding cpu: Int32) {
        guard count > 0 else { return }
        let context = Unmanaged.passRetained(Start(helpers: self, avoiding: cpu, more: count - 1)).toOpaque()
        if routes_start_thread({ context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            start.helpers.run(avoiding: start.avoiding, thenStarting: start.more)
        }, context) == 0 {
            Unmanaged<Start>.fromOpaque(context).release()
        }
    }

    /// What a helper thread starts with.
    private final class Start {
        let helpers: Helpers
        let avoiding: Int32
        let more: Int
        init(helpers: Helpers, avoiding: Int32, more: Int) {
            self.helpers = helpers
            self.avoiding = avoiding
            self.more = more
        }
    }

    /// Runs `job` on a helper thread, after the jobs queued before it. (A caller that needs
    /// the job's result does the work itself if no helper has begun it, as `SharedWorkList`
    /// does: the helpers may be busy with the very work that waits.)
    public func async(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.append(job) }
        queued.signal()
    }

    private func run(avoiding starter: Int32, thenStarting more: Int) -> Never {
        routes_thread_leave_cpu(starter)
        start(more, avoiding: routes_current_cpu())
        while true {
            stayAwake()
            queued.wait()
            guard let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job()
        }
    }

    /// Waits for a job without sleeping, for `staysAwake` at most, giving the processor to
    /// any other thread that wants it meanwhile; at once when another helper does so already.
    private func stayAwake() {
        guard awake.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged else { return }
        defer { awake.store(0, ordering: .relaxed) }
        let until = DispatchTime.now().uptimeNanoseconds + Self.staysAwake
        var checks = 0
        while queue.withLock({ $0.isEmpty }) {
            sched_yield()
            checks += 1
            if checks % 16 == 0 && DispatchTime.now().uptimeNanoseconds > until { return }
        }
    }
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
