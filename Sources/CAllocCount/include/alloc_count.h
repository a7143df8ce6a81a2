#ifndef PAJAMA_ALLOC_COUNT_H
#define PAJAMA_ALLOC_COUNT_H
#include <stdint.h>

/// Heap allocations made by the whole process so far (malloc, calloc, realloc, memalign, posix_memalign,
/// aligned_alloc), counted by this target's replacements of glibc's functions; 0 forever when counting
/// is off (a sanitizer build, whose runtime owns malloc).
uint64_t pajama_alloc_count(void);

/// 1 when allocations are counted in this build, else 0.
int pajama_alloc_counting(void);
#endif
