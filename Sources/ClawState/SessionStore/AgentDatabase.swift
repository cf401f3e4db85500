@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// An agent's SQLite database (`<state>/agents/<id>/agent/openclaw-agent.sqlite`) opened the way the
/// official read-only reader opens it (openclaw/openclaw `src/state/openclaw-agent-db-readonly-open.ts`
/// @050b6369): read-only, never created, a 5 s busy timeout (`OPENCLAW_SQLITE_BUSY_TIMEOUT_MS`), no
/// pragma written, no lock file, no write transaction; the schema admission and the rows are read in
/// one deferred transaction, so in a database the gateway keeps in WAL mode they are one snapshot of
/// its committed state while the gateway's writes go on.
///
/// One difference, for a database in WAL mode that nobody has open (no `-wal` file, so every committed
/// row is in the main file): SQLite's read-only open would create empty `-wal` and `-shm` files beside
/// it, as the official 2026.9.4 reader does (openclaw/openclaw issue #147259; newer official builds read
/// a private copy instead). Here such a file is read as immutable (no lock, no side file), between two
/// fingerprints of it; if anything touched it meanwhile, or a `-wal` appeared, the read is done again
/// the ordinary way, beside the writer that is now there.
enum AgentDatabase {
    static let busyTimeoutMs: Int32 = 5_000
    /// The file name of an agent's database.
    static let fileName = "openclaw-agent.sqlite"
    /// `<agentDir>/incognito-openclaw-agent.sqlite`: an in-memory store's sentinel; reading it reads nothing.
    static let incognitoFileName = "incognito-openclaw-agent.sqlite"

    /// The records of the database at `path`, admitted and validated as the official listing reads them
    /// (`listSessionEntriesReadOnly`); empty when there is no database (missing file, incognito
    /// sentinel) or no store in it yet (no `schema_meta` row). `ownerAgentId`: the agent the database
    /// must belong to.
    static func records(path: String, ownerAgentId: String) throws(SessionStoreError) -> [SessionEntryRecord] {
        if Paths.lastComponent(path) == incognitoFileName || !FileSystem.exists(path) { return [] }
        return try withSnapshot(path) { db throws(SessionStoreError) in try read(db, path: path, ownerAgentId: ownerAgentId) }
    }

    /// `body` on one read snapshot of the database at `path` (see above for a quiescent WAL database).
    static func withSnapshot<T>(_ path: String, _ body: (SQLiteConnection) throws(SessionStoreError) -> T) throws(SessionStoreError) -> T {
        if let before = quiescentWALFingerprint(path) {
            let outcome: Result<T, SessionStoreError>
            do {
                let db = try open(path, immutable: true)
                defer { db.close() }
                outcome = .success(try body(db))
            } catch {
                outcome = .failure(error)
            }
            if quiescentWALFingerprint(path) == before { return try outcome.get() }
        }
        let db = try open(path)
        defer { db.close() }
        try db.run("BEGIN")
        do {
            let value = try body(db)
            try db.run("COMMIT")
            return value
        } catch {
            _ = try? db.run("ROLLBACK")
            throw error
        }
    }

    /// The file's fingerprint when it is a database in WAL mode (header bytes 18 and 19 are 2) with no
    /// `-wal` and no `-journal` beside it: nothing has it open, its main file holds every commit.
    static func quiescentWALFingerprint(_ path: String) -> FileFingerprint? {
        guard !FileSystem.lexists(path + "-wal"), !FileSystem.lexists(path + "-journal"),
              let file = try? ReadOnlyFile.open(path, followSymbolicLinks: true),
              let status = try? file.status(), status.kind == .regular,
              let header = try? file.readPrefix(20), header.count == 20, header[18] == 2, header[19] == 2
        else { return nil }
        return FileFingerprint(path: path)
    }

    private static func read(_ db: SQLiteConnection, path: String, ownerAgentId: String) throws(SessionStoreError) -> [SessionEntryRecord] {
        let version = try AgentDatabaseSchema.userVersion(db)
        try AgentDatabaseSchema.checkNotNewer(version, path: path)
        let meta = try AgentDatabaseSchema.meta(db)
        let isNewUnowned = version == 0 && meta == nil ? !(try AgentDatabaseSchema.hasApplicationTables(db)) : false
        try AgentDatabaseSchema.checkNotOlder(version, path: path, isNewUnowned: isNewUnowned)
        // No `schema_meta` row: not a store yet ("schema-missing"), an empty list.
        guard let meta else { return [] }
        try AgentDatabaseSchema.checkOwner(meta, agentId: ownerAgentId, path: path)
        return try SessionRows.read(db)
    }

    /// The agent that owns the database at `path` (its `schema_meta` row), or nil: no file, not a
    /// store, unreadable (`inspectOpenClawAgentDatabaseOwner`, `owned` only).
    static func owner(path: String) -> String? {
        guard FileSystem.exists(path), Paths.lastComponent(path) != incognitoFileName else { return nil }
        let meta = try? withSnapshot(path) { db throws(SessionStoreError) -> AgentDatabaseSchema.Meta? in
            guard try AgentDatabaseSchema.userVersion(db) <= AgentDatabaseSchema.newestReadable else { return nil }
            return try AgentDatabaseSchema.meta(db)
        }
        guard let meta = meta ?? nil, meta.role == "agent", let agentId = meta.agentId else { return nil }
        return AgentSessionKey.normalizeAgentId(agentId)
    }

    static func open(_ path: String, immutable: Bool = false) throws(SessionStoreError) -> SQLiteConnection {
        do { return try SQLiteConnection(readOnlyPath: path, busyTimeoutMs: busyTimeoutMs, immutable: immutable) } catch {
            throw failure(error)
        }
    }

    /// SQLite's own message, as the official reader passes it on (`database is locked`, `file is not a database`).
    static func failure(_ error: SQLiteError) -> SessionStoreError {
        SessionStoreError(.database, error.message)
    }
}

extension SQLiteConnection {
    /// `rows`, failing in the session store's terms.
    @discardableResult
    func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SessionStoreError) -> [[SQLiteValue]] {
        do { return try rows(sql, bindings) } catch { throw AgentDatabase.failure(error) }
    }

    /// Whether the schema has a table named `name`.
    func hasTable(_ name: String) throws(SessionStoreError) -> Bool {
        !(try run("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)])).isEmpty
    }

    /// The column names of `table`.
    func columns(_ table: String) throws(SessionStoreError) -> Set<String> {
        Set(try run("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.first?.text })
    }
}
