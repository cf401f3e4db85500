import CClawOpenSSL

/// Process-wide OpenSSL start-up for short-lived commands.
@_spi(Engine) public enum OpenSSLRuntime {
    /// Set once by `prepareForShortLivedProcess`, before any thread or OpenSSL call exists.
    nonisolated(unsafe) private static var configDeferred = false

    /// Skips OpenSSL's atexit cleanup, defers reading openssl.cnf and the legacy digest names until TLS
    /// needs them (see the shim): a third of an authenticated one-shot command's cost (bench/README.md). Must run before any other OpenSSL call (the first line of `main`). Libraries and tests
    /// that do not call it keep OpenSSL's defaults.
    @_spi(Engine) public static func prepareForShortLivedProcess() {
        configDeferred = true
        openclaw_openssl_init_short_lived()
    }

    /// For a short-lived process that will open no TLS connection (a ws:// gateway): OpenSSL's error
    /// strings are never loaded (see the shim). Before the first use of a key.
    @_spi(Engine) public static func skipErrorStringsWithoutTLS() {
        if configDeferred { openclaw_openssl_skip_error_strings() }
    }

    private static let tlsPrepared: Void = {
        if configDeferred {
            openclaw_openssl_load_config()
            openclaw_openssl_add_signature_digests()
        }
    }()

    /// What start-up deferred and TLS needs: the system OpenSSL configuration (TLS policy) and the
    /// digests certificate verification looks up by NID; once per process. Called before every SSL_CTX is made.
    @_spi(Engine) public static func prepareForTLS() { tlsPrepared }
}
