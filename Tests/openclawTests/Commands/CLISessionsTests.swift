import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@testable import openclaw

/// `openclaw sessions` / `sessions list` through the real binary, on state directories laid out as a
/// current OpenClaw lays them out (`~/.openclaw/agents/<id>/agent/openclaw-agent.sqlite`, built with the
/// official v19 DDL by `OfficialAgentDatabase`), and against the simulator for a remote gateway.
/// What the official CLI does is openclaw/openclaw `src/commands/sessions.ts` and
/// `src/commands/sessions.test.ts` @00d3a170.
@Suite struct CLISessionsTests {
    /// The instant the fixture rows are relative to (2025-09-16).
    static let base: Int64 = 1_758_000_000_000

    /// A CLI with its own HOME whose `~/.openclaw` holds `config` and the agents' databases.
    struct State {
        let cli = CLIEnvironment()
        var directory: URL { cli.stateDirectory }

        init(config: String = "{ agents: { list: [{ id: 'main' }, { id: 'work' }] } }") throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(config.utf8).write(to: directory.appendingPathComponent("openclaw.json"))
        }

        func databasePath(_ agent: String) -> String {
            directory.appendingPathComponent("agents/\(agent)/agent/openclaw-agent.sqlite").path
        }

        func database(_ agent: String, version: Int = 19) throws -> OfficialAgentDatabase {
            try OfficialAgentDatabase(path: databasePath(agent), agentId: agent, userVersion: version)
        }

        func run(_ arguments: [String]) throws -> CLIResult { try cli.run(arguments) }

        /// Every file under the state directory with its bytes, but the bytes of a `-shm`: that is
        /// SQLite's shared-memory WAL index, which every reader of a WAL database writes its read mark
        /// into (the official reader too); its presence still counts.
        func files() -> [String: Data] {
            var out: [String: Data] = [:]
            let root = directory.path
            for case let relative as String in FileManager.default.enumerator(atPath: root) ?? FileManager.DirectoryEnumerator() {
                let path = root + "/" + relative
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    out[relative] = relative.hasSuffix("-shm") ? Data() : FileManager.default.contents(atPath: path)
                }
            }
            return out
        }
    }

    static func entry(_ object: JSONObject) -> JSONValue { .object(object) }

    private func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// The rows of `src/commands/sessions.test.ts` @00d3a170 ("exports session color and subagent
    /// lineage metadata", "preserves recorded tokens without freshness provenance", "preserves
    /// collaboration metadata"), written as the official session writer stores them.
    private func officialRows(_ db: OfficialAgentDatabase) throws {
        let t = Self.base
        try db.insert("agent:main:child", Self.entry([
            "sessionId": "child-session", "updatedAt": JSONValue(t - 600_000), "spawnedBy": "agent:main:main",
            "spawnedWorkspaceDir": "/workspace/project", "spawnedCwd": "/workspace/project/tasks", "parentSessionKey": "agent:main:main",
            "forkedFromParent": true, "spawnDepth": 1, "subagentRole": "leaf", "subagentControlScope": "none",
            "sessionStartedAt": JSONValue(t - 1_200_000), "lastInteractionAt": JSONValue(t - 300_000), "label": "research helper",
            "color": "blue", "status": "done", "model": "test:opus",
        ]), extra: ["parent_session_key": "'agent:main:main'", "spawned_by": "'agent:main:main'", "label": "'research helper'",
                    "status": "'done'", "created_at": String(t - 1_200_000)])
        try db.insert("agent:main:uncolored", Self.entry(["sessionId": "uncolored-session", "updatedAt": JSONValue(t)]))
        try db.insert("agent:main:boundary", Self.entry([
            "sessionId": "boundary-session", "updatedAt": JSONValue(t - 60_000), "totalTokens": 49, "totalTokensFresh": true,
            "contextTokens": 200_000, "modelSelectionLocked": true, "model": "test:opus",
        ]))
        try db.insert("agent:main:shared", Self.entry([
            "sessionId": "shared-session", "updatedAt": JSONValue(t - 60_000), "model": "test:opus", "visibility": "suggest",
            "createdActor": ["type": "human", "source": "profile", "id": "profile-creator", "label": "Creator"],
        ]), extra: ["owner_actor_type": "'human'", "owner_actor_id": "'profile-owner'", "owner_assigned_by_type": "'human'",
                    "owner_assigned_by_id": "'profile-admin'", "owner_assigned_at": String(t - 30_000)])
        for (n, id) in ["profile-ada", "profile-ben", "profile-cam", "profile-dee", "profile-eli"].enumerated() {
            try db.exec("INSERT INTO session_participants VALUES ('agent:main:shared', '{\"type\":\"profile\"}', '\(id)', 1, \(t - 50_000 + Int64(n)), \(t - 50_000 + Int64(n)))")
        }
    }

    /// `--json` is the official document: the expected one (Tests/Fixtures/sessions-list-official.json)
    /// was written from `sessions.ts`/`sessions-table.ts` @00d3a170 for the rows of `sessions.test.ts`.
    @Test func theJSONDocumentIsTheOfficialOne() throws {
        let state = try State(config: "{ agents: { defaults: { model: { primary: 'test/opus' } }, list: [{ id: 'main' }, { id: 'work' }] } }")
        try officialRows(try state.database("main"))
        let before = now()
        let result = try state.run(["sessions", "--json"])
        let after = now()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        var document = try JSONValue.parse(result.stdout)
        // ageMs is the clock's: now minus updatedAt at the time of the run.
        guard case .object(var object) = document, case .array(var rows)? = object["sessions"] else { Issue.record("\(document)"); return }
        for index in rows.indices {
            guard case .object(var row) = rows[index], let updatedAt = row["updatedAt"]?.int64Value, let age = row["ageMs"]?.int64Value else {
                Issue.record("row \(index)"); return
            }
            #expect(age >= before - updatedAt - 5 && age <= after - updatedAt + 5)
            row["ageMs"] = 0
            rows[index] = .object(row)
        }
        object["sessions"] = .array(rows)
        document = .object(object)
        let fixture = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fixtures/sessions-list-official.json").standardizedFileURL, encoding: .utf8)
        let expected = try JSONValue.parse(fixture.replacingOccurrences(of: "__DB__", with: state.databasePath("main")))
        // Field for field, in the official order (the text compares order too, and reads better when it fails).
        #expect(document.prettyText == expected.prettyText)
        // JSON.stringify with two spaces, then one newline.
        #expect(result.stdout.hasSuffix("}\n") && !result.stdout.hasSuffix("\n\n"))
        #expect(result.stdout.hasPrefix("{\n  \"path\": "))

        // `sessions list` is the same command.
        let list = try state.run(["sessions", "list", "--json"])
        #expect(list.status == 0)
        #expect(try JSONValue.parse(list.stdout)["count"] == 4)
    }

    @Test func theTextListsTheStoreTheCountAndTheTable() throws {
        let state = try State(config: """
            { agents: { defaults: { model: { primary: 'anthropic/claude-opus-4-7' },
              models: { 'anthropic/claude-opus-4-7': { agentRuntime: { id: 'claude-cli' } } } }, list: [{ id: 'main' }] } }
            """)
        let db = try state.database("main")
        let t = now()
        try db.insert("agent:main:main", Self.entry(["sessionId": "main-session", "updatedAt": JSONValue(t - 60_000),
                                                      "modelProvider": "claude-cli", "model": "claude-opus-4-7"]))
        try db.insert("agent:main:quietchat:group:demo", Self.entry(["sessionId": "xyz", "updatedAt": JSONValue(t - 5 * 60_000),
                                                                      "thinkingLevel": "high", "totalTokens": 11, "totalTokensFresh": true,
                                                                      "totalTokensVersion": 1, "contextTokens": 1_000_000]))
        let result = try state.run(["sessions"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.lines
        #expect(lines.prefix(2) == ["Session store: \(state.databasePath("main"))", "Sessions listed: 2"])
        let cells = lines.filter { $0.hasPrefix("│") }.map { line in
            line.split(separator: "│", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
        }
        #expect(cells.first == ["Kind", "Key", "Age", "Model", "Runtime", "Tokens (ctx %)", "Flags"])
        // The first cells of the two rows (the flags may wrap onto a second line).
        let rows = cells.dropFirst().filter { !$0[0].isEmpty }
        // `sessions.test.ts` "renders the agent runtime in the tabular view" and "shows placeholder rows":
        // a CLI runtime's label, a long key cut to its first 16 and last 6 graphemes.
        #expect(rows.map { Array($0.prefix(6)) } == [
            ["direct", "agent:main:main", "1m ago", "claude-opus-4-7", "Claude CLI", "unknown/? (?%)"],
            ["group", "agent:main:quiet...p:demo", "5m ago", "claude-opus-4-7", "Claude CLI", "11/1.0m (0%)"],
        ])
        #expect(lines.first { $0.hasPrefix("└") } != nil)
        #expect(result.stdout.contains("think:high"))
        #expect(result.stdout.replacingOccurrences(of: "│", with: " ").split(whereSeparator: \.isWhitespace).contains("id:main-session"))
    }

    @Test func activeAndLimitFilterAndCount() throws {
        let state = try State()
        let db = try state.database("main")
        let t = now()
        for (n, minutes) in [1, 3, 30, 300].enumerated() {
            try db.insert("agent:main:s\(n)", Self.entry(["sessionId": .string("s\(n)"), "updatedAt": JSONValue(t - Int64(minutes) * 60_000)]))
        }
        let active = try JSONValue.parse(try state.run(["sessions", "--json", "--active", "10"]).stdout)
        #expect(active["activeMinutes"] == 10 && active["totalCount"] == 2 && active["count"] == 2)
        #expect(active["sessions"]?.arrayValue?.map { $0["key"] } == ["agent:main:s0", "agent:main:s1"])

        let limited = try state.run(["sessions", "--limit", "2"])
        #expect(limited.status == 0)
        #expect(limited.lines[1] == "Sessions listed: 2 of 4 (limit 2)")
        let json = try JSONValue.parse(try state.run(["sessions", "list", "--limit", "2", "--json"]).stdout)
        #expect(json["count"] == 2 && json["totalCount"] == 4 && json["limitApplied"] == 2 && json["hasMore"] == true)
        let all = try JSONValue.parse(try state.run(["sessions", "--limit", "ALL", "--json"]).stdout)
        #expect(all["count"] == 4 && all["limitApplied"] == .null && all["hasMore"] == false)

        let both = try state.run(["sessions", "--active", "10", "--limit", "1"])
        #expect(both.lines.prefix(3) == ["Session store: \(state.databasePath("main"))", "Sessions listed: 1 of 2 (limit 1)",
                                         "Filtered to last 10 minute(s)"])
    }

    @Test func allAgentsListsEveryStoreIncludingRetiredOnes() throws {
        let state = try State()
        let t = now()
        try state.database("main").insert("agent:main:main", Self.entry(["sessionId": "m", "updatedAt": JSONValue(t - 60_000)]))
        try state.database("work").insert("agent:work:main", Self.entry(["sessionId": "w", "updatedAt": JSONValue(t - 120_000)]))
        try state.database("retired").insert("agent:retired:main", Self.entry(["sessionId": "r", "updatedAt": JSONValue(t - 1_000)]))
        let json = try JSONValue.parse(try state.run(["sessions", "--all-agents", "--json"]).stdout)
        #expect(json.objectValue?.keys == ["path", "stores", "allAgents", "count", "totalCount", "limitApplied", "hasMore", "activeMinutes", "sessions"])
        #expect(json["path"] == .null && json["allAgents"] == true)
        #expect(json["stores"] == .array(["main", "work", "retired"].map { ["agentId": .string($0), "path": .string(state.databasePath($0))] }))
        #expect(json["sessions"]?.arrayValue?.map { $0["agentId"] } == ["retired", "main", "work"])

        let text = try state.run(["sessions", "--all-agents"])
        #expect(text.lines.prefix(2) == ["Session stores: 3 (main, work, retired)", "Sessions listed: 3"])
        #expect(text.lines.contains { $0.hasPrefix("│ Agent ") })

        let work = try JSONValue.parse(try state.run(["sessions", "--agent", "WORK", "--json"]).stdout)
        #expect(work["path"] == .string(state.databasePath("work")) && work["count"] == 1)
    }

    @Test func aStorePathNamesItsDatabase() throws {
        let state = try State()
        try state.database("work").insert("agent:work:a", Self.entry(["sessionId": "a", "updatedAt": JSONValue(now())]))
        let legacy = state.directory.appendingPathComponent("agents/work/sessions/sessions.json").path
        let json = try JSONValue.parse(try state.run(["sessions", "--store", legacy, "--json"]).stdout)
        #expect(json["path"] == .string(state.databasePath("work")))
        #expect(json["sessions"]?.arrayValue?.map { $0["key"] } == ["agent:work:a"])

        let missing = state.directory.appendingPathComponent("nowhere/sessions.json").path
        let failed = try state.run(["sessions", "--store", missing, "--json"])
        let message = "Session store target does not exist: \(state.directory.appendingPathComponent("nowhere/openclaw-agent.sqlite").path)"
            + " (resolved from --store \"\(missing)\"). Pass a selector whose resolved SQLite target exists."
        #expect(failed.status == 1)
        #expect(try JSONValue.parse(failed.stdout) == ["ok": false, "error": ["type": "cli_error", "message": .string(message)]])
        #expect(failed.stderr.split(separator: "\n").count == 1 && failed.stderr.contains(message))
    }

    /// No database yet (or no agent directory at all): an empty list, and nothing created.
    @Test func aMissingStoreIsAnEmptyListAndCreatesNothing() throws {
        let state = try State()
        let before = state.files()
        let text = try state.run(["sessions"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "Session store: \(state.databasePath("main"))\nSessions listed: 0\nNo sessions found.\n")
        let json = try state.run(["sessions", "--json"])
        #expect(try JSONValue.parse(json.stdout) == ["path": .string(state.databasePath("main")), "count": 0, "totalCount": 0,
                                                      "limitApplied": 100, "hasMore": false, "activeMinutes": .null, "sessions": []])
        #expect(state.files() == before)
    }

    @Test func aNewerSchemaIsRefused() throws {
        let state = try State()
        let db = try state.database("main", version: 25)
        try db.insert("agent:main:main", Self.entry(["sessionId": "s", "updatedAt": JSONValue(now())]))
        let before = state.files()
        let message = "OpenClaw agent database \(db.path) uses newer schema version 25; this OpenClaw build supports 24."
            + " Upgrade OpenClaw before opening this database. Do not downgrade OpenClaw or modify the database."
            + " To run this older build, use a separate state directory or restore a compatible backup."
            + " See https://docs.openclaw.ai/reference/database-schemas."
        let text = try state.run(["sessions"])
        #expect(text.status == 1 && text.stdout.isEmpty)
        #expect(text.stderr.contains(message))
        let json = try state.run(["sessions", "--json"])
        #expect(json.status == 1)
        #expect(try JSONValue.parse(json.stdout) == ["ok": false, "error": ["type": "cli_error", "message": .string(message)]])
        #expect(state.files() == before)
    }

    /// The gateway holds the database in WAL mode and is in the middle of a write: the listing shows
    /// the committed rows at once and leaves every byte of the database family as it was.
    @Test func aDatabaseAWriterHoldsOpenIsReadBesideIt() throws {
        let state = try State()
        let db = try state.database("main")
        try db.insert("agent:main:main", Self.entry(["sessionId": "committed", "updatedAt": JSONValue(now())]))
        let release = try db.holdWrite("INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at)"
            + #" VALUES ('agent:main:new', 'n', '{"sessionId":"n","updatedAt":2000}', 2000);"#)
        defer { release() }
        let before = state.files()
        #expect(before.keys.contains("agents/main/agent/openclaw-agent.sqlite-wal"))
        let started = Date()
        let result = try state.run(["sessions", "--json"])
        #expect(Date().timeIntervalSince(started) < 4, "waited on the writer's lock")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try JSONValue.parse(result.stdout)["sessions"]?.arrayValue?.map { $0["sessionId"] } == ["committed"])
        #expect(state.files() == before)
    }

    @Test func badFlagValuesAreUsageErrorsInTheOfficialWords() throws {
        let state = try State()
        let cases: [([String], String)] = [
            (["--active", "10m"], "--active must be a positive number of minutes, for example --active 30."),
            (["--limit", "0"], #"--limit must be a positive integer or "all", for example --limit 25."#),
            (["--agent", "main", "--all-agents"], "--agent and --all-agents cannot be used together"),
            (["--store", "x", "--all-agents"], "--store cannot be combined with --all-agents"),
            (["--agent", "nope"], #"Unknown agent id "nope". Run openclaw agents list to see configured agents."#),
            (["list", "extra"], "too many arguments for 'list'. Expected 0 arguments but got 1."),
        ]
        for (arguments, message) in cases {
            let text = try state.run(["sessions"] + arguments)
            #expect(text.status == 2, "\(arguments)")
            #expect(text.stdout.isEmpty && text.stderr.contains(message), "\(arguments): \(text.stderr)")
            let json = try state.run(["sessions", "--json"] + arguments)
            #expect(json.status == 2)
            #expect(try JSONValue.parse(json.stdout) == ["ok": false, "error": ["type": "cli_error", "message": .string(message)]], "\(arguments)")
        }
    }

    /// With a remote gateway (`OPENCLAW_GATEWAY_URL`), its `sessions.list`, every page, in the same
    /// document. The simulator pages as the gateway does (`limit`, `offset`, `nextOffset`).
    @Test func aRemoteGatewayIsListedPageByPage() throws {
        let gateway = try GatewayFixture(["--sessions", "250"])
        let all = try gateway.run(["sessions", "--json", "--limit", "all"])
        #expect(all.status == 0, "\(all.stderr)")
        let document = try JSONValue.parse(all.stdout)
        #expect(document.objectValue?.keys == ["path", "count", "totalCount", "limitApplied", "hasMore", "activeMinutes", "sessions"])
        #expect(document["count"] == 250 && document["totalCount"] == 250 && document["hasMore"] == false && document["limitApplied"] == .null)
        #expect(document["sessions"]?.arrayValue?.compactMap { $0["key"]?.stringValue } == (1...250).map { "agent:main:s" + String(format: "%04d", $0) })
        #expect(document["path"]?.stringValue?.isEmpty == false)
        let pages = gateway.simulator.logEntries().compactMap { entry -> JSONValue? in
            guard entry["dir"]?.stringValue == "in", entry["frame"]?["method"]?.stringValue == GatewayMethod.sessionsList else { return nil }
            return entry["frame"]?["params"]
        }
        #expect(pages.map { $0["offset"] } == [nil, 100, 200])
        #expect(pages.allSatisfy { $0["limit"] == 100 })

        let some = try JSONValue.parse(try gateway.run(["sessions", "--json", "--limit", "150"]).stdout)
        #expect(some["count"] == 150 && some["totalCount"] == 250 && some["hasMore"] == true && some["limitApplied"] == 150)
        let text = try gateway.run(["sessions", "--limit", "3"])
        #expect(text.lines[1] == "Sessions listed: 3 of 250 (limit 3)")
    }

    @Test func aRemoteGatewayThatNeverEndsStopsPaging() throws {
        var calls = 0
        let pages = try SessionsRemote.collect(limit: nil) { offset, size in
            calls += 1
            // The same page again and again, its nextOffset never moving on.
            return ["path": "/p", "sessions": [["key": "a"], ["key": "b"]], "nextOffset": JSONValue(offset + size)]
        }
        #expect(pages.rows.count == 2 && calls == 2)
        calls = 0
        let endless = try SessionsRemote.collect(limit: nil) { offset, _ in
            calls += 1
            return ["sessions": [["key": .string("k\(offset)")]], "nextOffset": JSONValue(offset + 1)]
        }
        #expect(calls == SessionsRemote.maxPages && endless.rows.count == SessionsRemote.maxPages)
        let backwards = try SessionsRemote.collect(limit: nil) { offset, _ in
            ["sessions": [["key": .string("k\(offset)")]], "nextOffset": 0]
        }
        #expect(backwards.rows.count == 1)
    }

    /// The cells of the text table (`src/commands/sessions-table.ts`, `src/utils/token-format.ts`,
    /// `src/infra/format-time/format-relative.ts`; the strings of `sessions.test.ts` "sanitizes persisted
    /// identifiers only for terminal output").
    @Test func theTableCellsAreTheOfficialOnes() {
        #expect(SessionsText.sanitize("agent:main:\u{1B}[31mpeer\nrow") == "agent:main:peer\\nrow")
        #expect(SessionsText.sanitize("session-\u{1B}[31mid\r\nforged-id") == "session-id\\r\\nforged-id")
        #expect(SessionsText.sanitize("model-\u{1B}]0;session-model\u{07}🦞\tvariant") == "model-🦞\\tvariant")
        #expect(SessionsText.keyCell("agent:main:quietchat:group:demo") == "agent:main:quiet...p:demo")
        #expect(SessionsText.keyCell("agent:main:東京") == "agent:main:東京")
        let counts: [(Double, String)] = [(49, "49"), (999.4, "999"), (1_500, "1.5k"), (9_999, "10.0k"), (10_000, "10k"), (200_000, "200k"),
                                          (999_600, "1.0m"), (1_000_000, "1.0m"), (1_050_000, "1.1m"), (2_345_678, "2.3m")]
        for (value, text) in counts {
            #expect(SessionsText.tokenCount(value) == text, "\(value)")
        }
        let ages: [(Double, String)] = [(0, "just now"), (29_000, "just now"), (60_000, "1m ago"), (3_540_000, "59m ago"), (3_600_000, "1h ago"),
                                        (169_200_000, "47h ago"), (172_800_000, "2d ago"), (-5, "unknown")]
        for (ms, text) in ages {
            #expect(SessionsText.timeAgo(ms) == text, "\(ms)")
        }
        let owner: JSONValue = ["actor": ["type": "human", "id": "profile-owner", "label": " "]]
        let participants: [JSONValue] = (1...6).map { n -> JSONValue in
            let identity: JSONValue = ["type": "profile", "id": .string("p\(n)")]
            return ["identity": identity]
        }
        var row: JSONObject = ["thinkingLevel": "high", "verboseLevel": "on", "traceLevel": "off", "systemSent": true]
        row["abortedLastRun"] = false
        row["visibility"] = "suggest"
        row["owner"] = owner
        row["participants"] = .array(participants)
        row["participantCount"] = 6
        row["sessionId"] = "shared-session"
        #expect(SessionsText.flagsCell(row) == "think:high verbose:on trace:off system visibility:suggest owner:profile-owner"
            + " participants:profile:p1,profile:p2,profile:p3,profile:p4,+2 id:shared-session")
        let text = SessionsText(report: .init(storePath: "/db", storeAgents: ["main"], aggregate: false, rows: [], runtimeLabels: [],
                                              totalCount: 0, limit: 100, activeMinutes: 5), nowMs: 0, width: 120, colour: false)
        #expect(text.render() == "Session store: /db\nSessions listed: 0\nFiltered to last 5 minute(s)\nNo sessions found.\n")
    }

    /// The flags are the official `sessions` / `sessions list` ones: openclaw/openclaw
    /// `src/cli/program/register.status-health-sessions.ts`, `addSessionsListOptions` (--json,
    /// --verbose, --store, --agent, --all-agents, --active, --limit), as the 2026.9.4 help lists them
    /// (docs/verbs-2026-09.md §2).
    @Test func theFlagsAreTheOfficialOnes() throws {
        let spec = try #require(CommandTable.command(named: "sessions"))
        #expect(spec.flags.map(\.long) == ["json", "verbose", "agent", "all-agents", "store", "active", "limit"])
        #expect(Set(spec.flags.filter(\.takesValue).map(\.long)) == ["agent", "store", "active", "limit"])
    }
}
