import CClawOpenSSL

/// An Ed25519 private key held by OpenSSL, with the operations device identity needs.
@_spi(Engine) public final class Ed25519PrivateKey: @unchecked Sendable {
    // Immutable after init; OpenSSL keys may be used from several threads for signing.
    fileprivate let pkey: OpaquePointer

    private init(pkey: OpaquePointer) { self.pkey = pkey }
    deinit { EVP_PKEY_free(pkey) }

    /// A fresh key from OpenSSL's CSPRNG.
    @_spi(Engine) public static func generate() throws(CryptoError) -> Ed25519PrivateKey {
        guard let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw CryptoError("Ed25519 key generation") }
        defer { EVP_PKEY_CTX_free(ctx) }
        var key: OpaquePointer? = nil
        guard EVP_PKEY_keygen_init(ctx) == 1, EVP_PKEY_keygen(ctx, &key) == 1, let key else {
            throw CryptoError("Ed25519 key generation")
        }
        return Ed25519PrivateKey(pkey: key)
    }

    /// From the raw 32-byte seed (the Apple apps' storage format).
    @_spi(Engine) public init(rawRepresentation raw: [UInt8]) throws(CryptoError) {
        guard raw.count == 32, let key = EVP_PKEY_new_raw_private_key_ex(nil, "ED25519", nil, raw, raw.count) else {
            throw CryptoError("Ed25519 private key import")
        }
        pkey = key
    }

    /// From a PKCS#8 `-----BEGIN PRIVATE KEY-----` PEM (the official `device.json` format).
    /// The usual fixed layout is read by `Ed25519PEM` and imported raw; anything else goes through
    /// OpenSSL's generic decoder, which is ~50x slower.
    @_spi(Engine) public convenience init(pem: String) throws(CryptoError) {
        if let raw = Ed25519PEM.rawPrivateKey(pem: pem) {
            try self.init(rawRepresentation: raw)
        } else {
            try self.init(genericPEM: pem)
        }
    }

    /// From any PEM private key OpenSSL reads, provided it is Ed25519.
    init(genericPEM pem: String) throws(CryptoError) {
        let bytes = Array(pem.utf8)
        let loaded: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let loaded else { throw CryptoError("reading the private key PEM") }
        guard EVP_PKEY_get_id(loaded) == EVP_PKEY_ED25519 else {
            EVP_PKEY_free(loaded)
            throw CryptoError("reading the private key PEM (not an Ed25519 key)")
        }
        pkey = loaded
    }

    @_spi(Engine) public var rawRepresentation: [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length = 32
        precondition(EVP_PKEY_get_raw_private_key(pkey, &out, &length) == 1 && length == 32)
        return out
    }

    @_spi(Engine) public var publicKey: Ed25519PublicKey {
        var out = [UInt8](repeating: 0, count: 32)
        var length = 32
        precondition(EVP_PKEY_get_raw_public_key(pkey, &out, &length) == 1 && length == 32)
        // The raw public key of a valid private key always imports.
        return try! Ed25519PublicKey(rawRepresentation: out)
    }

    /// PKCS#8 PEM, as Node's `crypto.generateKeyPairSync("ed25519")` writes it.
    @_spi(Engine) public var pem: String {
        withMemoryBIO { PEM_write_bio_PrivateKey($0, pkey, nil, nil, 0, nil, nil) }
    }

    /// The 64-byte Ed25519 signature of `message`.
    @_spi(Engine) public func signature(for message: some Collection<UInt8>) throws(CryptoError) -> [UInt8] {
        guard let ctx = EVP_MD_CTX_new() else { throw CryptoError("Ed25519 signing") }
        defer { EVP_MD_CTX_free(ctx) }
        let input = Array(message)
        var signature = [UInt8](repeating: 0, count: 64)
        var length = 64
        guard EVP_DigestSignInit(ctx, nil, nil, nil, pkey) == 1,
              EVP_DigestSign(ctx, &signature, &length, input, input.count) == 1, length == 64
        else { throw CryptoError("Ed25519 signing") }
        return signature
    }
}

/// An Ed25519 public key.
@_spi(Engine) public final class Ed25519PublicKey: @unchecked Sendable {
    fileprivate let pkey: OpaquePointer
    @_spi(Engine) public let rawRepresentation: [UInt8]

    @_spi(Engine) public init(rawRepresentation raw: [UInt8]) throws(CryptoError) {
        guard raw.count == 32, let key = EVP_PKEY_new_raw_public_key_ex(nil, "ED25519", nil, raw, raw.count) else {
            throw CryptoError("Ed25519 public key import")
        }
        pkey = key
        rawRepresentation = raw
    }

    /// From an SPKI `-----BEGIN PUBLIC KEY-----` PEM: the fixed Ed25519 layout directly, anything else
    /// through OpenSSL's generic decoder.
    @_spi(Engine) public convenience init(pem: String) throws(CryptoError) {
        if let raw = Ed25519PEM.rawPublicKey(pem: pem) {
            try self.init(rawRepresentation: raw)
        } else {
            try self.init(genericPEM: pem)
        }
    }

    /// From any PEM public key OpenSSL reads, provided it is Ed25519.
    convenience init(genericPEM pem: String) throws(CryptoError) {
        let bytes = Array(pem.utf8)
        let loaded: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
        }
        guard let loaded else { throw CryptoError("reading the public key PEM") }
        defer { EVP_PKEY_free(loaded) }
        var raw = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_get_id(loaded) == EVP_PKEY_ED25519,
              EVP_PKEY_get_raw_public_key(loaded, &raw, &length) == 1, length == 32
        else { throw CryptoError("reading the public key PEM (not an Ed25519 key)") }
        try self.init(rawRepresentation: raw)
    }

    deinit { EVP_PKEY_free(pkey) }

    /// SPKI PEM, as Node's `publicKey.export({type:"spki",format:"pem"})` writes it.
    @_spi(Engine) public var pem: String {
        withMemoryBIO { PEM_write_bio_PUBKEY($0, pkey) }
    }

    @_spi(Engine) public func isValidSignature(_ signature: [UInt8], for message: some Collection<UInt8>) -> Bool {
        guard signature.count == 64, let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        let input = Array(message)
        guard EVP_DigestVerifyInit(ctx, nil, nil, nil, pkey) == 1 else { return false }
        let ok = EVP_DigestVerify(ctx, signature, signature.count, input, input.count) == 1
        _ = CryptoError.drainOpenSSLErrors()
        return ok
    }
}

/// Runs a PEM writer against a memory BIO and returns what it wrote.
private func withMemoryBIO(_ write: (OpaquePointer) -> Int32) -> String {
    guard let bio = BIO_new(BIO_s_mem()) else { preconditionFailure("BIO_new failed") }
    defer { BIO_free(bio) }
    precondition(write(bio) == 1, "PEM write failed")
    var data: UnsafeMutablePointer<CChar>? = nil
    let length = openclaw_BIO_get_mem_data(bio, &data)
    guard let data, length > 0 else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
}
