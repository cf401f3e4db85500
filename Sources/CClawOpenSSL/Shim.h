// The OpenSSL API that openclaw uses, plus inline wrappers for the function-like
// macros Swift cannot call directly.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/conf.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <errno.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/socket.h>

/// Fills `buffer` from the kernel CSPRNG (getrandom(2)); 1 on success, 0 when the call is unavailable.
/// OpenSSL's RAND_bytes would first instantiate its DRBG (~3.4 M instructions per process).
static inline int openclaw_getrandom(void *buffer, size_t length) {
    unsigned char *p = (unsigned char *)buffer;
    while (length > 0) {
        ssize_t n = getrandom(p, length, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        p += n;
        length -= (size_t)n;
    }
    return 1;
}

/// For a short-lived command:
/// - no atexit cleanup (~1.3 M instructions at every exit; the kernel frees everything);
/// - no configuration file yet (~0.7 M: parsing openssl.cnf); TLS calls openclaw_openssl_load_config
///   before its first SSL_CTX, so the system's TLS policy still applies there;
/// - no legacy cipher/digest name tables (OpenSSL 3 copies every legacy name into its provider name
///   map on the first fetch). Algorithms are fetched from the providers by their own names, but
///   certificate verification still looks each signature's digest up in that table by NID (its
///   security-level check), so TLS adds the digests it needs first (openclaw_openssl_add_signature_digests).
/// Call before any other OpenSSL function.
static inline void openclaw_openssl_init_short_lived(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_NO_LOAD_CONFIG
        | OPENSSL_INIT_NO_ADD_ALL_CIPHERS | OPENSSL_INIT_NO_ADD_ALL_DIGESTS, NULL);
}

/// No error strings (~0.9 M instructions: the first use of the error queue loads every library's
/// reason table). Only for a process that opens no TLS connection, where OpenSSL serves just the
/// device key and openclaw words those failures itself. Call before any OpenSSL call that can queue an error.
static inline void openclaw_openssl_skip_error_strings(void) {
    OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS, NULL);
}

/// What OpenSSL's default initialisation does with the configuration file (OPENSSL_config(NULL)'s flags).
static inline void openclaw_openssl_load_config(void) {
    CONF_modules_load_file(NULL, NULL,
        CONF_MFLAGS_DEFAULT_SECTION | CONF_MFLAGS_IGNORE_MISSING_FILE | CONF_MFLAGS_IGNORE_RETURN_CODES);
}

/// The digests a certificate's signature can name, put back into the legacy table the short-lived
/// start-up left empty: without them every CA signature reads as "CA signature digest algorithm too
/// weak" (a self-signed leaf hides it: a trust anchor's own signature is never checked). Idempotent.
static inline void openclaw_openssl_add_signature_digests(void) {
    const EVP_MD *digests[] = {
        EVP_md5(), EVP_sha1(), EVP_sha224(), EVP_sha256(), EVP_sha384(), EVP_sha512(),
        EVP_sha512_224(), EVP_sha512_256(), EVP_sha3_224(), EVP_sha3_256(), EVP_sha3_384(), EVP_sha3_512(),
    };
    for (size_t i = 0; i < sizeof digests / sizeof digests[0]; i++) {
        if (digests[i] != NULL) EVP_add_digest(digests[i]);
    }
}

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

/// The chain the peer sent (leaf first); the stack's macros are not visible to Swift.
static inline int openclaw_peer_chain_count(const SSL *ssl) {
    STACK_OF(X509) *chain = SSL_get_peer_cert_chain(ssl);
    return chain == NULL ? 0 : sk_X509_num(chain);
}

static inline X509 *openclaw_peer_chain_at(const SSL *ssl, int index) {
    return sk_X509_value(SSL_get_peer_cert_chain(ssl), index);
}

/// Whether a packed error code says the peer's first bytes were not TLS: plaintext such as an HTTP
/// answer (read as a wrong version number or a record length no TLS peer sends), or the end of the stream.
static inline int openclaw_ssl_error_means_not_tls(unsigned long code) {
    if (ERR_GET_LIB(code) != ERR_LIB_SSL) return 0;
    switch (ERR_GET_REASON(code)) {
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
#ifdef SSL_R_UNEXPECTED_EOF_WHILE_READING
    case SSL_R_UNEXPECTED_EOF_WHILE_READING:
#endif
        return 1;
    default:
        return 0;
    }
}

// A socket BIO that sends with MSG_NOSIGNAL: OpenSSL's own socket BIO uses write(2), which raises
// SIGPIPE (killing the process) when the peer has gone. The descriptor is kept in the BIO's data pointer.
static int openclaw_nosigpipe_write(BIO *bio, const char *data, int length) {
    int fd = (int)(intptr_t)BIO_get_data(bio);
    ssize_t n;
    BIO_clear_retry_flags(bio);
    do { n = send(fd, data, (size_t)length, MSG_NOSIGNAL); } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) BIO_set_retry_write(bio);
    return (int)n;
}

static int openclaw_nosigpipe_read(BIO *bio, char *data, int length) {
    int fd = (int)(intptr_t)BIO_get_data(bio);
    ssize_t n;
    BIO_clear_retry_flags(bio);
    do { n = recv(fd, data, (size_t)length, 0); } while (n < 0 && errno == EINTR);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) BIO_set_retry_read(bio);
    return (int)n;
}

static long openclaw_nosigpipe_ctrl(BIO *bio, int command, long number, void *pointer) {
    (void)bio; (void)number; (void)pointer;
    return command == BIO_CTRL_FLUSH ? 1 : 0;
}

static int openclaw_nosigpipe_create(BIO *bio) {
    BIO_set_init(bio, 1);
    return 1;
}

/// The method table; create it once and keep it for the life of the process.
static inline BIO_METHOD *openclaw_nosigpipe_method_new(void) {
    BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "openclaw socket");
    if (method == NULL) return NULL;
    BIO_meth_set_write(method, openclaw_nosigpipe_write);
    BIO_meth_set_read(method, openclaw_nosigpipe_read);
    BIO_meth_set_ctrl(method, openclaw_nosigpipe_ctrl);
    BIO_meth_set_create(method, openclaw_nosigpipe_create);
    return method;
}

/// Attaches a MSG_NOSIGNAL socket BIO for `fd` to `ssl` (which takes ownership); 0 on failure.
static inline int openclaw_SSL_set_nosigpipe_fd(SSL *ssl, BIO_METHOD *method, int fd) {
    BIO *bio = BIO_new(method);
    if (bio == NULL) return 0;
    BIO_set_data(bio, (void *)(intptr_t)fd);
    SSL_set_bio(ssl, bio, bio);
    return 1;
}

#endif
