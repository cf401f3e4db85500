@_spi(Engine) import ClawJSON

/// The payload of the `agent` method's second `res`, as the official gateway builds it when a run
/// settles (src/gateway/server-methods/agent-run-dispatch.ts): always `ok:true`, with `status`
/// `ok`/`error`/`timeout`, `summary` `completed`/`failed`/`aborted`, `stopReason` unless it went well,
/// and the runner's `result {payloads, meta}`. An aborted run (chat.abort, a stop command, the
/// `timeout` param) reports `timeout`/`aborted`, as the gateway does.
enum AgentFinalResponse {
    static func payload(runId: String, ending: RunEnding, text: String, durationMs: Int64, sessionId: String?) -> JSONValue {
        let (status, summary, stopReason): (String, String, String)
        switch ending {
        case .completed: (status, summary, stopReason) = ("ok", "completed", "stop")
        case .failed: (status, summary, stopReason) = ("error", "failed", "error")
        case .aborted(let reason): (status, summary, stopReason) = ("timeout", "aborted", reason)
        }
        var meta: JSONObject = ["durationMs": JSONValue(max(0, durationMs))]
        if case .aborted = ending { meta["aborted"] = true }
        meta["stopReason"] = .string(stopReason)
        var agentMeta: JSONObject = [:]
        if let sessionId { agentMeta["sessionId"] = .string(sessionId) }
        agentMeta["provider"] = "openclaw-sim"
        agentMeta["model"] = "sim-1"
        meta["agentMeta"] = .object(agentMeta)
        // The text the run produced, whole or partial; none at all gives no payload.
        let payloads: [JSONValue] = text.isEmpty ? [] : [["text": .string(text), "mediaUrl": .null]]
        var payload: JSONObject = ["runId": .string(runId), "status": .string(status), "summary": .string(summary)]
        if status != "ok" { payload["stopReason"] = .string(stopReason) }
        payload["result"] = ["payloads": .array(payloads), "meta": .object(meta)]
        return .object(payload)
    }
}
