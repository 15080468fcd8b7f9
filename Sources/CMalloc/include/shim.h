// glibc's malloc extensions (malloc_trim, mallinfo2), where there are any, the heap's
// pages (heap.c), and the start of helper threads (threads.c).
#include <stddef.h>

/// Where the kernel gives transparent huge pages on request (Linux, glibc's malloc), asks
/// for them for the start of the caller's heap (the main thread's, grown `reserve` bytes
/// ahead), and for the start of the heap of each thread that calls
/// `routes_thread_heap_prefer_huge_pages` afterwards: the first
/// `routes_huge_heap_prefix_bytes` of each. Returns 1 when it did.
int routes_heap_prefer_huge_pages(size_t reserve);
/// The calling thread's heap in huge pages, when `routes_heap_prefer_huge_pages` asked for
/// them; once per thread, and cheap after that (`SharedWorkList` calls it on each thread
/// that does its work).
void routes_thread_heap_prefer_huge_pages(void);
/// How much of the start of each heap is asked for in huge pages.
static const size_t routes_huge_heap_prefix_bytes = (size_t)16 << 20;

#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#define ROUTES_HAS_MALLOC_TRIM 1
static inline int routes_malloc_trim(void) { return malloc_trim(0); }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
// Bytes malloc holds free in its arenas, and bytes it holds in all; -1 where it cannot say.
static inline long long routes_malloc_free_bytes(void) { return (long long)mallinfo2().fordblks; }
static inline long long routes_malloc_arena_bytes(void) { return (long long)mallinfo2().arena; }
// Bytes of blocks in use: in the arenas and mapped apart from them.
static inline long long routes_malloc_used_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
static inline long long routes_malloc_free_bytes(void) { return -1; }
static inline long long routes_malloc_arena_bytes(void) { return -1; }
static inline long long routes_malloc_used_bytes(void) { return -1; }
#endif
#else
static inline int routes_malloc_trim(void) { return 0; }
static inline long long routes_malloc_free_bytes(void) { return -1; }
static inline long long routes_malloc_arena_bytes(void) { return -1; }
static inline long long routes_malloc_used_bytes(void) { return -1; }
#endif

/// Starts a detached thread that runs `body(context)`; 1 when it did.
int routes_start_thread(void *(*body)(void *), void *context);
/// The processor the calling thread runs on; -1 where that cannot be known.
int routes_current_cpu(void);
/// When the calling thread runs on processor `busy` (and may run on another), moves it to
/// another of those it may run on, and leaves it free to run on any of them afterwards.
void routes_thread_leave_cpu(int busy);
/// The processors (the first 63) the calling thread may run on, a bit each; -1 where that
/// cannot be known.
long long routes_thread_affinity(void);

#include <stdint.h>

/// Atomic access to the decision diagrams' unique table while two threads add nodes to it
/// (see `BDD.Workers`): a slot read with acquire order (the node it names was written
/// before it), and a slot taken from empty with a compare-and-swap.
static inline uint32_t routes_load_acquire_u32(const uint32_t *slot) {
    return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}
static inline int routes_compare_swap_u32(uint32_t *slot, uint32_t expected, uint32_t desired) {
    return __atomic_compare_exchange_n(slot, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
/// Adds `amount` to a shared count; returns the count before.
static inline int64_t routes_fetch_add_i64(int64_t *count, int64_t amount) {
    return __atomic_fetch_add(count, amount, __ATOMIC_RELAXED);
}
/// A flag read on a hot path without a lock, and written under one.
static inline int32_t routes_load_relaxed_i32(const int32_t *flag) {
    return __atomic_load_n(flag, __ATOMIC_RELAXED);
}
static inline void routes_store_relaxed_i32(int32_t *flag, int32_t value) {
    __atomic_store_n(flag, value, __ATOMIC_RELAXED);
}
/// Asks for the cache line at `address` ahead of a write there: for loops that write at
/// random into a table larger than the caches, a few iterations ahead.
static inline void routes_prefetch_for_write(const void *address) {
    __builtin_prefetch(address, 1, 3);
}
