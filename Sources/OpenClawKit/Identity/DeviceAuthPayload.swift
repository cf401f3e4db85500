/// The exact strings a device signs in `connect.params.device.signature` (protocol.md §3.3).
/// Every gateway generation verifies v2; v3 also binds the client's platform and device family.
public enum DeviceAuthPayload {
    /// `v2|deviceId|clientId|clientMode|role|scopesCSV|signedAtMs|token|nonce` (`token` nil → empty).
    public static func v2(
        deviceId: String, clientId: String, clientMode: String, role: String,
        scopes: [String], signedAtMs: Int64, token: String?, nonce: String
    ) -> String {
        [
            "v2", deviceId, clientId, clientMode, role, scopes.joined(separator: ","),
            String(signedAtMs), token ?? "", nonce,
        ].joined(separator: "|")
    }

    /// v2's fields plus `|platform|deviceFamily`, each trimmed and ASCII-lowercased (`A`–`Z` only).
    public static func v3(
        deviceId: String, clientId: String, clientMode: String, role: String,
        scopes: [String], signedAtMs: Int64, token: String?, nonce: String,
        platform: String?, deviceFamily: String?
    ) -> String {
        [
            "v3", deviceId, clientId, clientMode, role, scopes.joined(separator: ","),
            String(signedAtMs), token ?? "", nonce,
            normalizeMetadata(platform), normalizeMetadata(deviceFamily),
        ].joined(separator: "|")
    }

    /// Trims whitespace like JavaScript's `String.prototype.trim` and lowercases only ASCII letters,
    /// as the gateway's `normalizeDeviceMetadataForAuth` does.
    static func normalizeMetadata(_ value: String?) -> String {
        guard let value else { return "" }
        let scalars = Array(value.unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, isJavaScriptWhitespace(scalars[start]) { start += 1 }
        while end > start, isJavaScriptWhitespace(scalars[end - 1]) { end -= 1 }
        var out = String.UnicodeScalarView()
        for scalar in scalars[start..<end] {
            if scalar.value >= 0x41 && scalar.value <= 0x5A, let lower = Unicode.Scalar(scalar.value + 32) {
                out.append(lower)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// White space and line terminators as ECMAScript's `trim` removes them.
    private static func isJavaScriptWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A,
             0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }
}
