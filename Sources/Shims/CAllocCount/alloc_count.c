// Counts the process's heap allocations for pajama-bench (issue 14: the allocations a tap costs).
//
// An executable that defines malloc interposes it for every shared library too (the dynamic linker finds
// the executable's symbol first), so this counts what the Swift runtime, libpulse, libsndfile and glib
// allocate. Each replacement adds one relaxed atomic increment and calls glibc's own allocator through its
// exported `__libc_*` entry points, so memory comes from and returns to the same allocator (free is not
// replaced). Only pajama-bench links this target. Under a sanitizer the runtime owns malloc: nothing is
// replaced and counting is off.
#include "alloc_count.h"
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define PAJAMA_NO_ALLOC_COUNT 1
#endif
#endif

#ifndef PAJAMA_NO_ALLOC_COUNT
static _Atomic uint64_t allocations;

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static inline void counted(void) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); }

void *malloc(size_t size) {
    counted();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    counted();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    counted();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    counted();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // glibc's rules: a power of two, a multiple of sizeof(void *).
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    counted();
    void *memory = __libc_memalign(alignment, size);
    if (memory == NULL) return ENOMEM;
    *result = memory;
    return 0;
}

uint64_t pajama_alloc_count(void) { return atomic_load_explicit(&allocations, memory_order_relaxed); }
int pajama_alloc_counting(void) { return 1; }
#else
uint64_t pajama_alloc_count(void) { return 0; }
int pajama_alloc_counting(void) { return 0; }
#endif
