#ifndef PUCKD_MALLOC_COUNTER_H
#define PUCKD_MALLOC_COUNTER_H
#include <stdint.h>
/// Heap allocations (malloc, calloc, realloc, memalign, aligned_alloc, posix_memalign) made by the
/// calling thread since it started. Linked into tests and benchmarks only.
uint64_t mc_thread_allocations(void);
/// Bytes requested by those allocations.
uint64_t mc_thread_allocated_bytes(void);
/// 1 when counting through a sanitizer's allocator hooks (ASan/TSan builds), 0 with the malloc replacement.
int mc_counts_through_sanitizer(void);
#endif
