/// Removes secrets from frames before they are shown (`--trace`, `--raw`).
public enum Redaction {
    /// Member names whose string values are secrets wherever they appear.
    static let secretKeys: Set<String> = [
        "token", "password", "deviceToken", "bootstrapToken", "approvalRuntimeToken",
        "agentRuntimeIdentityToken", "privateKey", "privateKeyPem", "secret", "apiKey",
    ]

    public static let placeholder = "<redacted>"

    /// A copy of `value` with every secret string replaced by `<redacted>`.
    public static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object):
            for index in object.members.indices {
                let key = object.members[index].key
                if isSecretKey(key), case .string = object.members[index].value {
                    object.members[index].value = .string(placeholder)
                } else {
                    object.members[index].value = redact(object.members[index].value)
                }
            }
            return .object(object)
        case .array(let items):
            return .array(items.map(redact))
        default:
            return value
        }
    }

    /// True when the frame contains anything `redact` would change (so raw bytes can be printed otherwise).
    public static func containsSecret(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object):
            return object.members.contains { member in
                if isSecretKey(member.key), case .string = member.value { return true }
                return containsSecret(member.value)
            }
        case .array(let items):
            return items.contains(where: containsSecret)
        default:
            return false
        }
    }

    /// ASCII case folding only, so a byte scan (`SecretFilter`) can find every such key.
    /// Every name in `secretKeys` also matches one of these rules; the check runs on the UTF-8 bytes
    /// (the generic `String.contains` cost ~40,000 instructions per key, a handshake has hundreds).
    static func isSecretKey(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { bytes in
            endsWith(bytes, "token") || contains(bytes, "password") || contains(bytes, "secret")
                || contains(bytes, "privatekey") || endsWith(bytes, "apikey")
        }
    }

    /// Whether `bytes` ends with the lower-case ASCII `suffix`, ignoring ASCII case.
    private static func endsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return matches(bytes, at: bytes.count - count, suffix)
    }

    /// Whether `bytes` contains the lower-case ASCII `needle`, ignoring ASCII case.
    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        for start in 0...(bytes.count - count) where matches(bytes, at: start, needle) { return true }
        return false
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ needle: StaticString) -> Bool {
        let pointer = needle.utf8Start
        for i in 0..<needle.utf8CodeUnitCount {
            let c = bytes[start + i]
            let folded = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
            if folded != pointer[i] { return false }
        }
        return true
    }
}
