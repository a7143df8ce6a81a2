#ifndef PAJAMA_ALLOC_COUNT_H
#define PAJAMA_ALLOC_COUNT_H
#include <stdint.h>

/// Heap allocations made by the whole process so far (malloc, calloc, realloc, memalign, posix_memalign,
/// aligned_alloc), counted by this target's replacements of glibc's functions; 0 forever when counting
/// is off (a sanitizer build, whose runtime owns malloc).
uint64_t pajama_alloc_count(void);

/// 1 when allocations are counted in this build, else 0.
int pajama_alloc_counting(void);

/// glibc's heap now, over all its arenas (mallinfo2): bytes in live allocations (`in_use`, mmapped
/// chunks included), bytes free inside the heap and kept by the allocator (`free_bytes`), the arenas'
/// total size (`arena`) and their number.
struct pajama_heap {
    uint64_t in_use;
    uint64_t free_bytes;
    uint64_t arena;
    uint64_t mmapped;
};
struct pajama_heap pajama_heap_now(void);

/// Gives the free memory at the top and inside every arena back to the system (glibc's malloc_trim(0));
/// 1 if some was released.
int pajama_heap_trim(void);
#endif
