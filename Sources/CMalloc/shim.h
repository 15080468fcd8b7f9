// glibc's malloc extensions (malloc_trim), where there are any.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#define ROUTES_HAS_MALLOC_TRIM 1
static inline int routes_malloc_trim(void) { return malloc_trim(0); }
#else
static inline int routes_malloc_trim(void) { return 0; }
#endif
