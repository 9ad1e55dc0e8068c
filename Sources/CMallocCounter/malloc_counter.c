// Counts heap allocations per thread (Swift Testing runs tests in parallel), for the allocation proofs.
//
// Plain builds replace glibc's allocator entry points and forward to glibc's __libc_* functions
// (glibc manual, "Replacing malloc"): defined in the test executable, these interpose for every
// library, the Swift runtime included.
//
// Sanitizer builds (make test-asan, make test-tsan) must not replace malloc: the sanitizer's own
// allocator is the one that finds the bugs, and it calls malloc while it starts, before a replacement
// could run safely. There the sanitizer's allocator hooks count instead
// (__sanitizer_install_malloc_and_free_hooks, called for every allocation its malloc, calloc, realloc,
// memalign, aligned_alloc, posix_memalign and operator new make), so the same proofs run unchanged.
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include "malloc_counter.h"

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#    define PUCKD_SANITIZER_ALLOCATOR 1
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define PUCKD_SANITIZER_ALLOCATOR 1
#endif

static __thread uint64_t count __attribute__((tls_model("initial-exec")));
static __thread uint64_t bytes __attribute__((tls_model("initial-exec")));

uint64_t mc_thread_allocations(void) { return count; }
uint64_t mc_thread_allocated_bytes(void) { return bytes; }

#ifdef PUCKD_SANITIZER_ALLOCATOR

// compiler-rt's <sanitizer/allocator_interface.h>, declared here so no header path is needed.
extern int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                                     void (*free_hook)(const volatile void *));

static void counted(const volatile void *pointer, size_t size) {
    (void)pointer;
    count++;
    bytes += size;
}

static void freed(const volatile void *pointer) { (void)pointer; }

// After the sanitizer's own start-up (its initialiser runs before any constructor).
__attribute__((constructor)) static void install_hooks(void) {
    __sanitizer_install_malloc_and_free_hooks(counted, freed);
}

int mc_counts_through_sanitizer(void) { return 1; }

#else

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

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

int mc_counts_through_sanitizer(void) { return 0; }

#endif
