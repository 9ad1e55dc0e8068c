// A fixed pool for OpenSSL's small per-record allocations (docs/uplink.md §10). OpenSSL 3.0 allocates
// its WPACKET sub-packet records (40 B) with OPENSSL_zalloc for every TLS record it writes, and for
// the additional data of every TLS 1.3 record it reads; no OpenSSL setting avoids it. puckd hands
// OpenSSL allocator functions (CRYPTO_set_mem_functions) that serve blocks of up to 64 B from a pool
// reserved in the binary while the calling thread is inside an open session's SSL_read/SSL_write;
// everything else, and a pool found empty (counted), goes to malloc.
#ifndef PUCKD_TLS_MEMORY_H
#define PUCKD_TLS_MEMORY_H
#include <stdint.h>

/// Installs the allocator functions; 1 on success, 0 when OpenSSL had already allocated (then the pool
/// is unused and the per-record allocations reach malloc). Call before any other OpenSSL call.
int puckd_tls_memory_install(void);

/// Marks the calling thread as inside (1) or outside (0) an open session's read or write.
void puckd_tls_memory_in_record_io(int inside);

/// The pool's figures: blocks in use now, the most ever in use, allocations it served, and the
/// allocations of up to 64 B made inside record I/O that found it empty and went to malloc.
void puckd_tls_memory_statistics(uint64_t *in_use, uint64_t *high_water, uint64_t *served, uint64_t *fallbacks);

/// Its capacity in blocks and the block size in bytes.
int puckd_tls_memory_blocks(void);
int puckd_tls_memory_block_bytes(void);
#endif
