@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawState

/// Checks a connect's `device` block like the real server (§3.3): id, clock skew, nonce, then the
/// v3 and v2 signature payloads, in that order.
struct DeviceProofVerifier {
    struct Failure: Error, Equatable {
        var reason: String
        var message: String
        var detailCode: String
    }

    var protocolVersion: Int
    /// The challenge nonce sent on this socket.
    var challengeNonce: String
    var nowMs: Int64

    var skewMs: Int64 { protocolVersion == 3 ? 10 * 60_000 : 2 * 60_000 }

    static let idMismatch = Failure(reason: "device-id-mismatch", message: "device identity mismatch", detailCode: "DEVICE_AUTH_DEVICE_ID_MISMATCH")
    static let stale = Failure(reason: "device-signature-stale", message: "device signature expired", detailCode: "DEVICE_AUTH_SIGNATURE_EXPIRED")
    static let nonceMissing = Failure(reason: "device-nonce-missing", message: "device nonce required", detailCode: "DEVICE_AUTH_NONCE_REQUIRED")
    static let nonceMismatch = Failure(reason: "device-nonce-mismatch", message: "device nonce mismatch", detailCode: "DEVICE_AUTH_NONCE_MISMATCH")
    static let signatureInvalid = Failure(reason: "device-signature", message: "device signature invalid", detailCode: "DEVICE_AUTH_SIGNATURE_INVALID")
    static let publicKeyInvalid = Failure(reason: "device-public-key", message: "device public key invalid", detailCode: "DEVICE_AUTH_PUBLIC_KEY_INVALID")

    /// Verifies `device` for the given connect; returns the normalised base64url public key or the failure.
    func verify(device: JSONObject, params: JSONObject, role: String, scopes: [String]) -> Result<String, Failure> {
        let deviceId = device["id"]?.stringValue ?? ""
        let publicKeyText = device["publicKey"]?.stringValue ?? ""
        guard let publicKey = Self.publicKey(from: publicKeyText),
              Hex.encode(Digest.sha256(publicKey.rawRepresentation)) == deviceId
        else { return .failure(Self.idMismatch) }
        guard let signedAt = device["signedAt"]?.int64Value, abs(nowMs - signedAt) <= skewMs else {
            return .failure(Self.stale)
        }
        let nonce = (device["nonce"]?.stringValue ?? "").trimmingASCIIWhitespace
        if nonce.isEmpty { return .failure(Self.nonceMissing) }
        if nonce != challengeNonce { return .failure(Self.nonceMismatch) }
        guard let signature = Base64.decode(device["signature"]?.stringValue ?? "") else {
            return .failure(Self.signatureInvalid)
        }
        let client = params["client"]?.objectValue ?? JSONObject()
        let auth = params["auth"]?.objectValue ?? JSONObject()
        let token = auth["token"]?.stringValue ?? auth["deviceToken"]?.stringValue ?? auth["bootstrapToken"]?.stringValue ?? ""
        let clientId = client["id"]?.stringValue ?? "", clientMode = client["mode"]?.stringValue ?? ""
        let v3 = DeviceAuthPayload.v3(
            deviceId: deviceId, clientId: clientId, clientMode: clientMode, role: role, scopes: scopes,
            signedAtMs: signedAt, token: token, nonce: nonce,
            platform: client["platform"]?.stringValue, deviceFamily: client["deviceFamily"]?.stringValue)
        let v2 = DeviceAuthPayload.v2(
            deviceId: deviceId, clientId: clientId, clientMode: clientMode, role: role, scopes: scopes,
            signedAtMs: signedAt, token: token, nonce: nonce)
        let accepted = publicKey.isValidSignature(signature, for: Array(v3.utf8))
            || publicKey.isValidSignature(signature, for: Array(v2.utf8))
        guard accepted else { return .failure(Self.signatureInvalid) }
        return .success(Base64.encodeURL(publicKey.rawRepresentation))
    }

    /// base64url (or base64) of the raw 32 bytes, or an SPKI PEM.
    static func publicKey(from text: String) -> Ed25519PublicKey? {
        if text.contains("-----BEGIN") { return try? Ed25519PublicKey(pem: text) }
        guard let raw = Base64.decode(text), raw.count == 32 else { return nil }
        return try? Ed25519PublicKey(rawRepresentation: raw)
    }
}

extension String {
    var trimmingASCIIWhitespace: String {
        let bytes = Array(utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 32 || ($0 >= 9 && $0 <= 13) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
