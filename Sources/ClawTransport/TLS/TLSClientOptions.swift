@_spi(Engine) import ClawCrypto
import CClawOpenSSL
/// How a `wss://` client checks the server.
@_spi(Engine) public struct TLSClientOptions: Sendable {
    /// Sent as SNI and checked against the certificate (unless pinned).
    @_spi(Engine) public var serverName: String
    /// An extra PEM CA bundle, trusted in addition to `trust` (`--cacert`); it must load.
    @_spi(Engine) public var caBundlePath: String?
    /// Where the trusted CAs come from; `nil` is the system's store as the process environment
    /// describes it (`CertificateTrust.system`).
    @_spi(Engine) public var trust: CertificateTrust?
    /// SHA-256 of the leaf certificate (DER). When set, a matching certificate is accepted
    /// even if self-signed, and a different one is refused.
    @_spi(Engine) public var pinnedSHA256: [UInt8]?

    @_spi(Engine) public init(serverName: String, caBundlePath: String? = nil, trust: CertificateTrust? = nil, pinnedSHA256: [UInt8]? = nil) {
        self.serverName = serverName
        self.caBundlePath = caBundlePath
        self.trust = trust
        self.pinnedSHA256 = pinnedSHA256
    }
}

/// Certificate fingerprints in the usual `AA:BB:…` form (fingerprints are public, safe to print).
@_spi(Engine) public enum TLSFingerprint {
    @_spi(Engine) public static func format(_ bytes: [UInt8]) -> String {
        var out = ""
        for (i, pair) in Hex.encode(bytes).uppercased().utf8.chunked2().enumerated() {
            if i > 0 { out += ":" }
            out += pair
        }
        return out
    }

    /// The official format: an optional `sha256:` prefix (any case), then 64 hex digits or 32
    /// colon-separated pairs; `nil` for anything else.
    @_spi(Engine) public static func parseSHA256(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.lowercased().hasPrefix("sha256:") { body = body.dropFirst(7) }
        let isHex = { (c: Character) in c.isASCII && c.isHexDigit }
        if body.count == 64, body.allSatisfy(isHex) { return Hex.decode(String(body)) }
        let pairs = body.split(separator: ":", omittingEmptySubsequences: false)
        guard pairs.count == 32, pairs.allSatisfy({ $0.count == 2 && $0.allSatisfy(isHex) }) else { return nil }
        return Hex.decode(pairs.joined())
    }
}

private extension String.UTF8View {
    func chunked2() -> [String] {
        var result: [String] = []
        var current: [UInt8] = []
        for c in self {
            current.append(c)
            if current.count == 2 { result.append(String(decoding: current, as: UTF8.self)); current = [] }
        }
        return result
    }
}

extension TLSFingerprint {
    /// SHA-256 of the DER of the first certificate in a PEM file (a local gateway's own certificate,
    /// to pin it); nil when the file cannot be read or holds no certificate.
    @_spi(Engine) public static func sha256(ofCertificateFile path: String) -> [UInt8]? {
        guard let bio = BIO_new_file(path, "r") else { return nil }
        defer { BIO_free(bio) }
        guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else {
            _ = CryptoError.drainOpenSSLErrors()
            return nil
        }
        defer { X509_free(certificate) }
        return TLSStream.fingerprint(certificate)
    }
}

/// A header added to the WebSocket upgrade request (edge-auth headers for an identity-aware proxy).
/// The value is a credential: `description` never shows it.
@_spi(Engine) public struct UpgradeHeader: Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public let name: String
    @_spi(Engine) public let value: String

    @_spi(Engine) public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    @_spi(Engine) public var description: String { "\(name): <redacted>" }
}
