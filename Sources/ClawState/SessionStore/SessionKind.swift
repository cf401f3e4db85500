@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// `classifySessionKind` (openclaw/openclaw `src/sessions/classify-session-kind.ts` @46667e02): the
/// sentinel keys first, then the cron key shape, then a spawned child (its entry names `spawnedBy`),
/// then a group or channel chat (by `chatType` or the key), else a direct chat.
@_spi(Engine) public enum SessionKind: String, Sendable, CaseIterable {
    case cron, direct, group, global, spawnChild = "spawn-child", unknown

    @_spi(Engine) public static func classify(key: String, entry: JSONObject) -> SessionKind {
        if key == "global" { return .global }
        if key == "unknown" { return .unknown }
        if let parsed = AgentSessionKey.parse(key), parsed.rest.hasPrefix("cron:") { return .cron }
        if let spawnedBy = entry["spawnedBy"], Self.isTruthy(spawnedBy) { return .spawnChild }
        let chatType = entry["chatType"]?.stringValue
        if chatType == "group" || chatType == "channel" { return .group }
        if key.containsText(":group:") || key.containsText(":channel:") { return .group }
        return .direct
    }

    /// JavaScript truthiness of a JSON value.
    @_spi(Engine) public static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let text): return (Double(text) ?? 0) != 0
        case .string(let text): return !text.isEmpty
        case .array, .object: return true
        }
    }
}
