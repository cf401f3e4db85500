@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

extension MethodRouter {
    /// `cron.list` → `{jobs, snapshotRevision, total, offset, limit, hasMore, nextOffset, deliveryPreviews}`.
    func cronList(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, GatewayMethod.cronList, GatewaySchemas.cronList, params) { return bad }
        return FrameEncoder.success(id: id, payload: CronListPage.page(gateway.cron.snapshot.jobs, params: params))
    }

    /// `cron.run {id | jobId, mode?}` (mode `force` unless told): `{ok, enqueued, runId}` or `{ok, ran:false,
    /// reason}`, with the gateway's `processInstanceId`; an unknown job is `invalid cron.run params: id not found`.
    func cronRun(_ id: String, _ params: JSONValue) -> Reply {
        if let problem = GatewaySchemas.cronRun.violation(of: params, at: "") {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("invalid cron.run params: \(problem)")))
        }
        let jobId = params["id"]?.stringValue ?? params["jobId"]?.stringValue ?? ""
        if let expected = params["expectedProcessInstanceId"]?.stringValue, expected != gateway.instanceId,
           gateway.cron.snapshot.jobs.contains(where: { $0.id == jobId }) {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("invalid cron.run params: Gateway process changed after preflight")))
        }
        var result: JSONObject
        var start: (@Sendable () -> Void)? = nil
        switch gateway.cron.enqueueRun(id: jobId, mode: params["mode"]?.stringValue ?? "force") {
        case .unknownJob:
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest("invalid cron.run params: id not found")))
        case .skipped(let reason):
            result = ["ok": true, "ran": false, "reason": .string(reason)]
        case .enqueued(let runId, let begin):
            result = ["ok": true, "enqueued": true, "runId": .string(runId)]
            start = begin
        }
        result["processInstanceId"] = .string(gateway.instanceId)
        return Reply(frame: FrameEncoder.success(id: id, payload: .object(result)), then: start)
    }

    /// `cron.runs {id?, runId?, limit?, offset?, …}` → `{entries, total, offset, limit, hasMore, nextOffset}`:
    /// one job's finished runs (scope `job`, the default with an id) or every job's (scope `all`).
    func cronRuns(_ id: String, _ params: JSONValue) -> [UInt8] {
        if let bad = invalidParams(id, GatewayMethod.cronRuns, GatewaySchemas.cronRuns, params) { return bad }
        if let problem = Self.cronRunsItemProblem(params) {
            return FrameEncoder.failure(id: id, error: .invalidRequest("invalid cron.runs params: \(problem)"))
        }
        let jobId = params["id"]?.stringValue ?? params["jobId"]?.stringValue
        let scope = params["scope"]?.stringValue ?? (jobId == nil ? "all" : "job")
        let (jobs, history) = gateway.cron.snapshot
        let agentId = params["agentId"]?.stringValue?.lowercased()
        let visible = jobs.filter { agentId == nil || $0.spec.agentId == agentId }
        let names = Dictionary(uniqueKeysWithValues: visible.map { ($0.id, $0.name) })
        let jobIds: Set<String>
        if scope == "all" {
            // Without an agent every run counts, even of jobs no longer listed.
            jobIds = agentId == nil ? Set(history.map(\.jobId)) : Set(visible.map(\.id))
        } else {
            guard let jobId else { return FrameEncoder.failure(id: id, error: .invalidRequest("invalid cron.runs params: missing id")) }
            if agentId != nil && names[jobId] == nil {
                return FrameEncoder.failure(id: id, error: .invalidRequest("invalid cron.runs params: id not found"))
            }
            jobIds = [jobId]
        }
        return FrameEncoder.success(id: id, payload: CronRunHistory.page(history, jobIds: jobIds, jobNames: names, params: params))
    }

    /// What the schema subset cannot say: the `id` pattern (no path separators) and the item counts.
    private static func cronRunsItemProblem(_ params: JSONValue) -> String? {
        for key in ["id", "jobId"] {
            if let value = params[key]?.stringValue, value.contains("/") || value.contains("\\") {
                return #"at /\#(key): must match pattern "^[^/\\\\]+$""#
            }
        }
        for (key, maximum) in [("statuses", 3), ("deliveryStatuses", 4)] {
            guard let count = params[key]?.arrayValue?.count else { continue }
            if count < 1 { return "at /\(key): must NOT have fewer than 1 items" }
            if count > maximum { return "at /\(key): must NOT have more than \(maximum) items" }
        }
        return nil
    }
}
