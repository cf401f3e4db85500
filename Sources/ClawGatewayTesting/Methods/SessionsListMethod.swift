@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

extension MethodRouter {
    /// `sessions.list`: the sessions newest first, filtered (`agentId`, `search` in the key,
    /// `activeMinutes`, `label`, `spawnedBy`, `archived`, `requireLastInteraction`), then one page of
    /// `limit` from `offset` (all of them without a limit) with `totalCount`, `limitApplied` (null
    /// without a limit), `hasMore` and `nextOffset` (null on the last page).
    func sessionsList(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, GatewayMethod.sessionsList, GatewaySchemas.sessionsList, params) { return bad }
        let now = WallClock.milliseconds()
        let agentId = params["agentId"]?.stringValue?.trimmingASCIIWhitespace.lowercased()
        let search = (params["search"]?.stringValue ?? "").trimmingASCIIWhitespace.lowercased()
        let activeSince = params["activeMinutes"]?.int64Value.map { now - $0 * 60_000 }
        // No simulated session has a label, a parent or an archive flag, so those filters match none.
        let impossible = params["label"] != nil || params["spawnedBy"] != nil || params["creatorId"] != nil
            || params["archived"]?.boolValue == true
        let requireInteraction = params["requireLastInteraction"]?.boolValue == true
        let matches = impossible ? [] : gateway.history.allSessions().filter { key, session in
            if let agentId, Self.agentId(ofSessionKey: key) != agentId { return false }
            if !search.isEmpty && !key.lowercased().contains(search) { return false }
            if let activeSince, session.updatedAt < activeSince { return false }
            if requireInteraction && session.messages.isEmpty { return false }
            return true
        }
        let total = matches.count
        let offset = min(total, params["offset"]?.intValue ?? 0)
        let limit = params["limit"]?.intValue
        let end = limit.map { min(total, offset + $0) } ?? total
        var rows: [JSONValue] = []
        for (key, session) in matches[offset..<end] {
            var row: JSONObject = ["key": .string(key), "kind": "direct", "updatedAt": JSONValue(session.updatedAt),
                                   "sessionId": .string(session.sessionId)]
            if let agent = Self.agentId(ofSessionKey: key) { row["agentId"] = .string(agent) }
            if params["includeLastMessage"]?.boolValue == true {
                row["lastMessagePreview"] = .string(String(session.lastText.prefix(200)))
            }
            rows.append(.object(row))
        }
        return FrameEncoder.success(id: id, payload: [
            "ts": JSONValue(now), "path": .string(Gateway.sessionsPath), "count": JSONValue(rows.count),
            "totalCount": JSONValue(total), "limitApplied": limit.map { JSONValue($0) } ?? .null,
            "hasMore": .bool(end < total), "nextOffset": end < total ? JSONValue(end) : .null,
            "defaults": ["modelProvider": "openclaw-sim", "model": "sim-1", "contextTokens": 200000],
            "sessions": .array(rows),
        ])
    }
}
