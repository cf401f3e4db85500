@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// `openclaw sessions` (list) over the stores on disk, as the official command lists them
/// (openclaw/openclaw `src/commands/sessions.ts` @00d3a170): every target's records, those updated
/// in the last `--active` minutes, newest first (a stable sort: ties keep store order, then key order),
/// at most `--limit`; and the official `--json` document.
@_spi(Engine) public struct SessionListing: Sendable {
    @_spi(Engine) public static let defaultLimit = 100

    @_spi(Engine) public let targets: [SessionStoreTarget]
    /// `--all-agents` was given.
    @_spi(Engine) public let allAgents: Bool
    /// The rows shown, newest first, each the official row object.
    @_spi(Engine) public let rows: [JSONObject]
    /// The Runtime column of each row (`resolveAgentRuntimeLabel`).
    @_spi(Engine) public let runtimeLabels: [String]
    /// Rows that passed `--active`, over every target, before `--limit`.
    @_spi(Engine) public let totalCount: Int
    /// nil for `--limit all`.
    @_spi(Engine) public let limit: Int?
    @_spi(Engine) public let activeMinutes: Int?

    /// `--active`: a strict positive integer of minutes (`parseStrictPositiveInteger`).
    @_spi(Engine) public static func parseActive(_ text: String?) throws(SessionStoreError) -> Int? {
        guard let text else { return nil }
        guard let value = strictPositive(text) else { throw .activeMinutes }
        return value
    }

    /// `--limit`: 100 by default, `all` (any case) for no limit, else digits only and above 0.
    /// Returns nil for `all`.
    @_spi(Engine) public static func parseLimit(_ text: String?) throws(SessionStoreError) -> Int? {
        guard let text else { return defaultLimit }
        let trimmed = TextTrim.trimmed(text)
        if trimmed.lowercased() == "all" { return nil }
        guard let value = strictPositive(trimmed) else { throw .limit }
        return value
    }

    private static func strictPositive(_ text: String) -> Int? {
        let trimmed = TextTrim.trimmed(text)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(trimmed), value > 0, value <= 9_007_199_254_740_991 else { return nil }
        return value
    }

    /// Reads every target (read-only) and builds the listing. `nowMs`: the wall clock, for `--active`
    /// and `ageMs`.
    @_spi(Engine) public static func list(targets: [SessionStoreTarget], allAgents: Bool, activeMinutes: Int?, limit: Int?,
                                          config: SessionStoreConfig, nowMs: Int64) throws(SessionStoreError) -> SessionListing {
        let activeSince = activeMinutes.map { Double(nowMs) - Double($0) * 60_000 }
        var candidates: [(agentId: String, record: SessionEntryRecord)] = []
        for target in targets {
            for record in try AgentDatabase.records(path: target.databasePath, ownerAgentId: target.databaseOwner) {
                if let activeSince, !(record.updatedAt >= activeSince) { continue }
                candidates.append((target.agentId, record))
            }
        }
        let total = candidates.count
        // Stable: Swift's sort is not, so ties keep their index.
        let sorted = candidates.enumerated().sorted { a, b in
            let left = a.element.record.updatedAt, right = b.element.record.updatedAt
            return left != right ? left > right : a.offset < b.offset
        }.map(\.element)
        let shown = limit.map { Array(sorted.prefix($0)) } ?? sorted
        let projection = SessionRowProjection(config: config, nowMs: nowMs)
        let projected = shown.map { projection.row($0.record, storeAgentId: $0.agentId) }
        return SessionListing(targets: targets, allAgents: allAgents, rows: projected.map(\.row),
                              runtimeLabels: projected.map(\.runtimeLabel), totalCount: total, limit: limit,
                              activeMinutes: activeMinutes)
    }

    /// The Runtime column for a row the gateway sent (`sessions.list`): from its `agentRuntime` and provider.
    @_spi(Engine) public static func runtimeLabel(gatewayRow row: JSONObject, config: SessionStoreConfig) -> String {
        let display = SessionDisplayModel(config: config)
        let runtime = SessionDisplayModel.text(row["agentRuntime"]?["id"]).map { $0.lowercased() } ?? "openclaw"
        let ref = SessionDisplayModel.Ref(provider: SessionDisplayModel.text(row["modelProvider"]) ?? "", model: SessionDisplayModel.text(row["model"]) ?? "")
        return display.runtimeLabel(entry: row, runtime: runtime, ref: ref)
    }

    /// Several stores are shown as one aggregate (`path: null`, `stores`).
    @_spi(Engine) public var isAggregate: Bool { allAgents || targets.count > 1 }

    @_spi(Engine) public var hasMore: Bool { rows.count < totalCount }

    /// The official `--json` document: `path` (the database, or null for several), `stores` and
    /// `allAgents` only when aggregating, then the counts and the rows.
    @_spi(Engine) public var document: JSONValue {
        var object: JSONObject = [:]
        object["path"] = isAggregate || targets.isEmpty ? .null : .string(targets[0].databasePath)
        if isAggregate {
            object["stores"] = .array(targets.map { ["agentId": .string($0.agentId), "path": .string($0.databasePath)] })
        }
        if allAgents { object["allAgents"] = true }
        object["count"] = JSONValue(rows.count)
        object["totalCount"] = JSONValue(totalCount)
        object["limitApplied"] = limit.map { JSONValue($0) } ?? .null
        object["hasMore"] = .bool(hasMore)
        object["activeMinutes"] = activeMinutes.map { JSONValue($0) } ?? .null
        object["sessions"] = .array(rows.map(JSONValue.object))
        return .object(object)
    }
}
