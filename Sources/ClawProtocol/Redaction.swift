@_spi(Engine) import ClawJSON
/// Removes secrets from frames before they are shown (`--trace`, `--raw`): every string under a member
/// name `SecretKeyName` accepts.
@_spi(Engine) public enum Redaction {
    @_spi(Engine) public static let placeholder = "<redacted>"

    /// A copy of `value` with every secret string replaced by `<redacted>`.
    @_spi(Engine) public static func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var object):
            for index in object.members.indices {
                let key = object.members[index].key
                if SecretKeyName.matches(key), case .string = object.members[index].value {
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
    @_spi(Engine) public static func containsSecret(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let object):
            return object.members.contains { member in
                if SecretKeyName.matches(member.key), case .string = member.value { return true }
                return containsSecret(member.value)
            }
        case .array(let items):
            return items.contains(where: containsSecret)
        default:
            return false
        }
    }
}
