@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

extension MethodRouter {
    /// `wake {mode, text, sessionKey?, agentId?}` (what `openclaw system event` sends): the official
    /// handler's checks, then the cron service's answer: `{ok:false}` for a blank text, else `{ok:true}`.
    /// The simulator has no heartbeat to wake; the file log records the wake instead.
    func wake(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, GatewayMethod.wake, GatewaySchemas.wake, params) { return bad }
        let mode = params["mode"]?.stringValue ?? ""
        let text = (params["text"]?.stringValue ?? "").trimmingASCIIWhitespace
        let sessionKey = params["sessionKey"]?.stringValue?.trimmingASCIIWhitespace ?? ""
        let agentId = params["agentId"]?.stringValue?.trimmingASCIIWhitespace ?? ""
        // Subagent sessions are internal task targets; operators may not wake them.
        if Self.isSubagentSessionKey(sessionKey) {
            return FrameEncoder.failure(id: id, error: .invalidRequest("wake sessionKey cannot target a subagent session"))
        }
        if !agentId.isEmpty, let owner = Self.agentId(ofSessionKey: sessionKey), owner != agentId.lowercased() {
            return FrameEncoder.failure(id: id, error: .invalidRequest(
                "wake agentId contradicts the agent that owns sessionKey; pass a single canonical wake target"))
        }
        guard !text.isEmpty else { return FrameEncoder.success(id: id, payload: ["ok": false]) }
        var line = "wake mode=\(mode)"
        if !sessionKey.isEmpty { line += " sessionKey=\(sessionKey)" }
        if !agentId.isEmpty { line += " agentId=\(agentId)" }
        gateway.fileLog.write(line + " text=\(text)", subsystem: "cron")
        return FrameEncoder.success(id: id, payload: ["ok": true])
    }

    /// `subagent:…`, or `agent:<id>:subagent:…` (src/sessions/session-key-utils.ts).
    static func isSubagentSessionKey(_ key: String) -> Bool {
        let lower = key.trimmingASCIIWhitespace.lowercased()
        if lower.hasPrefix("subagent:") { return true }
        let parts = lower.split(separator: ":")
        return parts.count >= 4 && parts[0] == "agent" && parts[2] == "subagent"
    }

    /// The agent of an `agent:<id>:<rest>` key, lowercased; nil for any other key.
    static func agentId(ofSessionKey key: String) -> String? {
        let parts = key.split(separator: ":")
        guard parts.count >= 3, parts[0] == "agent" else { return nil }
        return String(parts[1]).trimmingASCIIWhitespace.lowercased()
    }
}
