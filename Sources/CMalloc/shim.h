// glibc's malloc extensions (malloc_trim, mallinfo2), where there are any.
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
