@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// How a run ended, as `sessions.changed` reports it (official lifecycle snapshot: phase `error`
/// is `failed`, an aborted run's `end` is `killed`, one that ran out of time `timeout`, any other
/// `end` is `done`).
enum RunEnd {
    case done, failed, killed, timedOut

    var phase: String { self == .failed ? "error" : "end" }
    var status: String {
        switch self {
        case .done: return "done"
        case .failed: return "failed"
        case .killed: return "killed"
        case .timedOut: return "timeout"
        }
    }
}

extension Gateway {
    /// `sessions.changed` phase `start` for a run about to play.
    func runStarted(_ run: ActiveRun) {
        subscriptions.publishSessionsChanged(runChange(run, phase: "start", hasActiveRun: true, status: "running", end: nil))
    }

    /// `sessions.changed` phase `end` or `error` once `run` left the registry.
    func runEnded(_ run: ActiveRun, _ end: RunEnd) {
        let stillActive = !runs.runs(inSession: run.sessionKey).isEmpty
        subscriptions.publishSessionsChanged(runChange(run, phase: end.phase, hasActiveRun: stillActive, status: end.status,
                                                       end: WallClock.milliseconds()))
    }

    /// `{sessionKey, phase, runId, ts, sessionId?, hasActiveRun, status, startedAt, endedAt?, runtimeMs?}`.
    private func runChange(_ run: ActiveRun, phase: String, hasActiveRun: Bool, status: String, end: Int64?) -> JSONValue {
        var payload: JSONObject = [
            "sessionKey": .string(ChatHistoryStore.canonicalKey(run.sessionKey)), "phase": .string(phase),
            "runId": .string(run.runId), "ts": JSONValue(end ?? WallClock.milliseconds()),
        ]
        if let sessionId = history.sessionId(run.sessionKey) { payload["sessionId"] = .string(sessionId) }
        payload["hasActiveRun"] = .bool(hasActiveRun)
        payload["status"] = .string(status)
        payload["startedAt"] = JSONValue(run.startedAt)
        if let end {
            payload["endedAt"] = JSONValue(end)
            payload["runtimeMs"] = JSONValue(max(0, end - run.startedAt))
        }
        return .object(payload)
    }
}
