import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Plays an agent run the way the real gateway streams one (§5.1, §5.2): `agent` lifecycle start,
/// `agent` assistant events each mirrored by a `chat` delta with the same per-run `seq`, then
/// lifecycle end and `chat` final (or lifecycle error and `chat` error).
struct ScriptedAgent {
    let gateway: Gateway

    private var version: Int { gateway.options.protocolVersion }

    /// The reply pieces; concatenated they make the whole reply.
    static func pieces(for mode: ReplyMode, message: String, wordsPerDelta: Int = 1) -> [String] {
        switch mode {
        case .echo, .error, .retry:
            let text = message.isEmpty ? "(attachment received)" : message
            var pieces: [String] = []
            var current = ""
            for character in text {
                if character == " " && !current.isEmpty && current.last != " " {
                    pieces.append(current)
                    current = ""
                }
                current.append(character)
            }
            if !current.isEmpty { pieces.append(current) }
            return pieces
        case .lorem(let n):
            let words = LoremIpsum.words(count: n).enumerated().map { $0.offset == 0 ? $0.element : " " + $0.element }
            guard wordsPerDelta > 1 else { return words }
            return stride(from: 0, to: words.count, by: wordsPerDelta).map {
                words[$0..<min($0 + wordsPerDelta, words.count)].joined()
            }
        case .slow:
            return LoremIpsum.words(count: 30).enumerated().map { $0.offset == 0 ? $0.element : " " + $0.element }
        }
    }

    var deltaPause: Double {
        let ms = gateway.options.reply == .slow ? max(gateway.options.deltaMs, 500) : gateway.options.deltaMs
        return Double(ms) / 1000
    }

    /// Runs on its own thread until the reply ends or `chat.abort` marks the run finished.
    func start(_ run: ActiveRun, message: String) {
        let thread = Thread { self.play(run, message: message) }
        thread.name = "run-\(run.runId)"
        thread.start()
    }

    private func play(_ run: ActiveRun, message: String) {
        let mode = gateway.options.reply
        let startedAt = run.startedAt
        guard step(run, { seq in
            emitAgent(run, seq: seq, stream: "lifecycle", data: ["phase": "start", "startedAt": JSONValue(startedAt)])
        }) else { return }
        // Temporary provider retries are progress, not errors (#139465): one status event per retry.
        if case .retry(let retries) = mode, version >= 4 {
            for attempt in 1...retries {
                if deltaPause > 0 { Thread.sleep(forTimeInterval: deltaPause) }
                guard step(run, { seq in
                    let payload: JSONValue = [
                        ChatField.runId: .string(run.runId), ChatField.sessionKey: .string(run.sessionKey), ChatField.seq: JSONValue(seq),
                        ChatField.state: .string(ChatState.status.rawValue), "phase": "starting_model",
                        "retry": ["attempt": JSONValue(attempt), "maxAttempts": JSONValue(retries + 1), "reason": "rate_limit"],
                    ]
                    gateway.hub.broadcast(GatewayEventName.chat, payload: payload, readScoped: true)
                }) else { return }
            }
        }
        var pieces = Self.pieces(for: mode, message: message, wordsPerDelta: gateway.options.deltaWords)
        if mode == .error { pieces = Array(pieces.prefix(1)) }
        for piece in pieces {
            if deltaPause > 0 { Thread.sleep(forTimeInterval: deltaPause) }
            guard step(run, { seq in
                run.text += piece
                let now = WallClock.milliseconds()
                emitAgent(run, seq: seq, stream: "assistant", data: ["text": .string(run.text), "delta": .string(piece)])
                var payload: JSONObject = [
                    ChatField.runId: .string(run.runId), ChatField.sessionKey: .string(run.sessionKey), ChatField.seq: JSONValue(seq), ChatField.state: .string(ChatState.delta.rawValue),
                    "message": TranscriptMessage.eventMessage(text: run.text, timestamp: now),
                ]
                if version >= 4 { payload["deltaText"] = .string(piece) }
                gateway.hub.broadcast(GatewayEventName.chat, payload: .object(payload), readScoped: true)
            }) else { return }
        }
        if deltaPause > 0 { Thread.sleep(forTimeInterval: deltaPause) }
        _ = step(run, { seq in
            run.finished = true
            let endedAt = WallClock.milliseconds()
            if mode == .error {
                let errorMessage = "Error: simulated agent failure"
                emitAgent(run, seq: seq, stream: "lifecycle",
                          data: ["phase": "error", "startedAt": JSONValue(startedAt), "endedAt": JSONValue(endedAt),
                                 "error": .string(errorMessage)])
                var payload: JSONObject = [
                    ChatField.runId: .string(run.runId), ChatField.sessionKey: .string(run.sessionKey), ChatField.seq: JSONValue(seq), ChatField.state: .string(ChatState.error.rawValue),
                    "errorMessage": .string(errorMessage),
                ]
                if version >= 4 {
                    payload["errorKind"] = "unknown"
                    payload["errorDetail"] = Self.errorDetail
                }
                // Transcript, idempotency cache and sessions.changed first: a client reacting to the
                // event sees them.
                gateway.history.append(sessionKey: run.sessionKey, message: TranscriptMessage.make(
                    role: "assistant", text: run.text, timestamp: endedAt, stopReason: "error", errorMessage: errorMessage))
                gateway.runs.finish(run, outcome: .error(summary: errorMessage))
                gateway.runEnded(run, .failed)
                gateway.hub.broadcast(GatewayEventName.chat, payload: .object(payload), readScoped: true)
                run.onFinish?(.failed(message: errorMessage), run.text)
            } else {
                emitAgent(run, seq: seq, stream: "lifecycle",
                          data: ["phase": "end", "startedAt": JSONValue(startedAt), "endedAt": JSONValue(endedAt)])
                let payload: JSONValue = [
                    ChatField.runId: .string(run.runId), ChatField.sessionKey: .string(run.sessionKey), ChatField.seq: JSONValue(seq), ChatField.state: .string(ChatState.final.rawValue),
                    "stopReason": "stop", "message": TranscriptMessage.eventMessage(text: run.text, timestamp: endedAt),
                ]
                gateway.history.append(sessionKey: run.sessionKey, message: TranscriptMessage.make(
                    role: "assistant", text: run.text, timestamp: endedAt))
                gateway.runs.finish(run, outcome: .ok)
                gateway.runEnded(run, .done)
                gateway.hub.broadcast(GatewayEventName.chat, payload: payload, readScoped: true)
                run.onFinish?(.completed, run.text)
            }
        })
    }

    /// The provider facts of `--reply error`'s failure (`errorDetail`, #135102): an overloaded provider.
    static let errorDetail: JSONValue = [
        "provider": "anthropic", "model": "claude-sonnet-4-5", "failoverReason": "overloaded", "httpStatus": 529,
        "providerErrorMessagePreview": "Overloaded",
    ]

    /// Runs `body` with the next per-run seq unless the run was aborted; false means stop.
    private func step(_ run: ActiveRun, _ body: (Int) -> Void) -> Bool {
        run.lock.withLock {
            guard !run.finished else { return false }
            run.seq += 1
            body(run.seq)
            return true
        }
    }

    private func emitAgent(_ run: ActiveRun, seq: Int, stream: String, data: JSONValue) {
        Self.emitAgent(run, seq: seq, stream: stream, data: data, to: gateway.hub)
    }

    /// An `agent` event of `run` (also what a script's agent step sends).
    static func emitAgent(_ run: ActiveRun, seq: Int, stream: String, data: JSONValue, to hub: EventHub) {
        let payload: JSONValue = [
            ChatField.runId: .string(run.runId), ChatField.seq: JSONValue(seq), "stream": .string(stream),
            "ts": JSONValue(WallClock.milliseconds()), "data": data, ChatField.sessionKey: .string(run.sessionKey),
        ]
        hub.broadcast(GatewayEventName.agent, payload: payload, readScoped: true)
    }

    /// Ends `run` from `chat.abort` (`stopReason` "rpc"), a stop command ("stop") or the `agent`
    /// timeout ("timeout"): persists the partial text and broadcasts `state:"aborted"`.
    func abort(_ run: ActiveRun, stopReason: String) -> Bool {
        run.lock.withLock {
            guard !run.finished else { return false }
            run.finished = true
            run.seq += 1
            let now = WallClock.milliseconds()
            var payload: JSONObject = [
                ChatField.runId: .string(run.runId), ChatField.sessionKey: .string(run.sessionKey), ChatField.seq: JSONValue(run.seq), ChatField.state: .string(ChatState.aborted.rawValue),
                "stopReason": .string(stopReason),
            ]
            if !run.text.isEmpty { payload["message"] = TranscriptMessage.eventMessage(text: run.text, timestamp: now) }
            if !run.text.isEmpty {
                gateway.history.append(sessionKey: run.sessionKey, message: TranscriptMessage.make(
                    role: "assistant", text: run.text, timestamp: now, stopReason: "aborted"))
            }
            gateway.runs.finish(run, outcome: .ok)
            gateway.runEnded(run, stopReason == "timeout" ? .timedOut : .killed)
            gateway.hub.broadcast(GatewayEventName.chat, payload: .object(payload), readScoped: true)
            run.onFinish?(.aborted(stopReason: stopReason), run.text)
            return true
        }
    }
}
