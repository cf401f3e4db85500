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
    static func isSecretKey(_ key: String) -> Bool {
        if secretKeys.contains(key) { return true }
        let lower = String(decoding: key.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        return lower.hasSuffix("token") || lower.contains("password") || lower.contains("secret")
            || lower.contains("privatekey") || lower.hasSuffix("apikey")
    }
}
