@_spi(Engine) import ClawJSON

/// `cron.runs` pages as the official run-history reader (src/cron/task-run-history.ts): the finished
/// runs of the chosen jobs, filtered by `runId`, status, delivery status and `query`, newest first
/// unless `sortDir` is `asc`, then `offset` and `limit` (default 50, at most 200); each entry names
/// its job (`jobName`) when the job is known.
enum CronRunHistory {
    static func page(_ history: [CronService.Finished], jobIds: Set<String>, jobNames: [String: String],
                     params: JSONValue) -> JSONValue {
        let limit = max(1, min(200, params["limit"]?.intValue ?? 50))
        let offset = max(0, params["offset"]?.intValue ?? 0)
        let runId = params["runId"]?.stringValue?.trimmingASCIIWhitespace
        var statuses = (params["statuses"]?.arrayValue ?? []).compactMap(\.stringValue)
        if statuses.isEmpty, let status = params["status"]?.stringValue, status != "all" { statuses = [status] }
        var deliveryStatuses = (params["deliveryStatuses"]?.arrayValue ?? []).compactMap(\.stringValue)
        if deliveryStatuses.isEmpty, let status = params["deliveryStatus"]?.stringValue { deliveryStatuses = [status] }
        let query = (params["query"]?.stringValue ?? "").trimmingASCIIWhitespace.lowercased()
        let ascending = params["sortDir"]?.stringValue == "asc"
        let rows = history.filter { run in
            let entry = run.entry
            if !jobIds.contains(run.jobId) { return false }
            if let runId, !runId.isEmpty, entry["runId"]?.stringValue != runId { return false }
            if !statuses.isEmpty && !statuses.contains(entry["status"]?.stringValue ?? "") { return false }
            if !deliveryStatuses.isEmpty && !deliveryStatuses.contains(entry["deliveryStatus"]?.stringValue ?? "not-requested") {
                return false
            }
            if !query.isEmpty {
                let text = [entry["summary"]?.stringValue ?? "", entry["error"]?.stringValue ?? "", run.jobId,
                            jobNames[run.jobId] ?? ""].joined(separator: " ").lowercased()
                if !text.contains(query) { return false }
            }
            return true
        }.sorted { a, b in
            a.ts == b.ts ? (ascending ? a.order < b.order : a.order > b.order) : (ascending ? a.ts < b.ts : a.ts > b.ts)
        }
        let total = rows.count
        let start = min(total, offset)
        let entries: [JSONValue] = rows[start..<min(total, start + limit)].map { run in
            var entry = run.entry
            if let name = jobNames[run.jobId] { entry["jobName"] = .string(name) }
            return .object(entry)
        }
        let nextOffset = start + entries.count
        return [
            "entries": .array(entries), "total": JSONValue(total), "offset": JSONValue(start), "limit": JSONValue(limit),
            "hasMore": .bool(nextOffset < total), "nextOffset": nextOffset < total ? JSONValue(nextOffset) : .null,
        ]
    }
}
