@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// One listed session as the official `--json` row (openclaw/openclaw `src/commands/sessions-table.ts`
/// `toSessionDisplayRow`, then `src/commands/sessions.ts` @00d3a170). The keys keep the official
/// order: JavaScript keeps an object's keys in the order they were first set, and the command sets
/// `totalTokens`, `totalTokensFresh`, `model`, `modelProvider` and `contextTokens` again on keys
/// `toSessionDisplayRow` created, so those stay where that function put them; `agentId`, `acpRuntime`,
/// `agentRuntime`, `kind` and `runtimePolicySessionKey` follow. A field the entry lacks is left out
/// (`JSON.stringify` drops `undefined`); one it holds as `null` is printed as `null`.
struct SessionRowProjection {
    let config: SessionStoreConfig
    let nowMs: Int64

    /// The entry fields `toSessionDisplayRow` copies, in its order, with the places the command fills.
    private enum Field {
        case copy(String)
        case visibility, forkedFromParent, totalTokens, totalTokensFresh, model, modelProvider, contextTokens
    }

    private static let fields: [Field] = [
        .copy("sessionId"), .copy("spawnedBy"), .copy("spawnedWorkspaceDir"), .copy("spawnedCwd"), .copy("parentSessionKey"),
        .forkedFromParent, .copy("spawnDepth"), .copy("subagentRole"), .copy("subagentControlScope"),
        .copy("sessionStartedAt"), .copy("lastInteractionAt"), .copy("label"), .copy("color"), .copy("status"),
        .visibility, .copy("createdActor"), .copy("owner"), .copy("participants"), .copy("participantCount"),
        .copy("systemSent"), .copy("abortedLastRun"), .copy("thinkingLevel"), .copy("verboseLevel"), .copy("traceLevel"),
        .copy("reasoningLevel"), .copy("elevatedLevel"), .copy("responseUsage"), .copy("groupActivation"),
        .copy("inputTokens"), .copy("outputTokens"), .totalTokens, .totalTokensFresh, .copy("totalTokensVersion"),
        .model, .modelProvider, .copy("providerOverride"), .copy("modelOverride"), .contextTokens,
    ]

    /// The row, and the label of its runtime for the text table.
    func row(_ record: SessionEntryRecord, storeAgentId: String) -> (row: JSONObject, runtimeLabel: String) {
        let entry = record.entry
        let key = record.sessionKey
        // The row's agent: the one its key names, else the store's.
        let agentId = AgentSessionKey.parse(key)?.agentId ?? storeAgentId
        let display = SessionDisplayModel(config: config)
        let ref = display.ref(entry: entry, key: key, agentId: agentId)
        let runtime = display.runtime(entry: entry, ref: ref, agentId: agentId)
        let contextTokens = display.contextTokens(entry: entry, ref: ref, runtime: runtime.id, agentId: agentId)

        var row: JSONObject = ["key": .string(key)]
        let updatedAt = entry["updatedAt"] ?? .null
        row["updatedAt"] = updatedAt
        let stamp = updatedAt.doubleValue ?? 0
        row["ageMs"] = stamp != 0 ? .number(JSONValue.javaScriptNumberText(String(Double(nowMs) - stamp))) : .null
        for field in Self.fields {
            switch field {
            case .copy(let name):
                if let value = entry[name] { row[name] = value }
            case .visibility:
                row["visibility"] = entry["visibility"].flatMap { $0.isNull ? nil : $0 } ?? "shared"
            case .forkedFromParent:
                if entry["forkSource"] != nil || entry["forkedFromParent"]?.boolValue == true { row["forkedFromParent"] = true }
            case .totalTokens:
                row["totalTokens"] = Self.totalTokens(entry).map { .number(JSONValue.javaScriptNumberText(String($0))) } ?? .null
            case .totalTokensFresh:
                row["totalTokensFresh"] = .bool(Self.freshTotalTokens(entry) != nil)
            case .model:
                row["model"] = .string(ref.model)
            case .modelProvider:
                row["modelProvider"] = .string(ref.provider)
            case .contextTokens:
                row["contextTokens"] = contextTokens.map { JSONValue($0) } ?? .null
            }
        }
        row["agentId"] = .string(agentId)
        row["acpRuntime"] = false
        row["agentRuntime"] = ["id": .string(runtime.id), "source": .string(runtime.source)]
        row["kind"] = .string(SessionKind.classify(key: key, entry: entry).rawValue)
        return (row, display.runtimeLabel(entry: entry, runtime: runtime.id, ref: ref))
    }

    /// `resolveSessionTotalTokens`: a non-negative finite `totalTokens`.
    static func totalTokens(_ entry: JSONObject) -> Double? {
        guard let total = entry["totalTokens"]?.doubleValue, total.isFinite, total >= 0 else { return nil }
        return total
    }

    /// `resolveFreshSessionTotalTokens`: the total only when the entry says it is fresh under the
    /// current accounting (`totalTokensFresh: true` and `totalTokensVersion: 1`).
    static func freshTotalTokens(_ entry: JSONObject) -> Double? {
        guard let total = totalTokens(entry), entry["totalTokensFresh"]?.boolValue == true,
              entry["totalTokensVersion"]?.doubleValue == 1 else { return nil }
        return total
    }
}
