import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

extension MethodRouter {
    /// `agent`: an `accepted` ack now, the run's events, then a second `res` with the same id and the
    /// final payload (`AgentFinalResponse`). A `timeout` (seconds, 0 = none) ends a longer run as an
    /// abort with stopReason `timeout`. The same key again answers `in_flight` while it runs, and the
    /// final payload once it has settled.
    func agent(_ id: String, _ params: JSONValue) -> Reply {
        if let bad = invalidParams(id, GatewayMethod.agent, GatewaySchemas.agent, params) { return Reply(frame: bad) }
        let sessionKey = params[ChatField.sessionKey]?.stringValue ?? "main"
        let message = params["message"]?.stringValue ?? ""
        let key = params["idempotencyKey"]?.stringValue ?? ""
        if case .unknown = gateway.runs.lookup(key), let limited = rateLimited(id, GatewayMethod.agent) {
            return Reply(frame: limited)
        }
        if case .done(let outcome) = gateway.runs.lookup(key) {
            if let settled = gateway.agentResults.payload(key) { return Reply(frame: FrameEncoder.success(id: id, payload: settled)) }
            switch outcome {
            case .ok: return Reply(frame: FrameEncoder.success(id: id, payload: [ChatField.runId: .string(key), "status": .string(ChatSendStatus.ok.rawValue)]))
            case .error(let summary):
                return Reply(frame: FrameEncoder.failure(id: id, error: ErrorShape(code: "UNAVAILABLE", message: summary),
                                                         payload: [ChatField.runId: .string(key), "status": .string(ChatSendStatus.error.rawValue), "summary": .string(summary)]))
            }
        }
        guard let run = gateway.runs.start(runId: key, sessionKey: sessionKey) else {
            return Reply(frame: FrameEncoder.success(id: id, payload: [ChatField.runId: .string(key), "status": .string(ChatSendStatus.inFlight.rawValue)]))
        }
        let acceptedAt = WallClock.milliseconds()
        let send = sendLater
        let gateway = self.gateway
        run.lock.withLock {
            run.onFinish = { ending, text in
                let payload = AgentFinalResponse.payload(runId: key, ending: ending, text: text,
                                                         durationMs: WallClock.milliseconds() - acceptedAt,
                                                         sessionId: gateway.history.sessionId(run.sessionKey))
                gateway.agentResults.store(key, payload)
                send(FrameEncoder.success(id: id, payload: payload))
            }
        }
        if let seconds = params["timeout"]?.intValue, seconds > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds)) {
                _ = ScriptedAgent(gateway: gateway).abort(run, stopReason: "timeout")
            }
        }
        return Reply(frame: FrameEncoder.success(id: id, payload: [ChatField.runId: .string(key), "status": "accepted",
                                                                   "acceptedAt": JSONValue(acceptedAt)]),
                     then: runStarter(run, message: message, at: acceptedAt))
    }
}
