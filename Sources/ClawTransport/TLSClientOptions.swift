import ClawCrypto
/// How a `wss://` client checks the server.
public struct TLSClientOptions: Sendable {
    /// Sent as SNI and checked against the certificate (unless pinned).
    public var serverName: String
    /// An extra PEM CA bundle, trusted in addition to the system store.
    public var caBundlePath: String?
    /// SHA-256 of the leaf certificate (DER). When set, a matching certificate is accepted
    /// even if self-signed, and a different one is refused.
    public var pinnedSHA256: [UInt8]?

    public init(serverName: String, caBundlePath: String? = nil, pinnedSHA256: [UInt8]? = nil) {
        self.serverName = serverName
        self.caBundlePath = caBundlePath
        self.pinnedSHA256 = pinnedSHA256
    }
}

/// Certificate fingerprints in the usual `AA:BB:…` form (fingerprints are public, safe to print).
public enum TLSFingerprint {
    public static func format(_ bytes: [UInt8]) -> String {
        var out = ""
        for (i, pair) in Hex.encode(bytes).uppercased().utf8.chunked2().enumerated() {
            if i > 0 { out += ":" }
            out += pair
        }
        return out
    }

    /// Parses hex with or without colons (`AA:BB…`, `aabb…`, optional `sha256:` prefix); `nil` unless 32 bytes.
    public static func parseSHA256(_ text: String) -> [UInt8]? {
        var body = Substring(text)
        if body.lowercased().hasPrefix("sha256:") { body = body.dropFirst(7) }
        guard let bytes = Hex.decode(String(body)), bytes.count == 32 else { return nil }
        return bytes
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
