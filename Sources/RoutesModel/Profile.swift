import Synchronization
import CMalloc
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a run's time and memory go, for performance work on the release build (see
/// docs/dev/contributing.md#how-to-measure): with `ROUTES_PROFILE` set in the environment,
/// each `Profile.mark(_:)` writes one line to standard error: the milliseconds since the
/// first mark, since the previous mark of the same thread, the thread's processor time since
/// then (less than the time when the thread waited or another ran in its place), the
/// processor time of every thread of the process since the previous mark of any (about
/// twice the time on two busy cores, about the time while one core works alone), the page
/// faults of the process so far (a page touched for the first time costs microseconds: see
/// Benchmarks/HISTORY.md), its resident size and peak resident size and the bytes of
/// malloc's blocks in use (Linux), the thread (`main`, or another), and the phase that just
/// ended.
/// Without it, a mark reads one flag.
public enum Profile {
    /// Whether `ROUTES_PROFILE` is set (read once).
    private static let isOn: Bool = getenv("ROUTES_PROFILE") != nil

    private struct Clock {
        var first: Double
        /// Each thread that marked, with the time of its last mark and its processor time
        /// then; the first is the main thread (the first to mark).
        var last: [(thread: pthread_t, ms: Double, cpu: Double)]
        /// The processor time of every thread at the last mark of any.
        var allCPU: Double = 0
    }
    private static let clock = Mutex<Clock?>(nil)

    /// Notes that `phase` just ended (see ``Profile``).
    @inline(__always)
    public static func mark(_ phase: StaticString) {
        if isOn { write(phase) }
    }

    /// (Under the lock: the lines of two threads are written in the order of their times.)
    private static func write(_ phase: StaticString) {
        clock.withLock { clock in
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let ms = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
            var used = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used)
            let cpu = Double(used.tv_sec) * 1000 + Double(used.tv_nsec) / 1_000_000
            let thread = pthread_self()
            var known = clock ?? Clock(first: ms, last: [])
            let mine = known.last.firstIndex { pthread_equal($0.thread, thread) != 0 }
            let previous = mine.map { known.last[$0].ms } ?? known.first
            // (A thread's first mark counts its processor time from its start.)
            let previousCPU = mine.map { known.last[$0].cpu } ?? 0
            if let mine { known.last[mine] = (thread, ms, cpu) } else { known.last.append((thread, ms, cpu)) }
            let onMain = pthread_equal(known.last[0].thread, thread) != 0
            var usage = rusage()
            #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            #else
            getrusage(RUSAGE_SELF, &usage)
            #endif
            let faults = Int(usage.ru_minflt) + Int(usage.ru_majflt)
            let allCPU = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
                + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
            let allSince = allCPU - known.allCPU
            known.allCPU = allCPU
            clock = known
            let line = "routes: profile: \(format(ms - known.first)) ms  +\(format(ms - previous)) ms  cpu +\(format(cpu - previousCPU)) ms  "
                + "all +\(format(allSince)) ms  \(faults) faults  " + residentSizes()
                + "\(onMain ? "main " : "other") \(phase)\n"
            _ = FileDescriptor.writeAll(line, to: 2)
        }
    }

    /// "rss N MB peak M MB  " from /proc/self/status, where there is one.
    private static func residentSizes() -> String {
        #if os(Linux)
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return "" }
        var kilobytes: [String: Int] = [:]
        for line in String(decoding: bytes[..<count], as: UTF8.self).split(separator: "\n") {
            guard line.hasPrefix("VmRSS:") || line.hasPrefix("VmHWM:") else { continue }
            let fields = line.split(omittingEmptySubsequences: true) { $0 == " " || $0 == "\t" }
            if fields.count >= 2 { kilobytes[String(fields[0])] = Int(fields[1]) }
        }
        guard let rss = kilobytes["VmRSS:"], let peak = kilobytes["VmHWM:"] else { return "" }
        let used = routes_malloc_used_bytes()
        return "rss \(rss / 1024) MB peak \(peak / 1024) MB  " + (used >= 0 ? "malloc \(used >> 20) MB  " : "")
        #else
        return ""
        #endif
    }

    /// Milliseconds with two decimals.
    private static func format(_ ms: Double) -> String {
        let hundredths = Int((ms * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
