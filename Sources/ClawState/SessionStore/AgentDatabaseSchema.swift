@_spi(Engine) import ClawSystem

/// Which agent databases the listing reads, and the official sentences for the others (openclaw/openclaw
/// `src/state/openclaw-agent-db-schema-read.ts` @08dfa5fa, `src/infra/sqlite-user-version.ts`,
/// `src/state/openclaw-agent-db-migration-required.ts`).
///
/// `PRAGMA user_version` 17 to 24 is read: the `session_nodes` columns the listing uses
/// (`session_key`, `current_session_id`, `entry_json`, `entry_valid`, `updated_at`, the `owner_*`
/// projections) and `schema_meta` are the same in all of them (2026.9.2–9.4 write 19, 2026.9.5 writes
/// 21, newer `main` declares 24). Below 17 the media migration is pending; above 24 the layout is unknown.
enum AgentDatabaseSchema {
    /// `AGENT_MEDIA_SCHEMA_VERSION`.
    static let oldestReadable = 17
    static let newestReadable = 24

    struct Meta: Equatable {
        let role: String?
        let agentId: String?
    }

    static func userVersion(_ db: SQLiteConnection) throws(SessionStoreError) -> Int {
        Int(try db.run("PRAGMA user_version").first?.first?.integer ?? 0)
    }

    /// `readExistingAgentSchemaMeta`: the `schema_meta` row `primary`, nil when the table or the row is missing.
    static func meta(_ db: SQLiteConnection) throws(SessionStoreError) -> Meta? {
        guard try db.hasTable("schema_meta") else { return nil }
        guard let row = try db.run("SELECT role, agent_id FROM schema_meta WHERE meta_key = 'primary'").first else { return nil }
        return Meta(role: row[0].text, agentId: row[1].text.flatMap(TextTrim.nonEmpty))
    }

    /// Any table, index, view or trigger of an application (a name not starting `sqlite_`).
    static func hasApplicationTables(_ db: SQLiteConnection) throws(SessionStoreError) -> Bool {
        !(try db.run("SELECT 1 FROM sqlite_master WHERE substr(name, 1, 7) <> 'sqlite_' LIMIT 1")).isEmpty
    }

    /// `assertSupportedAgentSchemaVersion`, with this reader's newest version.
    static func checkNotNewer(_ version: Int, path: String) throws(SessionStoreError) {
        if version > newestReadable {
            throw SessionStoreError(.database, "OpenClaw agent database \(path) uses newer schema version \(version); this OpenClaw build supports \(newestReadable)."
                + " Upgrade OpenClaw before opening this database. Do not downgrade OpenClaw or modify the database."
                + " To run this older build, use a separate state directory or restore a compatible backup."
                + " See https://docs.openclaw.ai/reference/database-schemas.")
        }
    }

    /// `assertCanonicalAgentPersistenceVersion`, with this reader's oldest version. `isNewUnowned`:
    /// version 0, no `schema_meta` row and no application table (a file nobody has set up yet).
    static func checkNotOlder(_ version: Int, path: String, isNewUnowned: Bool) throws(SessionStoreError) {
        if version < oldestReadable, !isNewUnowned {
            throw SessionStoreError(.database, "OpenClaw agent database \(path) uses schema version \(version);"
                + " run openclaw doctor --fix to migrate persisted media before using it.")
        }
    }

    /// `assertExistingAgentSchemaOwner`: the row's role is `agent` and its owner the requested agent.
    static func checkOwner(_ meta: Meta, agentId: String, path: String) throws(SessionStoreError) {
        guard meta.role == "agent" else {
            throw SessionStoreError(.database, "OpenClaw agent database \(path) has schema role \(meta.role ?? "unknown"); expected agent."
                + " Run openclaw doctor --fix to inspect and repair its ownership.")
        }
        guard let owner = meta.agentId else {
            throw SessionStoreError(.database, "OpenClaw agent database \(path) has no agent owner."
                + " Run openclaw doctor --fix to inspect and repair its ownership.")
        }
        guard AgentSessionKey.normalizeAgentId(owner) == AgentSessionKey.normalizeAgentId(agentId) else {
            throw SessionStoreError(.database, "OpenClaw agent database \(path) belongs to agent \(owner); requested agent \(AgentSessionKey.normalizeAgentId(agentId)).")
        }
    }
}
