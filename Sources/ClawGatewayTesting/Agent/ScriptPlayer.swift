import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Plays a `--script` for one run. Chat and agent steps are broadcast like the scripted agent's
/// events (outer `seq` as usual); frame and text steps go to the same readers unnumbered.
/// The run ends after the last step whatever the script sent, so idempotency and abort keep working.
struct ScriptPlayer {
    let gateway: Gateway
    let script: RunScript

    func start(_ run: ActiveRun) {
        let thread = Thread { self.play(run) }
        thread.name = "script-\(run.runId)"
        thread.start()
    }

    private func play(_ run: ActiveRun) {
        var failed: String? = nil
        var lastText: String? = nil
        for (index, step) in script.steps.enumerated() {
            let isLast = index == script.steps.count - 1
            if step.delayMs > 0 { Thread.sleep(forTimeInterval: Double(step.delayMs) / 1000) }
            let sent: Bool = run.lock.withLock {
                guard !run.finished else { return false }
                switch step.action {
                case .chat(let state, let members, let seq, let runId, let sessionKey):
                    let seq = nextSeq(run, seq)
                    var payload: JSONObject = [
                        ChatField.runId: .string(runId ?? run.runId), ChatField.sessionKey: .string(sessionKey ?? run.sessionKey),
                        ChatField.seq: JSONValue(seq), ChatField.state: .string(state),
                    ]
                    for member in members {
                        var value = RunScript.substitute(member.value, runId: run.runId, sessionKey: run.sessionKey)
                        // A string message is shorthand for the assistant message chat events carry.
                        if member.key == ChatField.message, let text = value.stringValue {
                            value = TranscriptMessage.eventMessage(text: text, timestamp: WallClock.milliseconds())
                        }
                        if member.key == ChatField.message, let text = Self.text(of: value) {
                            run.text = text
                            lastText = text
                        }
                        payload[member.key] = value
                    }
                    if state == ChatState.error.rawValue {
                        failed = members[ChatField.errorMessage]?.stringValue ?? "Error: scripted failure"
                    }
                    // The last step ends the run before its event leaves, as a client that sees the end
                    // and sends the same key again must find it finished.
                    if isLast { finishLocked(run, lastText: lastText, failed: failed) }
                    gateway.hub.broadcast(GatewayEventName.chat, payload: .object(payload), readScoped: true)
                case .agent(let stream, let data, let seq):
                    ScriptedAgent.emitAgent(run, seq: nextSeq(run, seq), stream: stream,
                                            data: RunScript.substitute(data, runId: run.runId, sessionKey: run.sessionKey),
                                            to: gateway.hub)
                case .frame(let value):
                    let bytes = FrameEncoder.encode(RunScript.substitute(value, runId: run.runId, sessionKey: run.sessionKey))
                    gateway.hub.broadcastRaw(bytes, isJSON: true)
                case .text(let text):
                    gateway.hub.broadcastRaw(Array(text.utf8), isJSON: false)
                }
                return true
            }
            if !sent { return }
        }
        run.lock.withLock { finishLocked(run, lastText: lastText, failed: failed) }
    }

    /// Stores the reply, caches the key and tells the waiter, once. Called under `run.lock`.
    private func finishLocked(_ run: ActiveRun, lastText: String?, failed: String?) {
        guard !run.finished else { return }
        run.finished = true
        let now = WallClock.milliseconds()
        if let lastText {
            gateway.history.append(sessionKey: run.sessionKey, message: TranscriptMessage.make(
                role: "assistant", text: lastText, timestamp: now, stopReason: failed == nil ? nil : "error", errorMessage: failed))
        }
        gateway.runs.finish(run, outcome: failed.map { .error(summary: $0) } ?? .ok)
        gateway.runEnded(run, failed == nil ? .done : .failed)
        run.onFinish?(failed.map { .failed(message: $0) } ?? .completed, run.text)
    }

    /// The step's own seq, or one more than the highest so far in this run. Called under `run.lock`.
    private func nextSeq(_ run: ActiveRun, _ given: Int?) -> Int {
        let seq = given ?? run.seq + 1
        run.seq = max(run.seq, seq)
        return seq
    }

    /// The text of an event message `{content:[{type:"text",text}]}` (or a plain string content).
    static func text(of message: JSONValue) -> String? {
        if let content = message["content"]?.stringValue { return content }
        guard let parts = message["content"]?.arrayValue else { return nil }
        let texts = parts.compactMap { $0["type"]?.stringValue == "text" ? $0["text"]?.stringValue : nil }
        return texts.isEmpty ? nil : texts.joined()
    }
}
