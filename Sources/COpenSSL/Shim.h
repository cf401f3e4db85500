// The OpenSSL API that openclaw uses, plus inline wrappers for the function-like
// macros Swift cannot call directly.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static inline long openclaw_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline long openclaw_BIO_get_mem_data(BIO *bio, char **data) {
    return BIO_get_mem_data(bio, data);
}

static inline long openclaw_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}

/// Lets SSL_write return after a partial write and be retried with a moved buffer (non-blocking sockets).
static inline void openclaw_SSL_enable_partial_writes(SSL *ssl) {
    SSL_set_mode(ssl, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// Treats a peer that closes TCP without close_notify as end of stream (OpenSSL 3), as WebSocket peers do.
static inline void openclaw_SSL_CTX_ignore_unexpected_eof(SSL_CTX *ctx) {
#ifdef SSL_OP_IGNORE_UNEXPECTED_EOF
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF);
#else
    (void)ctx;
#endif
}

/// The peer's leaf certificate with a reference the caller frees (SSL_get_peer_certificate became a macro in 3.0).
static inline X509 *openclaw_SSL_get1_peer_certificate(const SSL *ssl) {
#if OPENSSL_VERSION_NUMBER >= 0x30000000L
    return SSL_get1_peer_certificate(ssl);
#else
    return SSL_get_peer_certificate(ssl);
#endif
}

#endif
