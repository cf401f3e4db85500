@_spi(Engine) import ClawJSON

/// `cron.list` as the official `listPage` pages it (src/cron/service/ops-read.ts): filter (enabled
/// unless `includeDisabled`, `enabled`, `agentId`, `scheduleKind`, `lastRunStatus`, `query` over id,
/// name and agent), sort (`nextRunAtMs` ascending by default), then `offset` and `limit` (default all
/// the matches, at most 200). `snapshotRevision` covers the whole sorted result, so a client paging
/// through it sees when a job changed between its pages.
enum CronListPage {
    static func page(_ jobs: [CronJob], params: JSONValue) -> JSONValue {
        let enabledFilter = params["enabled"]?.stringValue ?? (params["includeDisabled"]?.boolValue == true ? "all" : "enabled")
        let agentId = params["agentId"]?.stringValue?.lowercased()
        let scheduleKind = params["scheduleKind"]?.stringValue ?? "all"
        let lastRunStatus = params["lastRunStatus"]?.stringValue ?? "all"
        let query = (params["query"]?.stringValue ?? "").trimmingASCIIWhitespace.lowercased()
        let matches = jobs.filter { job in
            if enabledFilter == "enabled" && !job.spec.enabled { return false }
            if enabledFilter == "disabled" && job.spec.enabled { return false }
            if let agentId, job.spec.agentId != agentId { return false }
            if scheduleKind != "all" && job.schedule.kind != scheduleKind { return false }
            if lastRunStatus != "all" && (job.lastRunStatus ?? "unknown") != lastRunStatus { return false }
            if !query.isEmpty && ![job.id, job.name, job.spec.agentId].joined(separator: " ").lowercased().contains(query) {
                return false
            }
            return true
        }
        let sorted = sort(matches, by: params["sortBy"]?.stringValue ?? "nextRunAtMs", descending: params["sortDir"]?.stringValue == "desc")
        let total = sorted.count
        let offset = max(0, min(total, params["offset"]?.intValue ?? 0))
        let limit = max(1, min(200, params["limit"]?.intValue ?? (total == 0 ? 50 : total)))
        let page = Array(sorted[offset..<min(total, offset + limit)])
        let nextOffset = offset + page.count
        let compact = params["compact"]?.boolValue == true
        var result: JSONObject = [
            "jobs": .array(page.map { compact ? $0.compactView : $0.readView }),
            "snapshotRevision": .string(CronJob.revision(of: .array(sorted.map(\.readView)))),
            "total": JSONValue(total), "offset": JSONValue(offset), "limit": JSONValue(limit),
            "hasMore": .bool(nextOffset < total), "nextOffset": nextOffset < total ? JSONValue(nextOffset) : .null,
        ]
        // No job delivers anywhere, so every preview is the official "not requested" one.
        if !compact {
            result["deliveryPreviews"] = .object(JSONObject(page.map {
                JSONObject.Member($0.id, ["label": "not requested", "detail": "not requested"])
            }))
        }
        return .object(result)
    }

    /// Jobs without a next run sort after those with one; ties by name, then id.
    private static func sort(_ jobs: [CronJob], by key: String, descending: Bool) -> [CronJob] {
        jobs.sorted { a, b in
            let order: Bool?
            switch key {
            case "name": order = a.name == b.name ? nil : a.name < b.name
            case "updatedAtMs": order = a.createdAtMs == b.createdAtMs ? nil : a.createdAtMs < b.createdAtMs
            default:
                let x = a.nextRunAtMs ?? Int64.max, y = b.nextRunAtMs ?? Int64.max
                order = x == y ? nil : x < y
            }
            if let order { return descending ? !order : order }
            return a.name == b.name ? a.id < b.id : a.name < b.name
        }
    }
}
