import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawState

/// The listing over read records: the flags' values, `--active`, the sort, `--limit`, and the
/// official row and document (openclaw/openclaw `src/commands/sessions.ts` @00d3a170,
/// `src/commands/sessions-table.ts`, `src/commands/sessions.test.ts` @00d3a170).
@Suite struct SessionStoreListingTests {
    static let now: Int64 = 1_790_000_000_000

    private func config(_ json: String = "{}") throws -> SessionStoreConfig {
        try SessionStoreConfig(config: GatewayConfigFile.parse(Array(json.utf8), path: "/x/openclaw.json"), environment: Environment([:]))
    }

    private func row(_ entry: JSONValue, key: String = "agent:main:main", config json: String = "{}") throws -> JSONObject {
        let projection = SessionRowProjection(config: try config(json), nowMs: Self.now)
        return projection.row(SessionEntryRecord(sessionKey: key, entry: try #require(entry.objectValue)), storeAgentId: "main").row
    }

    @Test(arguments: [("30", 30), (" 7 ", 7), ("1", 1)])
    func activeMinutes(_ text: String, _ value: Int) throws {
        #expect(try SessionListing.parseActive(text) == value)
    }

    @Test(arguments: ["10m", "0", "-5", "1.5", "", "abc", "1e3", "+3"])
    func badActiveMinutes(_ text: String) {
        #expect(throws: SessionStoreError(.usage, "--active must be a positive number of minutes, for example --active 30.")) {
            try SessionListing.parseActive(text)
        }
    }

    @Test func limits() throws {
        #expect(try SessionListing.parseLimit(nil) == 100)
        #expect(try SessionListing.parseLimit("25") == 25)
        #expect(try SessionListing.parseLimit("ALL") == nil)
        #expect(try SessionListing.parseLimit(" all ") == nil)
        for bad in ["0", "-1", "2.5", "many", "", "0x10"] {
            #expect(throws: SessionStoreError(.usage, #"--limit must be a positive integer or "all", for example --limit 25."#)) {
                try SessionListing.parseLimit(bad)
            }
        }
    }

    /// The row of `sessions.test.ts` "exports session color and subagent lineage metadata": every
    /// field in the order `toSessionDisplayRow` sets it, `sessionFile` never.
    @Test func theRowKeepsTheOfficialFieldOrder() throws {
        let entry: JSONValue = [
            "sessionId": "child-session", "updatedAt": JSONValue(Self.now - 600_000), "sessionFile": "/x/child.jsonl",
            "spawnedBy": "agent:main:main", "spawnedWorkspaceDir": "/workspace/project", "spawnedCwd": "/workspace/project/tasks",
            "parentSessionKey": "agent:main:main", "forkedFromParent": true, "spawnDepth": 1, "subagentRole": "leaf",
            "subagentControlScope": "none", "sessionStartedAt": JSONValue(Self.now - 1_200_000),
            "lastInteractionAt": JSONValue(Self.now - 300_000), "label": "research helper", "color": "blue", "status": "done",
            "model": "test:opus", "chatType": "direct",
        ]
        let row = try row(entry, key: "agent:main:child")
        #expect(row.keys == ["key", "updatedAt", "ageMs", "sessionId", "spawnedBy", "spawnedWorkspaceDir", "spawnedCwd",
                             "parentSessionKey", "forkedFromParent", "spawnDepth", "subagentRole", "subagentControlScope",
                             "sessionStartedAt", "lastInteractionAt", "label", "color", "status", "visibility", "totalTokens",
                             "totalTokensFresh", "model", "modelProvider", "contextTokens", "agentId", "acpRuntime",
                             "agentRuntime", "kind"])
        #expect(row["ageMs"] == 600_000)
        #expect(row["visibility"] == "shared")
        #expect(row["kind"] == "spawn-child")
        #expect(row["totalTokens"] == .null && row["totalTokensFresh"] == false && row["contextTokens"] == .null)
        #expect(row["model"] == "test:opus" && row["modelProvider"] == "openai-codex")
        #expect(row["agentRuntime"] == ["id": "openclaw", "source": "implicit"])
    }

    /// `sessions.test.ts` "preserves recorded tokens without freshness provenance in text and JSON":
    /// a fresh total without `totalTokensVersion: 1` is not fresh.
    @Test func freshTotalsNeedTheCurrentAccounting() throws {
        let stale = try row(["sessionId": "boundary-session", "updatedAt": JSONValue(Self.now - 60_000), "totalTokens": 49,
                             "totalTokensFresh": true, "contextTokens": 200_000, "modelSelectionLocked": true, "model": "test:opus"],
                            key: "agent:main:boundary")
        #expect(stale["totalTokens"] == 49 && stale["totalTokensFresh"] == false && stale["contextTokens"] == 200_000)
        let fresh = try row(["sessionId": "x", "updatedAt": 1, "totalTokens": 11, "totalTokensFresh": true, "totalTokensVersion": 1])
        #expect(fresh["totalTokensFresh"] == true && fresh["totalTokensVersion"] == 1)
        let negative = try row(["sessionId": "x", "updatedAt": 1, "totalTokens": -3])
        #expect(negative["totalTokens"] == .null)
    }

    static let kindCases: [(String, JSONObject, String)] = [
        ("global", JSONObject(), "global"), ("unknown", [:], "unknown"), ("agent:main:cron:nightly", [:], "cron"),
        ("agent:main:x", ["spawnedBy": "agent:main:main"], "spawn-child"), ("agent:main:x", ["chatType": "channel"], "group"),
        ("agent:main:quietchat:group:demo", [:], "group"), ("agent:main:main", [:], "direct"), ("agent:main:x", ["spawnedBy": ""], "direct"),
        ("agent:main:cron:x", ["spawnedBy": "agent:main:main"], "cron"),
    ]

    @Test(arguments: kindCases)
    func kinds(_ key: String, _ entry: JSONObject, _ kind: String) {
        #expect(SessionKind.classify(key: key, entry: entry).rawValue == kind)
    }

    /// `sessions.test.ts`: the override wins, a nested model keeps its own provider prefix; a CLI
    /// runtime is shown as the provider it runs; a router keeps its recorded provider and window.
    @Test func theModelShownAndItsRuntime() throws {
        let nested = try row(["sessionId": "s", "updatedAt": 1, "providerOverride": "clawrouter", "modelOverride": "openai/gpt-5.6"])
        #expect(nested["model"] == "openai/gpt-5.6" && nested["modelProvider"] == "clawrouter")
        let prefixed = try row(["sessionId": "s", "updatedAt": 1, "providerOverride": "openai", "modelOverride": "openai/gpt-5.6"])
        #expect(prefixed["model"] == "gpt-5.6" && prefixed["modelProvider"] == "openai")

        let claude = """
            { agents: { defaults: { model: { primary: "anthropic/claude-opus-4-7" },
              models: { "anthropic/claude-opus-4-7": { agentRuntime: { id: "claude-cli" } } } } } }
            """
        let cli = try row(["sessionId": "main-session", "updatedAt": 1, "modelProvider": "claude-cli", "model": "claude-opus-4-7"], config: claude)
        #expect(cli["model"] == "claude-opus-4-7" && cli["modelProvider"] == "anthropic")
        #expect(cli["agentRuntime"] == ["id": "claude-cli", "source": "model"])

        let router = """
            { agents: { defaults: { model: { primary: "openai/gpt-5.6" }, models: {
                "clawrouter/openai/gpt-5.6": { agentRuntime: { id: "openclaw" } }, "openai/gpt-5.6": { agentRuntime: { id: "codex" } } } } },
              models: { providers: { clawrouter: { models: [{ id: "openai/gpt-5.6", contextTokens: 272000 }] },
                openai: { models: [{ id: "gpt-5.6", contextTokens: 1000000, contextWindow: 1050000 }] } } } }
            """
        let routed = try row(["sessionId": "router-owned-session", "updatedAt": 1, "modelProvider": "clawrouter", "model": "openai/gpt-5.6",
                              "agentHarnessId": "openclaw", "contextTokens": 272_000, "contextTokensSource": "runtime"], config: router)
        #expect(routed["modelProvider"] == "clawrouter" && routed["model"] == "openai/gpt-5.6")
        #expect(routed["agentRuntime"] == ["id": "openclaw", "source": "model"] && routed["contextTokens"] == 272_000)

        let codex = """
            { agents: { defaults: { model: { primary: "openai/gpt-5.6-luna" }, models: { "openai/gpt-5.6-luna": { agentRuntime: { id: "codex" } } } } },
              models: { providers: { openai: { models: [{ id: "gpt-5.6-luna", contextTokens: 1000000, contextWindow: 1050000 }] } } } }
            """
        // The window the stale harness recorded is not this runtime's: the configured one is shown.
        let switched = try row(["sessionId": "stale-openclaw-window", "updatedAt": 1, "modelProvider": "openai", "model": "gpt-5.6-luna",
                                "agentHarnessId": "openclaw", "contextTokens": 272_000, "contextTokensSource": "runtime"], config: codex)
        #expect(switched["agentRuntime"] == ["id": "codex", "source": "model"] && switched["contextTokens"] == 1_000_000)

        let locked = try row(["sessionId": "locked-codex-session", "updatedAt": 1, "modelProvider": "openai", "model": "gpt-5.5",
                              "agentHarnessId": "codex", "agentRuntimeOverride": "openclaw", "modelSelectionLocked": true])
        #expect(locked["agentRuntime"] == ["id": "codex", "source": "session"])
    }

    @Test func collaborationFieldsAndNulls() throws {
        let row = try row(["sessionId": "shared-session", "updatedAt": 1, "visibility": "suggest", "label": .null,
                           "createdActor": ["type": "human", "source": "profile", "id": "profile-creator", "label": "Creator"],
                           "owner": ["actor": ["type": "human", "id": "profile-owner"]], "forkSource": ["sessionKey": "agent:main:main"]])
        #expect(row["visibility"] == "suggest")
        #expect(row["label"] == .null)  // held as null: printed as null
        #expect(row["forkedFromParent"] == true)
        #expect(row.keys.firstIndex(of: "createdActor")! < row.keys.firstIndex(of: "owner")!)
    }

    @Test func filtersSortsAndLimitsAcrossStores() throws {
        let dir = ConfigTestDirectory()
        let main = try AgentDatabaseFixture(path: dir.sub("state/agents/main/agent/openclaw-agent.sqlite"))
        let work = try AgentDatabaseFixture(path: dir.sub("state/agents/work/agent/openclaw-agent.sqlite"), agentId: "work")
        try main.insert("agent:main:a", SessionStoreReaderTests.entry("a", Self.now - 5 * 60_000))
        try main.insert("agent:main:b", SessionStoreReaderTests.entry("b", Self.now - 60 * 60_000))
        try main.insert("agent:main:c", SessionStoreReaderTests.entry("c", Self.now - 60_000))
        try work.insert("agent:work:a", SessionStoreReaderTests.entry("wa", Self.now - 60_000))
        try work.insert("global", SessionStoreReaderTests.entry("wg", Self.now - 10 * 60_000))
        let config = try self.config("{ agents: { list: [{ id: 'main' }, { id: 'work' }] } }")
        let targets = try SessionStoreTargets(config: config, stateDirectory: dir.sub("state"), environment: Environment([:]), profile: nil)
            .resolve(SessionStoreSelection(allAgents: true))
        #expect(targets.map(\.agentId) == ["main", "work"])

        let all = try SessionListing.list(targets: targets, allAgents: true, activeMinutes: nil, limit: nil, config: config, nowMs: Self.now)
        // Newest first; the tie keeps store order (main's before work's).
        #expect(all.rows.map { $0["key"]?.stringValue } == ["agent:main:c", "agent:work:a", "agent:main:a", "global", "agent:main:b"])
        #expect(all.rows.map { $0["agentId"]?.stringValue } == ["main", "work", "main", "work", "main"])
        #expect(all.totalCount == 5 && !all.hasMore)

        let recent = try SessionListing.list(targets: targets, allAgents: true, activeMinutes: 6, limit: 2, config: config, nowMs: Self.now)
        #expect(recent.rows.map { $0["key"]?.stringValue } == ["agent:main:c", "agent:work:a"])
        #expect(recent.totalCount == 3 && recent.hasMore)
        let document = recent.document
        #expect(document.objectValue?.keys == ["path", "stores", "allAgents", "count", "totalCount", "limitApplied", "hasMore",
                                               "activeMinutes", "sessions"])
        #expect(document["path"] == .null && document["count"] == 2 && document["totalCount"] == 3 && document["limitApplied"] == 2)
        #expect(document["hasMore"] == true && document["activeMinutes"] == 6)
        #expect(document["stores"] == [["agentId": "main", "path": .string(main.path)], ["agentId": "work", "path": .string(work.path)]])

        let single = try SessionListing.list(targets: [targets[1]], allAgents: false, activeMinutes: nil, limit: nil, config: config, nowMs: Self.now)
        #expect(single.document.objectValue?.keys == ["path", "count", "totalCount", "limitApplied", "hasMore", "activeMinutes", "sessions"])
        #expect(single.document["path"] == .string(work.path) && single.document["limitApplied"] == .null)
    }
}
