@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawState

/// `openclaw sessions` against a remote gateway: `sessions.list`, page after page (`limit`, `offset`,
/// following `nextOffset`), merged into the document the local listing prints. The stores are the
/// gateway's, so `path` is the one it reports and `stores` is left out.
///
/// A gateway that ignores `offset` or never ends cannot loop: paging stops when `nextOffset` is
/// absent or null, when it does not move forward, when a page adds no session not seen before, and
/// after `maxPages` pages.
struct SessionsRemote {
    static let pageSize = 100
    static let maxPages = 1_000

    let context: CommandContext
    let setup: SessionsCommand.Setup
    let selection: SessionStoreSelection

    struct Pages: Equatable {
        var path: JSONValue = .null
        var rows: [JSONObject] = []
        /// The gateway's own count of matching sessions, when it gives one.
        var reportedTotal: Int?
        /// Paging stopped at the limit with more on the gateway.
        var more = false
    }

    func run(json: Bool) throws {
        let options = context.options.sessions
        try SessionsCommand.storeCall { () throws(SessionStoreError) in try SessionStoreTargets.check(selection) }
        let active = try SessionsCommand.storeCall { () throws(SessionStoreError) in try SessionListing.parseActive(options.active) }
        let limit = try SessionsCommand.storeCall { () throws(SessionStoreError) in try SessionListing.parseLimit(options.limit) }
        let session = try context.openSession()
        defer { session.close() }
        let pages = try Self.collect(limit: limit) { offset, size in
            var params: JSONObject = ["limit": JSONValue(size), "includeGlobal": true, "includeUnknown": true]
            // The first page asks as any gateway understands; `offset` only once the gateway pages.
            if offset > 0 { params["offset"] = JSONValue(offset) }
            if let agent = selection.agent.map(TextTrim.trimmed) { params["agentId"] = .string(AgentSessionKey.normalizeAgentId(agent)) }
            if let active { params["activeMinutes"] = JSONValue(active) }
            let frame = try request(GatewayMethod.sessionsList, params: .object(params), on: session, context: context,
                                    resendWhenAsked: true)
            if frame.error != nil { throw gatewayFailure(frame, method: GatewayMethod.sessionsList) }
            return frame.payload ?? .null
        }
        let total = max(pages.reportedTotal ?? 0, pages.rows.count)
        let hasMore = pages.rows.count < total || pages.more
        if json {
            var document: JSONObject = ["path": pages.path]
            if selection.allAgents { document["allAgents"] = true }
            document["count"] = JSONValue(pages.rows.count)
            document["totalCount"] = JSONValue(hasMore ? max(total, pages.rows.count + 1) : total)
            document["limitApplied"] = limit.map { JSONValue($0) } ?? .null
            document["hasMore"] = .bool(hasMore)
            document["activeMinutes"] = active.map { JSONValue($0) } ?? .null
            document["sessions"] = .array(pages.rows.map(JSONValue.object))
            OfficialOutput.printJSON(.object(document), context)
            return
        }
        var agents: [String] = []
        for row in pages.rows { if let id = row["agentId"]?.stringValue, !agents.contains(id) { agents.append(id) } }
        let report = SessionsText.Report(
            storePath: pages.path.stringValue ?? "(gateway)", storeAgents: agents, aggregate: selection.allAgents,
            rows: pages.rows, runtimeLabels: pages.rows.map { SessionListing.runtimeLabel(gatewayRow: $0, config: setup.stores) },
            totalCount: hasMore ? max(total, pages.rows.count + 1) : total, limit: limit, activeMinutes: active)
        SessionsCommand.write(report, context)
    }

    /// Every page `fetch(offset, size)` returns, up to `limit` rows (nil: all), sessions seen twice kept once.
    static func collect(limit: Int?, fetch: (_ offset: Int, _ size: Int) throws -> JSONValue) throws -> Pages {
        var pages = Pages()
        var seen = Set<String>()
        var offset = 0
        for index in 0..<maxPages {
            let remaining = limit.map { $0 - pages.rows.count } ?? pageSize
            if remaining <= 0 { break }
            let result = try fetch(offset, min(pageSize, remaining))
            if index == 0 { pages.path = result["path"] ?? .null }
            if let total = result["totalCount"]?.intValue ?? result["total"]?.intValue { pages.reportedTotal = total }
            let rows = result["sessions"]?.arrayValue ?? []
            var added = 0
            for case .object(let row) in rows {
                let key = row["key"]?.stringValue ?? ""
                guard seen.insert(key).inserted else { continue }
                if let limit, pages.rows.count >= limit {
                    pages.more = true
                    break
                }
                pages.rows.append(row)
                added += 1
            }
            let next = result["nextOffset"]?.intValue
                ?? (result["hasMore"]?.boolValue == true ? offset + rows.count : nil)
            guard let next, next > offset, added > 0 else { break }
            if let limit, pages.rows.count >= limit {
                pages.more = true
                break
            }
            offset = next
        }
        return pages
    }
}
