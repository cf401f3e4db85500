@_spi(Engine) import ClawCrypto

/// An Ed25519 device identity for tests: id = hex SHA-256 of the raw public key (docs/protocol.md §3.3).
struct TestDevice: @unchecked Sendable {
    let key: Ed25519PrivateKey
    var id: String { Hex.encode(Digest.sha256(key.publicKey.rawRepresentation)) }
    var publicKeyBase64URL: String { Base64.encodeURL(key.publicKey.rawRepresentation) }

    init() throws { key = try Ed25519PrivateKey.generate() }

    func sign(_ payload: String) throws -> String {
        Base64.encodeURL(try key.signature(for: Array(payload.utf8)))
    }
}
