// glibc's heap statistics for pajama-bench's memory scenario (issue 27): which part of the resident
// memory is live allocations and which is free memory the allocator keeps (Swift's Glibc module does not
// declare mallinfo2 or malloc_trim).
#include "alloc_count.h"
#include <malloc.h>

struct pajama_heap pajama_heap_now(void) {
    struct mallinfo2 info = mallinfo2();
    struct pajama_heap heap = {
        .in_use = info.uordblks + info.hblkhd,
        .free_bytes = info.fordblks,
        .arena = info.arena,
        .mmapped = info.hblkhd,
    };
    return heap;
}

int pajama_heap_trim(void) { return malloc_trim(0); }
