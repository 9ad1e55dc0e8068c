// Replaces glibc's allocator entry points and counts per thread, forwarding to glibc's __libc_*
// functions (glibc manual, "Replacing malloc"). Defined in the test executable, these interpose for
// every library, the Swift runtime included. Per-thread counting: Swift Testing runs tests in parallel.
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include "malloc_counter.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static __thread uint64_t count __attribute__((tls_model("initial-exec")));
static __thread uint64_t bytes __attribute__((tls_model("initial-exec")));

uint64_t mc_thread_allocations(void) { return count; }
uint64_t mc_thread_allocated_bytes(void) { return bytes; }

void *malloc(size_t n) { count++; bytes += n; return __libc_malloc(n); }
void *calloc(size_t k, size_t n) { count++; bytes += k * n; return __libc_calloc(k, n); }
void *realloc(void *p, size_t n) { count++; bytes += n; return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { count++; bytes += n; return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { count++; bytes += n; return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    count++; bytes += n;
    void *p = __libc_memalign(a, n);
    if (p == NULL) return ENOMEM;
    *out = p;
    return 0;
}
