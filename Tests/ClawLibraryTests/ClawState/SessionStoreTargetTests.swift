import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawState

/// Which stores a listing reads (openclaw/openclaw `src/config/sessions/targets.ts` @06bc38c1,
/// `src/commands/session-store-targets.ts` @1b41c18c, `src/config/sessions/session-sqlite-target.ts`
/// @027e53e2, `src/routing/session-key.ts` @02df1c82).
@Suite struct SessionStoreTargetTests {
    private func targets(_ dir: ConfigTestDirectory, config json: String = "{}", profile: String? = nil) throws -> SessionStoreTargets {
        let config = try SessionStoreConfig(config: GatewayConfigFile.parse(Array(json.utf8), path: dir.sub("state/openclaw.json")),
                                            environment: Environment(["HOME": dir.path, "STORE_ROOT": dir.sub("custom")]))
        return SessionStoreTargets(config: config, stateDirectory: dir.sub("state"), environment: Environment(["HOME": dir.path]), profile: profile)
    }

    @Test(arguments: [("main", "main"), ("  Work ", "work"), ("Work Bot!", "work-bot"), ("--x--", "x"), ("", "main"), ("  ", "main"),
                      ("a_b-c", "a_b-c"), ("ÄÖ", "main"), (String(repeating: "x", count: 70) + "!", String(repeating: "x", count: 64))])
    func agentIds(_ raw: String, _ id: String) {
        #expect(AgentSessionKey.normalizeAgentId(raw) == id)
    }

    @Test func theDefaultAgentsStore() throws {
        let dir = ConfigTestDirectory()
        let none = try targets(dir).resolve(SessionStoreSelection())
        #expect(none.map(\.agentId) == ["main"])
        #expect(none.first?.databasePath == dir.sub("state/agents/main/agent/openclaw-agent.sqlite"))
        #expect(none.first?.storePath == dir.sub("state/agents/main/sessions/sessions.json"))
        // The agent marked default, else the first listed.
        let marked = try targets(dir, config: "{ agents: { list: [{ id: 'ops' }, { id: 'Work', default: true }] } }").resolve(SessionStoreSelection())
        #expect(marked.map(\.agentId) == ["work"])
        let first = try targets(dir, config: "{ agents: { list: [{ id: 'ops' }, { id: 'work' }] } }").resolve(SessionStoreSelection())
        #expect(first.map(\.agentId) == ["ops"])
        // The newer keyed roster.
        let keyed = try targets(dir, config: "{ agents: { entries: { research: {}, ops: {} } } }").resolve(SessionStoreSelection())
        #expect(keyed.map(\.agentId) == ["research"])
    }

    @Test func anAgentByItsNormalisedId() throws {
        let dir = ConfigTestDirectory()
        let config = "{ agents: { list: [{ id: 'main' }, { id: 'work-bot' }] } }"
        let found = try targets(dir, config: config).resolve(SessionStoreSelection(agent: " Work Bot "))
        #expect(found.map(\.agentId) == ["work-bot"])
        #expect(found.first?.databasePath == dir.sub("state/agents/work-bot/agent/openclaw-agent.sqlite"))
        #expect(throws: SessionStoreError(.usage, #"Unknown agent id "nope". Run openclaw agents list to see configured agents."#)) {
            try targets(dir, config: config).resolve(SessionStoreSelection(agent: "nope"))
        }
        #expect(throws: SessionStoreError(.usage, #"Unknown agent id "nope". Run openclaw --profile work agents list to see configured agents."#)) {
            try targets(dir, config: config, profile: "work").resolve(SessionStoreSelection(agent: "nope"))
        }
    }

    @Test(arguments: [
        (SessionStoreSelection(agent: " "), "--agent must not be blank"),
        (SessionStoreSelection(store: ""), "--store must not be blank"),
        (SessionStoreSelection(agent: "main", allAgents: true), "--agent and --all-agents cannot be used together"),
        (SessionStoreSelection(allAgents: true, store: "x"), "--store cannot be combined with --all-agents"),
    ])
    func flagsThatCannotGoTogether(_ selection: SessionStoreSelection, _ message: String) throws {
        let dir = ConfigTestDirectory()
        #expect(throws: SessionStoreError(.usage, message)) { try targets(dir).resolve(selection) }
    }

    @Test func everyAgentConfiguredAndOnDisk() throws {
        let dir = ConfigTestDirectory()
        _ = try AgentDatabaseFixture(path: dir.sub("state/agents/retired/agent/openclaw-agent.sqlite"), agentId: "retired")
        _ = try AgentDatabaseFixture(path: dir.sub("state/agents/work/agent/openclaw-agent.sqlite"), agentId: "work")
        dir.mkdir("state/agents/empty/agent")
        dir.mkdir("state/agents/Upper/agent")
        dir.write("state/agents/Upper/agent/openclaw-agent.sqlite", "")
        let found = try targets(dir, config: "{ agents: { list: [{ id: 'work' }, { id: 'main' }] } }").resolve(SessionStoreSelection(allAgents: true))
        // Configured first in their order (a missing database still a target), then the others on disk.
        #expect(found.map(\.agentId) == ["work", "main", "retired"])
        #expect(Set(found.map(\.databasePath)).count == 3)
    }

    @Test func aFixedStoreGivesEachAgentItsOwnFile() throws {
        let dir = ConfigTestDirectory()
        let config = "{ session: { store: '${STORE_ROOT}/sessions.json' }, agents: { list: [{ id: 'main' }, { id: 'work' }] } }"
        let found = try targets(dir, config: config).resolve(SessionStoreSelection(allAgents: true))
        #expect(found.map(\.databasePath) == [dir.sub("custom/openclaw-agent.sqlite"), dir.sub("custom/openclaw-agent.work.sqlite")])
        // Once the unsuffixed file records another owner, the default agent takes a suffixed one.
        _ = try AgentDatabaseFixture(path: dir.sub("custom/openclaw-agent.sqlite"), agentId: "work")
        let after = try targets(dir, config: config).resolve(SessionStoreSelection(allAgents: true))
        #expect(after.map(\.databasePath) == [dir.sub("custom/openclaw-agent.main.sqlite"), dir.sub("custom/openclaw-agent.sqlite")])
        // A per-agent template.
        let template = try targets(dir, config: "{ session: { store: '~/stores/{agentId}/sessions.json' } }").resolve(SessionStoreSelection())
        #expect(template.first?.databasePath == dir.sub("stores/main/openclaw-agent.sqlite"))
    }

    @Test func aLegacyStorePathNamesItsDatabase() throws {
        let dir = ConfigTestDirectory()
        let db = try AgentDatabaseFixture(path: dir.sub("state/agents/work/agent/openclaw-agent.sqlite"), agentId: "work")
        let config = "{ agents: { list: [{ id: 'main' }, { id: 'work' }] } }"
        let legacy = try targets(dir, config: config).resolve(SessionStoreSelection(store: dir.sub("state/agents/work/sessions/sessions.json")))
        #expect(legacy == [SessionStoreTarget(agentId: "work", storePath: dir.sub("state/agents/work/sessions/sessions.json"),
                                              databasePath: db.path, databaseOwner: "work")])
        let exact = try targets(dir, config: config).resolve(SessionStoreSelection(store: db.path))
        #expect(exact.map(\.agentId) == ["work"] && exact.first?.databasePath == db.path)
        #expect(throws: SessionStoreError(.store, #"Session store belongs to agent "work", not requested agent "main"."#)) {
            try targets(dir, config: config).resolve(SessionStoreSelection(agent: "main", store: db.path))
        }
        #expect(SessionDatabasePath.unsuffixed("/a/b/custom.json").path == "/a/b/custom.sqlite")
        #expect(SessionDatabasePath.unsuffixed("/a/b/sessions.json").path == "/a/b/openclaw-agent.sqlite")
        #expect(SessionDatabasePath.unsuffixed("/a/b/.hidden").path == "/a/b/.hidden.sqlite")
    }

    @Test func anExplicitStoreMustBeAnExistingSessionStore() throws {
        let dir = ConfigTestDirectory()
        let missing = dir.sub("state/agents/main/sessions/sessions.json")
        #expect(throws: SessionStoreError(.store, "Session store target does not exist: \(dir.sub("state/agents/main/agent/openclaw-agent.sqlite"))"
            + #" (resolved from --store "\#(missing)"). Pass a selector whose resolved SQLite target exists."#)) {
            try targets(dir).resolve(SessionStoreSelection(store: missing))
        }
        dir.mkdir("d.sqlite")
        #expect(throws: SessionStoreError(.store, "Session store target is not a regular file: \(dir.sub("d.sqlite"))."
            + " Pass a selector whose resolved SQLite target is a regular file.")) {
            try targets(dir).resolve(SessionStoreSelection(store: dir.sub("d.sqlite")))
        }
        let foreign = try AgentDatabaseFixture(path: dir.sub("other.sqlite"), withMeta: false, schema: "CREATE TABLE notes (x TEXT);")
        #expect(throws: SessionStoreError(.store, "Session store target is not a session store: \(foreign.path)."
            + " the SQLite file has application tables but no OpenClaw schema metadata."
            + " Pass a legacy store selector or SQLite target reported by openclaw sessions or openclaw status.")) {
            try targets(dir).resolve(SessionStoreSelection(store: foreign.path))
        }
        dir.write("text.sqlite", String(repeating: "not a database ", count: 100))
        #expect(throws: SessionStoreError(.store, "Session store target is not a session store: \(dir.sub("text.sqlite")). file is not a database."
            + " Pass a legacy store selector or SQLite target reported by openclaw sessions or openclaw status.")) {
            try targets(dir).resolve(SessionStoreSelection(store: dir.sub("text.sqlite")))
        }
        // An empty SQLite file is a store nobody has set up: accepted, and it lists nothing.
        let empty = try AgentDatabaseFixture(path: dir.sub("empty.sqlite"), userVersion: 0, withMeta: false, schema: "")
        #expect(try targets(dir).resolve(SessionStoreSelection(store: empty.path)).map(\.databasePath) == [empty.path])
    }
}
