// OpenSSL (Debian: libssl-dev, 3.0 on Debian 12, 3.5 on Debian 13). Every call lives in Sources/TLS.
// Linked statically into the device binary (libssl.a, libcrypto.a: docs/uplink.md §10). The inline
// helpers stand for OpenSSL's function-like macros, which Swift does not import.
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <openssl/opensslv.h>

/// OPENSSL_init_ssl without reading openssl.cnf: a static binary must not dlopen the providers or
/// engines a system configuration may name (docs/uplink.md §10).
static inline int puckd_tls_init(void) {
    return OPENSSL_init_ssl(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
}

static inline int puckd_tls_set_minimum_tls12(SSL_CTX *ctx) { return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }

/// Partial writes allowed and the buffer may move between retries; buffers kept for the connection's
/// life (no SSL_MODE_RELEASE_BUFFERS), no read-ahead: no allocation per record (docs/uplink.md §10).
static inline void puckd_tls_set_modes(SSL_CTX *ctx) {
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_clear_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
    SSL_CTX_set_read_ahead(ctx, 0);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
}

static inline int puckd_tls_set_server_name(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }

static inline const char *puckd_tls_version_text(void) { return OpenSSL_version(OPENSSL_VERSION); }

static inline int puckd_tls_error_library(unsigned long e) { return ERR_GET_LIB(e); }
static inline int puckd_tls_error_reason(unsigned long e) { return ERR_GET_REASON(e); }
