@_spi(Engine) import ClawSystem
/// The exact strings a device signs in `connect.params.device.signature` (docs/protocol.md §3.3).
/// Every gateway generation verifies v2; v3 also binds the client's platform and device family.
@_spi(Engine) public enum DeviceAuthPayload {
    /// `v2|deviceId|clientId|clientMode|role|scopesCSV|signedAtMs|token|nonce` (`token` nil → empty).
    @_spi(Engine) public static func v2(
        deviceId: String, clientId: String, clientMode: String, role: String,
        scopes: [String], signedAtMs: Int64, token: String?, nonce: String
    ) -> String {
        StringJoin.join([
            "v2", deviceId, clientId, clientMode, role, StringJoin.join(scopes, separator: ","),
            String(signedAtMs), token ?? "", nonce,
        ], separator: "|")
    }

    /// v2's fields plus `|platform|deviceFamily`, each trimmed and ASCII-lowercased (`A`–`Z` only).
    @_spi(Engine) public static func v3(
        deviceId: String, clientId: String, clientMode: String, role: String,
        scopes: [String], signedAtMs: Int64, token: String?, nonce: String,
        platform: String?, deviceFamily: String?
    ) -> String {
        StringJoin.join([
            "v3", deviceId, clientId, clientMode, role, StringJoin.join(scopes, separator: ","),
            String(signedAtMs), token ?? "", nonce,
            normalizeMetadata(platform), normalizeMetadata(deviceFamily),
        ], separator: "|")
    }

    /// Trims whitespace like JavaScript's `String.prototype.trim` and lowercases only ASCII letters,
    /// as the gateway's `normalizeDeviceMetadataForAuth` does.
    static func normalizeMetadata(_ value: String?) -> String {
        guard let value else { return "" }
        var out = String.UnicodeScalarView()
        for scalar in TextTrim.trimmed(value).unicodeScalars {
            if scalar.value >= 0x41 && scalar.value <= 0x5A, let lower = Unicode.Scalar(scalar.value + 32) {
                out.append(lower)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}
