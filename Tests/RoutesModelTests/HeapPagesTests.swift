import CMalloc
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A lint asks for its heaps in huge pages (`routes_heap_prefer_huge_pages`, heap.c): the main
/// thread's heap ahead of where it ends, and the arena of each helper thread that does
/// work. Where the kernel gives them on request, the mappings say so (`hg` among the flags
/// of /proc/self/smaps); elsewhere nothing is asked.
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

    @Test func theHeapsOfALintAreAdvisedWhereTheKernelGivesHugePagesOnRequest() throws {
        let turnedOff = getenv("ROUTES_HUGE_PAGES").map { String(cString: $0) == "0" } ?? false
        let advised = routes_heap_prefer_huge_pages(64 << 20) == 1
        #expect(advised == (Self.hugePagesOnRequest && !turnedOff))
        guard advised else { return }
        // The caller's heap: where a new block is (the main thread's heap, grown by the
        // reserve, up to its end; or the arena of a thread of the test runner).
        let block = malloc(64)
        let at = UInt(bitPattern: block)
        free(block)
        let own = try #require(Self.flags(at: at))
        let place = own.name == "[heap]" ? UInt(bitPattern: sbrk(0)) - 1 : at
        let advisedPlace = try #require(Self.flags(at: place))
        #expect(advisedPlace.flags.contains("hg"), "the caller's heap \(advisedPlace.name) has flags \(advisedPlace.flags)")
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
            #expect(arena.flags.contains("hg"), "a new thread's heap has flags \(arena.flags)")
        }
    }

    /// A large block of its own (malloc maps a block past 32 MiB apart from its heaps) is
    /// asked for in huge pages, whole huge pages only, when the heaps were: the decision
    /// diagrams' arrays.
    @Test func aLargeBlockOfItsOwnIsAdvisedInWholeHugePages() throws {
        let turnedOff = getenv("ROUTES_HUGE_PAGES").map { String(cString: $0) == "0" } ?? false
        let advised = routes_heap_prefer_huge_pages(64 << 20) == 1
        let bytes = 64 << 20, huge: UInt = 2 << 20
        let block = try #require(malloc(bytes))
        defer { free(block) }
        let start = UInt(bitPattern: block)
        let firstWhole = (start + huge - 1) & ~(huge - 1)
        #expect(Self.flags(at: firstWhole)?.flags.contains("hg") != true, "not advised before it is asked")
        routes_region_prefer_huge_pages(block, bytes)
        let inside = try #require(Self.flags(at: firstWhole))
        #expect(inside.flags.contains("hg") == (advised && !turnedOff), "the block's whole huge pages have flags \(inside.flags)")
        if advised, firstWhole > start, let before = Self.flags(at: start) {
            // The part before the first whole huge page is not advised (its own mapping).
            #expect(!before.flags.contains("hg") || before.name == "[heap]")
        }
    }
    #endif
}
