// See include/tls_memory.h (docs/uplink.md §10).
#include "tls_memory.h"
#include <openssl/crypto.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_BYTES 64
#define BLOCKS 512

static _Alignas(16) unsigned char pool[BLOCKS][BLOCK_BYTES];
static void *free_blocks[BLOCKS];
static int free_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t in_use, high_water, served, fallbacks;
static __thread int in_record_io __attribute__((tls_model("initial-exec")));

static int from_pool(const void *p) {
    const unsigned char *c = p;
    return c >= &pool[0][0] && c < &pool[BLOCKS][0];
}

static void *take(size_t n) {
    if (n == 0 || n > BLOCK_BYTES || !in_record_io) return NULL;
    void *p = NULL;
    pthread_mutex_lock(&lock);
    if (free_count > 0) {
        p = free_blocks[--free_count];
        served++;
        if (++in_use > high_water) high_water = in_use;
    } else {
        fallbacks++;
    }
    pthread_mutex_unlock(&lock);
    return p;
}

static void give_back(void *p) {
    pthread_mutex_lock(&lock);
    free_blocks[free_count++] = p;
    in_use--;
    pthread_mutex_unlock(&lock);
}

static void *pool_malloc(size_t n, const char *file, int line) {
    (void)file; (void)line;
    void *p = take(n);
    return p != NULL ? p : malloc(n);
}

static void pool_free(void *p, const char *file, int line) {
    (void)file; (void)line;
    if (p == NULL) return;
    if (from_pool(p)) give_back(p); else free(p);
}

static void *pool_realloc(void *p, size_t n, const char *file, int line) {
    if (p == NULL) return pool_malloc(n, file, line);
    if (n == 0) { pool_free(p, file, line); return NULL; }
    if (!from_pool(p)) return realloc(p, n);
    if (n <= BLOCK_BYTES) return p;
    void *q = malloc(n);
    if (q == NULL) return NULL;
    memcpy(q, p, BLOCK_BYTES);
    give_back(p);
    return q;
}

int puckd_tls_memory_install(void) {
    pthread_mutex_lock(&lock);
    if (free_count == 0 && in_use == 0) {
        for (int k = 0; k < BLOCKS; k++) free_blocks[k] = pool[BLOCKS - 1 - k];
        free_count = BLOCKS;
    }
    pthread_mutex_unlock(&lock);
    return CRYPTO_set_mem_functions(pool_malloc, pool_realloc, pool_free);
}

void puckd_tls_memory_in_record_io(int inside) { in_record_io = inside; }

void puckd_tls_memory_statistics(uint64_t *u, uint64_t *h, uint64_t *s, uint64_t *f) {
    pthread_mutex_lock(&lock);
    *u = in_use; *h = high_water; *s = served; *f = fallbacks;
    pthread_mutex_unlock(&lock);
}

int puckd_tls_memory_blocks(void) { return BLOCKS; }
int puckd_tls_memory_block_bytes(void) { return BLOCK_BYTES; }
