import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawState

/// The read-only reader of an agent's session database, on files built with the official v19 DDL
/// (`AgentDatabaseFixture`): which databases it admits, which rows it lists, what it refuses, and
/// that it leaves the files as it found them.
@Suite struct SessionStoreReaderTests {
    static let now: Int64 = 1_790_000_000_000

    static func entry(_ id: String, _ updatedAt: Int64, _ more: JSONObject = [:]) -> JSONValue {
        var object: JSONObject = ["sessionId": .string(id), "updatedAt": JSONValue(updatedAt)]
        for member in more.members { object[member.key] = member.value }
        return .object(object)
    }

    private func database(_ dir: ConfigTestDirectory, agent: String = "main", version: Int = 19) throws -> AgentDatabaseFixture {
        try AgentDatabaseFixture(path: dir.sub("state/agents/\(agent)/agent/openclaw-agent.sqlite"), agentId: agent, userVersion: version)
    }

    @Test func listsTheStoredSessionsInKeyOrderAndSkipsWhatIsNoSession() throws {
        let dir = ConfigTestDirectory()
        let db = try database(dir)
        try db.insert("agent:main:main", Self.entry("s-main", Self.now - 60_000, ["model": "gpt-5.5"]))
        try db.insert("agent:main:cron:nightly", Self.entry("s-cron", Self.now - 120_000))
        try db.insert("global", Self.entry("s-global", Self.now - 1))
        // A retained-window placeholder: an empty entry whose session still has its window.
        try db.insert("agent:main:old", .object([:]), valid: -1, sessionId: "s-old", updatedAt: Self.now - 5)
        try db.exec("INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES ('s-old', 'agent:main:old', 1, 1)")
        // The gateway's bookkeeping row, and a row the writer left pending (validated here).
        try db.insert("agent:main:internal-session-effects:x", Self.entry("s-fx", Self.now))
        try db.insert("agent:main:pending", Self.entry("s-pending", Self.now - 7), valid: nil)

        let records = try AgentDatabase.records(path: db.path, ownerAgentId: "main")
        #expect(records.map(\.sessionKey) == ["agent:main:cron:nightly", "agent:main:main", "agent:main:pending", "global"])
        #expect(records[1]["model"] == "gpt-5.5")
        #expect(records[1].updatedAt == Double(Self.now - 60_000))
    }

    @Test func aMissingDatabaseOrTheIncognitoSentinelListsNothing() throws {
        let dir = ConfigTestDirectory()
        #expect(try AgentDatabase.records(path: dir.sub("agents/main/agent/openclaw-agent.sqlite"), ownerAgentId: "main").isEmpty)
        let incognito = try AgentDatabaseFixture(path: dir.sub("agents/main/agent/incognito-openclaw-agent.sqlite"))
        try incognito.insert("agent:main:main", Self.entry("s", Self.now))
        #expect(try AgentDatabase.records(path: incognito.path, ownerAgentId: "main").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.sub("agents/main/agent/openclaw-agent.sqlite")))
    }

    @Test(arguments: [17, 19, 21, 24])
    func theVersionsWithTheSameSessionColumnsAreRead(_ version: Int) throws {
        let dir = ConfigTestDirectory()
        let db = try database(dir, version: version)
        try db.insert("agent:main:main", Self.entry("s", Self.now))
        #expect(try AgentDatabase.records(path: db.path, ownerAgentId: "main").count == 1)
    }

    @Test func aNewerOrAnOlderSchemaIsRefusedInTheOfficialWords() throws {
        let dir = ConfigTestDirectory()
        let newer = try AgentDatabaseFixture(path: dir.sub("a/openclaw-agent.sqlite"), userVersion: 25)
        #expect(throws: SessionStoreError(.database, "OpenClaw agent database \(newer.path) uses newer schema version 25; this OpenClaw build supports 24."
            + " Upgrade OpenClaw before opening this database. Do not downgrade OpenClaw or modify the database."
            + " To run this older build, use a separate state directory or restore a compatible backup."
            + " See https://docs.openclaw.ai/reference/database-schemas.")) {
            try AgentDatabase.records(path: newer.path, ownerAgentId: "main")
        }
        let older = try AgentDatabaseFixture(path: dir.sub("b/openclaw-agent.sqlite"), userVersion: 16)
        #expect(throws: SessionStoreError(.database, "OpenClaw agent database \(older.path) uses schema version 16;"
            + " run openclaw doctor --fix to migrate persisted media before using it.")) {
            try AgentDatabase.records(path: older.path, ownerAgentId: "main")
        }
    }

    @Test func aDatabaseThatIsNoStoreYetListsNothing() throws {
        let dir = ConfigTestDirectory()
        // Version 0 and nothing in it: a file nobody has set up.
        let empty = try AgentDatabaseFixture(path: dir.sub("a/openclaw-agent.sqlite"), userVersion: 0, withMeta: false, schema: "")
        #expect(try AgentDatabase.records(path: empty.path, ownerAgentId: "main").isEmpty)
        // The tables but no schema_meta row: the official reader's "schema-missing".
        let unowned = try AgentDatabaseFixture(path: dir.sub("b/openclaw-agent.sqlite"), withMeta: false)
        try unowned.insert("agent:main:main", Self.entry("s", Self.now))
        #expect(try AgentDatabase.records(path: unowned.path, ownerAgentId: "main").isEmpty)
        // Tables at version 0: not new, so the media migration is pending.
        let tablesOnly = try AgentDatabaseFixture(path: dir.sub("c/openclaw-agent.sqlite"), userVersion: 0, withMeta: false)
        #expect(throws: SessionStoreError.self) { try AgentDatabase.records(path: tablesOnly.path, ownerAgentId: "main") }
    }

    @Test func anotherOwnerOrRoleIsRefused() throws {
        let dir = ConfigTestDirectory()
        let work = try AgentDatabaseFixture(path: dir.sub("a/openclaw-agent.sqlite"), agentId: "work")
        #expect(throws: SessionStoreError(.database, "OpenClaw agent database \(work.path) belongs to agent work; requested agent main.")) {
            try AgentDatabase.records(path: work.path, ownerAgentId: "main")
        }
        let global = try AgentDatabaseFixture(path: dir.sub("b/openclaw-agent.sqlite"), meta: (role: "global", agentId: nil))
        #expect(throws: SessionStoreError(.database, "OpenClaw agent database \(global.path) has schema role global; expected agent."
            + " Run openclaw doctor --fix to inspect and repair its ownership.")) {
            try AgentDatabase.records(path: global.path, ownerAgentId: "main")
        }
        let ownerless = try AgentDatabaseFixture(path: dir.sub("c/openclaw-agent.sqlite"), meta: (role: "agent", agentId: nil))
        #expect(throws: SessionStoreError(.database, "OpenClaw agent database \(ownerless.path) has no agent owner."
            + " Run openclaw doctor --fix to inspect and repair its ownership.")) {
            try AgentDatabase.records(path: ownerless.path, ownerAgentId: "main")
        }
    }

    static let badRows: [(String, String, Int?, String)] = [
        ("agent:main:x", #"{"sessionId":"s","updatedAt":5}"#, -1, "invalid persisted session row requires repair for agent:main:x"),
        ("agent:main:x", #"{"sessionId":"s","updatedAt":6}"#, 1, "invalid persisted session row requires repair for agent:main:x"),
        ("agent:main:x", #"{"sessionId":"s","sessionId":"s","updatedAt":5}"#, 1, "invalid persisted session row requires repair for agent:main:x"),
        ("agent:main:x", #"{"sessionId":"  ","updatedAt":5}"#, nil, "invalid persisted session row requires repair for agent:main:x"),
        ("agent:main:x", #"["s",5]"#, 1, "invalid persisted session row requires repair for agent:main:x"),
        ("agent:main:x", "{}", 0, "invalid persisted session row requires repair for agent:main:x"),
        ("main", #"{"sessionId":"s","updatedAt":5}"#, 1, "non-canonical persisted row resolves to session key main"),
        (" global", #"{"sessionId":"s","updatedAt":5}"#, 1, "non-canonical persisted row resolves to session key global"),
    ]

    /// A row the official reader cannot use stops the listing: the store needs `openclaw doctor --fix`.
    @Test(arguments: badRows)
    func aRowThatNeedsRepairStopsTheListing(_ key: String, _ json: String, _ valid: Int?, _ detail: String) throws {
        let dir = ConfigTestDirectory()
        let db = try database(dir)
        try db.insert("agent:main:fine", Self.entry("ok", 1))
        try db.insert(key, .null, valid: valid, sessionId: "s", updatedAt: 5, entryJSON: json)
        #expect(throws: SessionStoreError(.database, detail + "; stop the Gateway and run openclaw doctor --fix")) {
            try AgentDatabase.records(path: db.path, ownerAgentId: "main")
        }
    }

    @Test func theMainKeyRowIsRefusedWhenTheStoreRenamedItsMainKey() throws {
        let dir = ConfigTestDirectory()
        let db = try database(dir)
        try db.insert("agent:main:main", Self.entry("s", 1))
        try db.exec("UPDATE session_key_contract SET main_key = 'home' WHERE id = 1")
        #expect(throws: SessionStoreError.repair("non-canonical persisted row resolves to session key agent:main:main")) {
            try AgentDatabase.records(path: db.path, ownerAgentId: "main")
        }
    }

    @Test func theOwnerColumnsAndParticipantsAreProjected() throws {
        let dir = ConfigTestDirectory()
        let db = try database(dir)
        try db.insert("agent:main:shared", Self.entry("s", Self.now, ["visibility": "suggest"]), extra: [
            "owner_actor_type": "'human'", "owner_actor_id": "'profile-owner'", "owner_assigned_by_type": "'human'",
            "owner_assigned_by_id": "'profile-admin'", "owner_assigned_at": String(Self.now - 30_000),
        ])
        try db.insert("agent:main:solo", Self.entry("t", Self.now, ["owner": ["actor": ["type": "agent", "id": "kept"]]]),
                      extra: ["owner_actor_type": "'robot'", "owner_actor_id": "'x'"])
        for (n, id) in ["profile-cam", "profile-ada", "profile-ben"].enumerated() {
            try db.exec("INSERT INTO session_participants VALUES ('agent:main:shared', '{\"type\":\"profile\"}', '\(id)', 1, \(n == 0 ? 5 : 1), NULL)")
        }
        let records = try AgentDatabase.records(path: db.path, ownerAgentId: "main")
        let shared = try #require(records.first { $0.sessionKey == "agent:main:shared" })
        #expect(shared["owner"] == ["actor": ["type": "human", "id": "profile-owner"], "assignedBy": ["type": "human", "id": "profile-admin"],
                                    "assignedAt": JSONValue(Self.now - 30_000)])
        // Ordered by when they first prompted, then by id.
        #expect(shared["participants"] == [["identity": ["type": "profile", "id": "profile-ada"]],
                                           ["identity": ["type": "profile", "id": "profile-ben"]],
                                           ["identity": ["type": "profile", "id": "profile-cam"]]])
        #expect(shared["participantCount"] == 3)
        // An owner type the columns cannot hold leaves the entry's own.
        let solo = try #require(records.first { $0.sessionKey == "agent:main:solo" })
        #expect(solo["owner"] == ["actor": ["type": "agent", "id": "kept"]])
        #expect(solo["participants"] == nil)
    }

    @Test func aBrokenParticipantIdentityStopsTheListing() throws {
        let dir = ConfigTestDirectory()
        let db = try database(dir)
        try db.insert("agent:main:a", Self.entry("s", 1))
        try db.exec("INSERT INTO session_participants VALUES ('agent:main:a', 'not json', 'x', 1, 1, NULL)")
        #expect(throws: SessionStoreError(.database, "Session participant identity is invalid; run openclaw doctor --fix.")) {
            try AgentDatabase.records(path: db.path, ownerAgentId: "main")
        }
    }

    /// The entry as `JSON.parse` then `JSON.stringify` give it back: the last duplicate wins, numbers
    /// in JavaScript's spelling.
    @Test func entriesReadAsJavaScriptReadsThem() throws {
        let dir = ConfigTestDirectory()
        let db = try database(dir)
        try db.insert("agent:main:a", .null, sessionId: "s", updatedAt: 1000,
                      entryJSON: #"{"sessionId":"s","updatedAt":1e3,"label":"one","label":"two","totalTokens":1.50,"ratio":1e-7}"#)
        let record = try #require(try AgentDatabase.records(path: db.path, ownerAgentId: "main").first)
        #expect(record.entry.keys == ["sessionId", "updatedAt", "label", "totalTokens", "ratio"])
        #expect(record["label"] == "two")
        #expect(record.entry.compactText == #"{"sessionId":"s","updatedAt":1000,"label":"two","totalTokens":1.5,"ratio":1e-7}"#)
    }

    @Test(arguments: [("1", "1"), ("1.50", "1.5"), ("1e3", "1000"), ("-0.0", "0"), ("1e21", "1e+21"), ("123456789012345680000", "123456789012345680000"),
                      ("0.000001", "0.000001"), ("1e-7", "1e-7"), ("1.25e-8", "1.25e-8"), ("1758000000000", "1758000000000"), ("0.1", "0.1")])
    func numbersAreSpelledAsJavaScriptSpellsThem(_ text: String, _ expected: String) {
        #expect(JSONValue.javaScriptNumberText(text) == expected)
    }
}

extension JSONObject {
    var compactText: String { JSONValue.object(self).compactText }
}

/// The reader beside a gateway: it writes nothing, creates no file, and reads the committed state
/// while a writer holds the database in WAL mode.
@Suite struct SessionStoreReaderSafetyTests {
    private func bytes(_ paths: [String]) -> [Data?] { paths.map { FileManager.default.contents(atPath: $0) } }

    @Test func aReadBesideAWriterSeesTheCommittedRowsAndChangesNoByte() throws {
        let dir = ConfigTestDirectory()
        let db = try AgentDatabaseFixture(path: dir.sub("agents/main/agent/openclaw-agent.sqlite"))
        try db.insert("agent:main:main", SessionStoreReaderTests.entry("committed", 1000))
        #expect(db.siblings == ["openclaw-agent.sqlite", "openclaw-agent.sqlite-shm", "openclaw-agent.sqlite-wal"])
        // The gateway is in the middle of a write: the lock held, a row written, not committed.
        let release = try db.holdWrite("INSERT INTO session_nodes (session_key, current_session_id, entry_json, updated_at)"
            + #" VALUES ('agent:main:new', 'n', '{"sessionId":"n","updatedAt":2000}', 2000);"#)
        defer { release() }
        let files = [db.path, db.path + "-wal"]
        let before = bytes(files)
        let started = Date()
        let records = try AgentDatabase.records(path: db.path, ownerAgentId: "main")
        #expect(records.map(\.sessionKey) == ["agent:main:main"])
        #expect(Date().timeIntervalSince(started) < 4, "the read waited for the writer's lock")
        #expect(bytes(files) == before)
        #expect(db.siblings == ["openclaw-agent.sqlite", "openclaw-agent.sqlite-shm", "openclaw-agent.sqlite-wal"])
    }

    @Test func aWALDatabaseNobodyHasOpenGetsNoSideFiles() throws {
        let dir = ConfigTestDirectory()
        let db = try AgentDatabaseFixture(path: dir.sub("agents/main/agent/openclaw-agent.sqlite"))
        try db.insert("agent:main:main", SessionStoreReaderTests.entry("s", 1000))
        try db.closeCleanly()
        #expect(db.siblings == ["openclaw-agent.sqlite"])
        let before = bytes([db.path])
        #expect(try AgentDatabase.records(path: db.path, ownerAgentId: "main").map(\.sessionKey) == ["agent:main:main"])
        #expect(AgentDatabase.owner(path: db.path) == "main")
        #expect(db.siblings == ["openclaw-agent.sqlite"])
        #expect(bytes([db.path]) == before)
    }

    /// The immutable read names the file by URI: characters a URI treats specially are escaped.
    @Test func aQuiescentDatabaseUnderAnOddPathIsRead() throws {
        let dir = ConfigTestDirectory()
        let db = try AgentDatabaseFixture(path: dir.sub("a b%20c?d#e/ü/openclaw-agent.sqlite"))
        try db.insert("agent:main:main", SessionStoreReaderTests.entry("s", 1000))
        try db.closeCleanly()
        #expect(try AgentDatabase.records(path: db.path, ownerAgentId: "main").map(\.sessionKey) == ["agent:main:main"])
        #expect(db.siblings == ["openclaw-agent.sqlite"])
    }

    @Test func aDatabaseInRollbackModeIsReadWithoutSideFilesToo() throws {
        let dir = ConfigTestDirectory()
        let db = try AgentDatabaseFixture(path: dir.sub("agents/main/agent/openclaw-agent.sqlite"), journalMode: "DELETE")
        try db.insert("agent:main:main", SessionStoreReaderTests.entry("s", 1000))
        #expect(db.siblings == ["openclaw-agent.sqlite"])
        #expect(try AgentDatabase.records(path: db.path, ownerAgentId: "main").count == 1)
        #expect(db.siblings == ["openclaw-agent.sqlite"])
    }

    /// The quiescent read takes two fingerprints; a write between them sends it to the ordinary read.
    @Test func aFingerprintChangesWithAWrite() throws {
        let dir = ConfigTestDirectory()
        let db = try AgentDatabaseFixture(path: dir.sub("agents/main/agent/openclaw-agent.sqlite"))
        try db.closeCleanly()
        let quiet = try #require(AgentDatabase.quiescentWALFingerprint(db.path))
        #expect(AgentDatabase.quiescentWALFingerprint(db.path) == quiet)
        try db.insert("agent:main:main", SessionStoreReaderTests.entry("s", 1000))
        // A writer came: its -wal is there, so the ordinary read is taken.
        #expect(AgentDatabase.quiescentWALFingerprint(db.path) == nil)
        try db.closeCleanly()
        #expect(AgentDatabase.quiescentWALFingerprint(db.path) != quiet)
    }
}
