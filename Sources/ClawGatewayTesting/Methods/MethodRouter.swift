import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawProtocol

/// Answers requests after the handshake: frame shape, role, scopes, then the method (§2, §4, §6).
struct MethodRouter {
    let gateway: Gateway
    let client: AcceptedClient
    /// Queues a frame on this connection later (the `agent` method's final `res`).
    let sendLater: @Sendable ([UInt8]) -> Void

    var version: Int { gateway.options.protocolVersion }

    /// The answer to one message: its `res` frame, and what to do once that frame is queued
    /// (the `chat.send` ack precedes the run's events, the `chat.inject` answer its broadcast).
    struct Reply {
        /// `nil`: nothing is sent back (a message that is not JSON, which the real server only logs).
        var frame: [UInt8]?
        var then: (@Sendable () -> Void)? = nil
    }

    /// Every JSON message gets exactly one `res`, and a line in the file log; anything else gets silence.
    func handle(_ message: [UInt8]) -> Reply {
        guard let frame = try? JSONValue.parse(message) else { return Reply(frame: nil) }
        let started = WallClock.milliseconds()
        let reply = route(frame)
        gateway.fileLog.handled(method: frame["method"]?.stringValue ?? "", id: frame["id"]?.stringValue ?? "invalid",
                                frame: reply.frame, elapsedMs: WallClock.milliseconds() - started)
        return reply
    }

    private func route(_ frame: JSONValue) -> Reply {
        if let problem = GatewaySchemas.requestFrame(version).violation(of: frame, at: "") {
            let id = frame["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "invalid"
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("invalid request frame: \(problem)")))
        }
        let id = frame["id"]?.stringValue ?? "invalid"
        let method = frame["method"]?.stringValue ?? ""
        let params = frame["params"] ?? .object(JSONObject())

        if client.role != "operator" {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("unauthorized role: \(client.role)")))
        }
        if !(version >= 4 && method == GatewayMethod.health) {
            let required = GatewayVocabulary.requiredScope(for: method, version: version)
            if !GatewayVocabulary.scopes(client.scopes, satisfy: required) {
                return Reply(frame: FrameEncoder.failure(id: id, error: missingScope(required)))
            }
        }
        // Suspended or draining for a restart: refused before the method runs (health still answers).
        if let refusal = gateway.admission.requestRefusal(method: method) {
            return Reply(frame: FrameEncoder.failure(id: id, error: refusal))
        }
        switch method {
        case GatewayMethod.health: return Reply(frame: health(id, params))
        case GatewayMethod.devicePairApprove: return Reply(frame: devicePairDecision(id, params, approve: true))
        case GatewayMethod.devicePairReject: return Reply(frame: devicePairDecision(id, params, approve: false))
        case GatewayMethod.chatHistory: return Reply(frame: chatHistory(id, params))
        case GatewayMethod.chatSend: return chatSend(id, params)
        case GatewayMethod.chatAbort: return Reply(frame: chatAbort(id, params))
        case GatewayMethod.chatInject: return chatInject(id, params)
        case GatewayMethod.sessionsList: return Reply(frame: sessionsList(id, params))
        case GatewayMethod.agent: return agent(id, params)
        // As the official handler: no params are checked, the whole list is the answer.
        case GatewayMethod.systemPresence: return Reply(frame: FrameEncoder.success(id: id, payload: gateway.presenceList))
        case GatewayMethod.logsTail: return Reply(frame: logsTail(id, params))
        case GatewayMethod.wake: return Reply(frame: wake(id, params))
        case GatewayMethod.cronList: return Reply(frame: cronList(id, params))
        case GatewayMethod.cronRun: return cronRun(id, params)
        case GatewayMethod.cronRuns: return Reply(frame: cronRuns(id, params))
        case GatewayMethod.sessionsSubscribe where version >= 4: return sessionsSubscribe(id, on: true)
        case GatewayMethod.sessionsUnsubscribe where version >= 4: return sessionsSubscribe(id, on: false)
        case GatewayMethod.sessionsMessagesSubscribe where version >= 4: return sessionsMessagesSubscribe(id, params, on: true)
        case GatewayMethod.sessionsMessagesUnsubscribe where version >= 4: return sessionsMessagesSubscribe(id, params, on: false)
        default:
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("unknown method: \(method)")))
        }
    }

    private func missingScope(_ scope: String) -> ErrorShape {
        if version == 3 { return .invalidRequest("missing scope: \(scope)") }
        return ErrorShape(code: "FORBIDDEN", message: "missing scope: \(scope)",
                          details: ["code": "MISSING_SCOPE", "missingScope": .string(scope), "requiredScopes": JSONValue([scope])])
    }

    func invalidParams(_ id: String, _ method: String, _ schema: ObjectSchema, _ params: JSONValue) -> [UInt8]? {
        guard let problem = schema.violation(of: params, at: "") else { return nil }
        return FrameEncoder.failure(id: id, error: .invalidRequest("invalid \(method) params: \(problem)"))
    }

    /// `device.pair.approve` / `device.pair.reject {requestId}`: the decision goes to the pairing-scope
    /// holders and to the connects waiting for it; the answer as the gateway's (`{requestId, device}`,
    /// `{requestId, deviceId}`).
    private func devicePairDecision(_ id: String, _ params: JSONValue, approve: Bool) -> [UInt8] {
        let method = approve ? GatewayMethod.devicePairApprove : GatewayMethod.devicePairReject
        if let bad = invalidParams(id, method, GatewaySchemas.devicePairDecision, params) { return bad }
        let requestId = params["requestId"]?.stringValue ?? ""
        guard let request = gateway.decidePairing(requestId: requestId, approve: approve) else {
            return FrameEncoder.failure(id: id, error: .invalidRequest("unknown requestId"))
        }
        if !approve {
            return FrameEncoder.success(id: id, payload: ["requestId": .string(request.requestId), "deviceId": .string(request.deviceId)])
        }
        let device: JSONValue = ["deviceId": .string(request.deviceId), "publicKey": .string(request.publicKey),
                                 "role": .string(request.role), "roles": JSONValue([request.role]),
                                 "scopes": JSONValue(request.scopes), "approvedAtMs": JSONValue(WallClock.milliseconds())]
        return FrameEncoder.success(id: id, payload: ["requestId": .string(request.requestId), "device": device])
    }

    private func health(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, "health", GatewaySchemas.health, params) { return bad }
        return FrameEncoder.success(id: id, payload: gateway.healthSummary(durationMs: 1))
    }

    private func chatHistory(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, GatewayMethod.chatHistory, GatewaySchemas.chatHistory(version), params) { return bad }
        let sessionKey = params[ChatField.sessionKey]?.stringValue ?? "main"
        if params["offset"] != nil && params["messageId"] != nil {
            return FrameEncoder.failure(id: id, error: .invalidRequest("offset and messageId cannot be used together"))
        }
        if params["sessionId"] != nil && params["messageId"] == nil {
            return FrameEncoder.failure(id: id, error: .invalidRequest("sessionId requires messageId"))
        }
        let limit = params["limit"]?.intValue ?? 200
        let offset = params["offset"]?.intValue ?? 0
        let payload = gateway.history.historyPayload(sessionKey: sessionKey, limit: limit, offset: offset,
                                                     maxBytes: params["maxBytes"]?.intValue, paging: version >= 4)
        return FrameEncoder.success(id: id, payloadBytes: payload)
    }

    /// `--write-rate-limit`: nil when the request may start new work, else its refusal.
    func rateLimited(_ id: String, _ method: String) -> [UInt8]? {
        guard let limiter = gateway.writeLimiter, WriteRateLimiter.methods.contains(method),
              let retryAfterMs = limiter.admit(method: method, client: client.deviceId ?? client.connId)
        else { return nil }
        return FrameEncoder.failure(id: id, error: limiter.refusal(method: method, retryAfterMs: retryAfterMs))
    }

    private func chatSend(_ id: String, _ params: JSONValue) -> Reply {
        if let bad = invalidParams(id, GatewayMethod.chatSend, GatewaySchemas.chatSend(version), params) { return Reply(frame: bad) }
        let sessionKey = params[ChatField.sessionKey]?.stringValue ?? "main"
        let message = params["message"]?.stringValue ?? ""
        let key = params["idempotencyKey"]?.stringValue ?? ""
        let attachments = params["attachments"]?.arrayValue ?? []
        if message.trimmingASCIIWhitespace.isEmpty && attachments.isEmpty {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("message or attachment required")))
        }
        if message.utf8.contains(0) {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("message must not contain null bytes")))
        }
        if let policy = gateway.options.attachmentPolicy, let problem = policy.violation(in: attachments) {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest(problem)))
        }
        // An idempotent replay of a known key is neither counted nor refused.
        if case .unknown = gateway.runs.lookup(key), let limited = rateLimited(id, GatewayMethod.chatSend) {
            return Reply(frame: limited)
        }
        // A stop command starts no run: it aborts the session's runs and answers like chat.abort.
        if StopCommand.isStopRequest(message) {
            let agent = ScriptedAgent(gateway: gateway)
            let aborted = gateway.runs.runs(inSession: sessionKey).filter { agent.abort($0, stopReason: "stop") }.map(\.runId)
            return Reply(frame: abortResult(id, aborted))
        }
        switch gateway.runs.lookup(key) {
        case .inFlight:
            return Reply(frame: FrameEncoder.success(id: id, payload: [ChatField.runId: .string(key), "status": .string(ChatSendStatus.inFlight.rawValue)]))
        case .done(.ok):
            return Reply(frame: FrameEncoder.success(id: id, payload: [ChatField.runId: .string(key), "status": .string(ChatSendStatus.ok.rawValue)]))
        case .done(.error(let summary)):
            return Reply(frame: FrameEncoder.failure(id: id, error: ErrorShape(code: "UNAVAILABLE", message: summary),
                                        payload: [ChatField.runId: .string(key), "status": .string(ChatSendStatus.error.rawValue), "summary": .string(summary)]))
        case .unknown:
            break
        }
        // queueMode interrupt: the session's active runs end first, as a stop command ends them.
        var interrupted = false
        if params["queueMode"]?.stringValue == "interrupt" {
            let agent = ScriptedAgent(gateway: gateway)
            interrupted = !gateway.runs.runs(inSession: sessionKey).filter { agent.abort($0, stopReason: "stop") }.isEmpty
        }
        guard let run = gateway.runs.start(runId: key, sessionKey: sessionKey) else {
            return Reply(frame: FrameEncoder.success(id: id, payload: [ChatField.runId: .string(key), "status": .string(ChatSendStatus.inFlight.rawValue)]))
        }
        var ack: JSONObject = [ChatField.runId: .string(key), "status": .string(ChatSendStatus.started.rawValue)]
        if interrupted { ack["interruptedActiveRun"] = true }
        let answer = FrameEncoder.success(id: id, payload: .object(ack))
        let start = runStarter(run, message: message, at: WallClock.milliseconds())
        // --ack-delay-ms: the answer and the run come later, from a thread of their own.
        if gateway.options.ackDelayMs > 0 {
            let delay = Double(gateway.options.ackDelayMs) / 1000, send = sendLater
            Thread { Thread.sleep(forTimeInterval: delay); send(answer); start() }.start()
            return Reply(frame: nil)
        }
        return Reply(frame: answer, then: start)
    }

    /// What happens once the ack is queued (so it leaves first, as the gateway acks before the
    /// work): the user message joins the transcript, `sessions.changed` reports the start, and the
    /// `--script` or the `--reply` agent plays the run. The reader thread runs this before it reads
    /// the next request, so a `chat.history` sent after the ack sees the message.
    func runStarter(_ run: ActiveRun, message: String, at timestamp: Int64) -> @Sendable () -> Void {
        let gateway = self.gateway
        let play: @Sendable () -> Void
        if let script = gateway.options.script {
            let player = ScriptPlayer(gateway: gateway, script: script)
            play = { player.start(run) }
        } else {
            let agent = ScriptedAgent(gateway: gateway)
            play = { agent.start(run, message: message) }
        }
        return {
            gateway.history.append(sessionKey: run.sessionKey,
                                   message: TranscriptMessage.make(role: "user", text: message, timestamp: timestamp))
            gateway.runStarted(run)
            play()
        }
    }

    private func chatAbort(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, GatewayMethod.chatAbort, GatewaySchemas.chatAbort(version), params) { return bad }
        if let limited = rateLimited(id, GatewayMethod.chatAbort) { return limited }
        let sessionKey = params[ChatField.sessionKey]?.stringValue ?? "main"
        var targets: [ActiveRun]
        if let runId = params[ChatField.runId]?.stringValue {
            guard let run = gateway.runs.run(runId) else {
                return FrameEncoder.success(id: id, payload: ["ok": true, "aborted": false, "runIds": []])
            }
            // Raw keys, as the real server compares them: `main` is not `agent:main:main` here.
            if run.sessionKey != sessionKey {
                return FrameEncoder.failure(id: id, error: .invalidRequest("runId does not match sessionKey"))
            }
            targets = [run]
        } else {
            targets = gateway.runs.runs(inSession: sessionKey)
        }
        let agent = ScriptedAgent(gateway: gateway)
        return abortResult(id, targets.filter { agent.abort($0, stopReason: "rpc") }.map(\.runId))
    }

    /// `{ok:true, aborted, runIds}`: the answer of chat.abort and of a stop command.
    private func abortResult(_ id: String, _ aborted: [String]) -> [UInt8] {
        FrameEncoder.success(id: id, payload: ["ok": true, "aborted": .bool(!aborted.isEmpty), "runIds": JSONValue(aborted)])
    }

    private func chatInject(_ id: String, _ params: JSONValue) -> Reply {
        if let bad = invalidParams(id, GatewayMethod.chatInject, GatewaySchemas.chatInject, params) { return Reply(frame: bad) }
        if let limited = rateLimited(id, GatewayMethod.chatInject) { return Reply(frame: limited) }
        let sessionKey = params[ChatField.sessionKey]?.stringValue ?? "main"
        guard gateway.history.exists(sessionKey) else {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("session not found")))
        }
        let messageId = SecureRandom.uuid()
        let now = WallClock.milliseconds()
        let text = params["message"]?.stringValue ?? ""
        gateway.history.append(sessionKey: sessionKey, message: TranscriptMessage.make(role: "assistant", text: text, timestamp: now))
        let hub = gateway.hub
        let event: JSONValue = [
            ChatField.runId: .string("inject-" + messageId), ChatField.sessionKey: .string(sessionKey), ChatField.seq: 0, ChatField.state: .string(ChatState.final.rawValue),
            "message": TranscriptMessage.eventMessage(text: text, timestamp: now),
        ]
        return Reply(frame: FrameEncoder.success(id: id, payload: ["ok": true, "messageId": .string(messageId)]),
                     then: { hub.broadcast(GatewayEventName.chat, payload: event, readScoped: true) })
    }
}
