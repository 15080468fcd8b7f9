import CMalloc
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A lint asks for the start of its heaps in huge pages (`routes_heap_prefer_huge_pages`,
/// heap.c): of the main thread's heap, grown ahead of where it ended, and of the arena of each
/// helper thread that does work; the first `routes_huge_heap_prefix_bytes` of each, and no
/// more. Where the kernel gives them on request, the mappings say so (`hg` among the flags of
/// /proc/self/smaps); elsewhere nothing is asked.
@Suite struct HeapPagesTests {
    #if os(Linux)
    /// The mappings of this process: each range with its flags.
    private static func mappings() -> [(range: Range<UInt>, flags: [Substring], name: String)] {
        guard let file = fopen("/proc/self/smaps", "r") else { return [] }
        defer { fclose(file) }
        var result: [(range: Range<UInt>, flags: [Substring], name: String)] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while let line = fgets(&buffer, Int32(buffer.count), file) {
            let text = String(cString: line)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                let bounds = first.split(separator: "-")
                if bounds.count == 2, let low = UInt(bounds[0], radix: 16), let high = UInt(bounds[1], radix: 16) {
                    let name = fields.count >= 6 ? String(fields[5].filter { $0 != "\n" }) : ""
                    result.append((low..<high, [], name))
                }
            } else if text.hasPrefix("VmFlags:"), !result.isEmpty {
                result[result.count - 1].flags = Array(text.dropFirst(8).split(whereSeparator: { $0 == " " || $0 == "\n" }))
            }
        }
        return result
    }

    private static func flags(at address: UInt) -> (flags: [Substring], name: String)? {
        mappings().first { $0.range.contains(address) }.map { ($0.flags, $0.name) }
    }

    private static var hugePagesOnRequest: Bool {
        guard let file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r") else { return false }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 256)
        guard let line = fgets(&buffer, Int32(buffer.count), file) else { return false }
        let mode = String(cString: line)
        return mode.contains("[madvise]") || mode.contains("[always]")
    }

    /// The heap of a thread's arena (64 MiB, aligned to its size) that holds `address`: its
    /// start advised, and from `prefix` on, nothing.
    private static func expectPrefixAdvised(ofArenaHeapAt address: UInt, prefix: UInt, _ what: String) throws {
        let start = address & ~((UInt(64) << 20) - 1)
        let first = try #require(flags(at: start))
        #expect(first.flags.contains("hg"), "the start of \(what) has flags \(first.flags)")
        if let beyond = flags(at: start + prefix) {
            #expect(!beyond.flags.contains("hg"), "\(what) past its first \(prefix) bytes has flags \(beyond.flags)")
        }
    }

    @Test func theHeapsOfALintAreAdvisedWhereTheKernelGivesHugePagesOnRequest() throws {
        let turnedOff = getenv("ROUTES_HUGE_PAGES").map { String(cString: $0) == "0" } ?? false
        let advised = routes_heap_prefer_huge_pages(64 << 20) == 1
        #expect(advised == (Self.hugePagesOnRequest && !turnedOff))
        guard advised else { return }
        // The caller's heap: the main thread's heap (grown by the reserve, its start advised up
        // to the prefix, the rest not), or the arena of a thread of the test runner.
        let block = malloc(64)
        let at = UInt(bitPattern: block)
        free(block)
        let own = try #require(Self.flags(at: at))
        let prefix = UInt(routes_huge_heap_prefix_bytes)
        if own.name == "[heap]" {
            let heap = Self.mappings().filter { $0.name == "[heap]" }
            let advisedParts = heap.filter { $0.flags.contains("hg") }
            #expect(!advisedParts.isEmpty, "the main heap has no advised part: \(heap.map { ($0.range, $0.flags) })")
            // (Each call advises the start of what it grew the heap by: one part a call.)
            for part in advisedParts {
                #expect(UInt(part.range.count) <= prefix, "an advised part of the main heap is \(part.range.count) bytes")
            }
            // The reserve reaches past the prefix: its end is not advised.
            let end = try #require(Self.flags(at: UInt(bitPattern: sbrk(0)) - 1))
            #expect(!end.flags.contains("hg"), "the end of the main heap has flags \(end.flags)")
        } else {
            try Self.expectPrefixAdvised(ofArenaHeapAt: at, prefix: prefix, "the caller's heap")
        }
        // A new thread's arena: advised once the thread asks.
        final class Probe: @unchecked Sendable { var address: UInt = 0 }
        let probe = Probe()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            let probe = Unmanaged<Probe>.fromOpaque(context!).takeUnretainedValue()
            routes_thread_heap_prefer_huge_pages()
            let block = malloc(64)
            probe.address = UInt(bitPattern: block)
            free(block)
            return nil
        }, Unmanaged.passUnretained(probe).toOpaque())
        try #require(started == 0)
        pthread_join(thread, nil)
        let arena = try #require(Self.flags(at: probe.address))
        // (A thread may be given the main thread's heap when the arenas run out: then that.)
        if arena.name != "[heap]" {
            try Self.expectPrefixAdvised(ofArenaHeapAt: probe.address, prefix: prefix, "a new thread's heap")
        }
    }
    #endif
}
