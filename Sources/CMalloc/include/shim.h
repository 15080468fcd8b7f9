// glibc's malloc extensions (malloc_trim, mallinfo2), where there are any, and the heap's
// pages (heap.c).
#include <stddef.h>

/// Where the kernel gives transparent huge pages on request (Linux, glibc's malloc), asks
/// for them for the caller's heap (the main thread's grown `reserve` bytes ahead), and for
/// the heap of each thread that calls `routes_thread_heap_prefer_huge_pages` afterwards.
/// Returns 1 when it did.
int routes_heap_prefer_huge_pages(size_t reserve);
/// The calling thread's heap in huge pages, when `routes_heap_prefer_huge_pages` asked for
/// them; once per thread, and cheap after that (`parallelMap` and `SharedWorkList` call it
/// on each thread that does their work).
void routes_thread_heap_prefer_huge_pages(void);

#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#define ROUTES_HAS_MALLOC_TRIM 1
static inline int routes_malloc_trim(void) { return malloc_trim(0); }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
// Bytes malloc holds free in its arenas, and bytes it holds in all; -1 where it cannot say.
static inline long long routes_malloc_free_bytes(void) { return (long long)mallinfo2().fordblks; }
static inline long long routes_malloc_arena_bytes(void) { return (long long)mallinfo2().arena; }
#else
static inline long long routes_malloc_free_bytes(void) { return -1; }
static inline long long routes_malloc_arena_bytes(void) { return -1; }
#endif
#else
static inline int routes_malloc_trim(void) { return 0; }
static inline long long routes_malloc_free_bytes(void) { return -1; }
static inline long long routes_malloc_arena_bytes(void) { return -1; }
#endif
