@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
import CClawOpenSSL

/// A certificate and key for the server side (the simulator's `--tls-cert`/`--tls-key`), shared by all connections.
@_spi(Engine) public final class TLSServerContext: @unchecked Sendable {
    let context: OpaquePointer

    @_spi(Engine) public init(certificatePath: String, keyPath: String) throws(TransportError) {
        OpenSSLRuntime.prepareForTLS()
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .tls("cannot create a TLS context: \(CryptoError.drainOpenSSLErrors())")
        }
        _ = openclaw_SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        openclaw_SSL_CTX_ignore_unexpected_eof(context)
        guard SSL_CTX_use_certificate_chain_file(context, certificatePath) == 1 else {
            SSL_CTX_free(context)
            throw .tls("cannot load the certificate \(certificatePath): \(CryptoError.drainOpenSSLErrors())")
        }
        guard SSL_CTX_use_PrivateKey_file(context, keyPath, SSL_FILETYPE_PEM) == 1 else {
            SSL_CTX_free(context)
            throw .tls("cannot load the private key \(keyPath): \(CryptoError.drainOpenSSLErrors())")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            SSL_CTX_free(context)
            throw .tls("the private key \(keyPath) does not match the certificate \(certificatePath)")
        }
        self.context = context
    }

    deinit { SSL_CTX_free(context) }
}
