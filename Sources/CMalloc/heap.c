// The start of the heaps in huge pages, for a batch run that fills a few megabytes of fresh
// memory: the kernel then maps 2 MiB at a fault instead of 4 KiB, and a lint spends far less
// of its time in page faults. Linux gives such pages on request when transparent huge pages
// are in `madvise` mode (the usual default), and glibc's malloc asks for them only when its
// `glibc.malloc.hugetlb` tunable is set in the environment before the process starts. This
// asks for them from inside: the caller's heap (the main thread's, in a lint) is grown once
// by `reserve` bytes and its start advised, and each helper thread then advises the start of
// its own arena's heap, once. Only the first `routes_huge_heap_prefix_bytes` of each heap:
// there a small lint's whole heap lies, and each huge page saves 511 faults; further on, a
// large lint's fresh huge pages each cost the kernel a clearing of 2 MiB and, in a virtual
// machine whose host takes back the guest's free memory in large blocks, the host's backing
// of all of it, which took more than the faults saved (see Benchmarks/HISTORY.md).
#include "shim.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <fcntl.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// glibc keeps the arena of a thread other than the main one in a heap of this size, aligned
// to it (64-bit targets).
#define ARENA_HEAP_SIZE ((uintptr_t)64 << 20)
#define HUGE_PAGE_SIZE ((uintptr_t)2 << 20)

extern char end; // The end of the program's data: the main thread's heap lies above it.

static atomic_int heapsInHugePages;
static _Thread_local int threadAdvised;

static int hugePagesOnRequest(void) {
    int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[128];
    ssize_t count = read(fd, text, sizeof text - 1);
    close(fd);
    if (count <= 0) return 0;
    text[count] = 0;
    return strstr(text, "[madvise]") != NULL || strstr(text, "[always]") != NULL;
}

// At most the advised start of a heap of `bytes`.
static uintptr_t prefixOf(uintptr_t bytes) {
    return bytes < routes_huge_heap_prefix_bytes ? bytes : routes_huge_heap_prefix_bytes;
}

static int inMainHeap(uintptr_t at) { return at >= (uintptr_t)&end && at < (uintptr_t)sbrk(0); }

// The heap of the main thread (between the program's data and the break), grown by the pad:
// blocks are taken from it until it grows, and the free room they were taken from and the
// room it grew by are advised. (A process starts with little free room there: a heap that
// does not grow within a few megabytes, or cannot, is left as it is.)
static int adviseMainHeap(void) {
    char *before = sbrk(0);
    enum { blockSize = 64 << 10, mostBlocks = 64 };
    void *blocks[mostBlocks];
    int taken = 0;
    uintptr_t lowest = UINTPTR_MAX;
    while (taken < mostBlocks && (char *)sbrk(0) == before) {
        void *block = malloc(blockSize);
        if (block == NULL) break;
        blocks[taken++] = block;
        if ((uintptr_t)block < lowest) lowest = (uintptr_t)block;
    }
    char *after = sbrk(0);
    uintptr_t start = (lowest + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
    int advised = after != before && (uintptr_t)after > start
        && madvise((void *)start, prefixOf((uintptr_t)after - start), MADV_HUGEPAGE) == 0;
    while (taken > 0) free(blocks[--taken]);
    return advised;
}

// The heap of the calling thread: the main one, or its arena's.
static int adviseOwnHeap(void) {
    threadAdvised = 1;
    void *probe = malloc(64);
    if (probe == NULL) return 0;
    uintptr_t at = (uintptr_t)probe;
    free(probe);
    if (inMainHeap(at)) return adviseMainHeap();
    return madvise((void *)(at & ~(ARENA_HEAP_SIZE - 1)), prefixOf(ARENA_HEAP_SIZE), MADV_HUGEPAGE) == 0;
}

int routes_heap_prefer_huge_pages(size_t reserve) {
    const char *off = getenv("ROUTES_HUGE_PAGES");
    if (off != NULL && strcmp(off, "0") == 0) return 0;
    if (reserve > (size_t)1 << 30 || !hugePagesOnRequest()) return 0;
    // Each growth of a heap then reserves this much more (address space only: a page is
    // memory once it is written).
    if (mallopt(M_TOP_PAD, (int)reserve) == 0) return 0;
    int advised = adviseOwnHeap();
    atomic_store(&heapsInHugePages, advised);
    return advised;
}

void routes_thread_heap_prefer_huge_pages(void) {
    if (threadAdvised || !atomic_load_explicit(&heapsInHugePages, memory_order_relaxed)) return;
    (void)adviseOwnHeap();
}

#else

int routes_heap_prefer_huge_pages(size_t reserve) { (void)reserve; return 0; }
void routes_thread_heap_prefer_huge_pages(void) {}

#endif
