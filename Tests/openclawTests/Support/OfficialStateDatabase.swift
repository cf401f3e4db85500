import Foundation
import CClawSQLite
@_spi(Engine) import ClawState
@_spi(Engine) import ClawCrypto

/// A state database laid out as the official CLI (September 2026) lays it out: its DDL (STRICT tables,
/// the indexes, `schema_meta`), its pragmas (page size 4096, incremental auto-vacuum, WAL,
/// `user_version` 17) and rows with its column values. The connection that built it closes without
/// checkpointing, so every row is still in the `-wal` file, as on a machine where the gateway runs.
final class OfficialStateDatabase: @unchecked Sendable {
    /// The official DDL, kept once for the tests and the benchmark.
    static let schema = (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/official-state-schema.sql").standardizedFileURL, encoding: .utf8)) ?? ""

    let stateDirectory: URL
    var path: String { stateDirectory.appendingPathComponent("state/openclaw.sqlite").path }

    /// Creates `<state>/state/openclaw.sqlite` (directory 0700, file 0600) with the official schema
    /// (`schema` replaces it, for the unknown-schema cases) and then runs `rows`.
    /// `journalMode` DELETE is what the official CLI falls back to on network file systems.
    init(stateDirectory: URL, schema: String = OfficialStateDatabase.schema, rows: [String] = [],
         journalMode: String = "WAL") throws {
        self.stateDirectory = stateDirectory
        let directory = stateDirectory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let db = try Self.open(path, create: true)
        defer { sqlite3_close_v2(db) }
        try Self.exec(db, "PRAGMA page_size = 4096; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA journal_mode = \(journalMode);"
                      + " PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
        try Self.exec(db, schema)
        for row in rows { try Self.exec(db, row) }
        chmod(path, 0o600)
    }

    /// The official identity row for `identity`.
    static func identityRow(_ identity: DeviceIdentity, key: String = "primary", createdAtMs: Int64 = 1758000000000) -> String {
        "INSERT INTO device_identities VALUES ('\(key)', '\(identity.deviceId)', '\(identity.publicKey.pem)',"
            + " '\(identity.privateKey.pem)', \(createdAtMs), \(createdAtMs))"
    }

    static func tokenRow(deviceId: String, token: String, scopes: String = #"["operator.read","operator.write"]"#) -> String {
        "INSERT INTO device_auth_tokens VALUES ('\(deviceId)', 'operator', '\(token)', '\(scopes)', 1758000000000)"
    }

    static func secretRow(name: String, value: String, deletedAtMs: Int64? = nil) -> String {
        "INSERT INTO secret_store_entries (scope_kind, scope_id, name, value, kind, created_at_ms, updated_at_ms, deleted_at_ms)"
            + " VALUES ('team', '', '\(name)', '\(value)', 'secret', 1758000000000, 1758000000000, \(deletedAtMs.map(String.init) ?? "NULL"))"
    }

    /// Every row `sql` returns, each column as text (nil for NULL), read on a connection of its own.
    func query(_ sql: String) throws -> [[String?]] {
        try Self.query(path: path, sql)
    }

    /// The same for the database at `path`.
    static func query(path: String, _ sql: String) throws -> [[String?]] {
        let db = try Self.open(path, create: false)
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw Failure(db) }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) }
            })
        }
        return rows
    }

    /// The bytes of the database and its `-wal`, to show a failed command left them untouched.
    func snapshot() -> [Data?] {
        [path, path + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// Holds the write lock (`BEGIN IMMEDIATE`, or `EXCLUSIVE`, which also shuts readers out of a
    /// database that is not in WAL mode) from when this returns until `release` is called.
    func holdLock(exclusive: Bool = false) throws -> () -> Void {
        let db = try Self.open(path, create: false)
        try Self.exec(db, exclusive ? "BEGIN EXCLUSIVE" : "BEGIN IMMEDIATE")
        try Self.exec(db, "INSERT INTO schema_meta VALUES ('test-lock', 'test', 0, NULL, NULL, 0, 0)")
        return { try? Self.exec(db, "ROLLBACK"); sqlite3_close_v2(db) }
    }

    /// Takes the write lock (`BEGIN IMMEDIATE`) now; `commit` runs its statements in that transaction
    /// and commits, as another process (the official CLI, the gateway) writing a row would.
    func beginWrite() throws -> (_ statements: [String]) throws -> Void {
        let db = try Self.open(path, create: false)
        try Self.exec(db, "BEGIN IMMEDIATE")
        return { statements in
            defer { sqlite3_close_v2(db) }
            for statement in statements { try Self.exec(db, statement) }
            try Self.exec(db, "COMMIT")
        }
    }

    // MARK: a machine without OpenClaw state

    /// The official DDL of the device tables as the official documents give it (schema v6 and later),
    /// verbatim: what a native client that creates the database runs.
    static let nativeDDL = """
        CREATE TABLE IF NOT EXISTS device_identities (
          identity_key TEXT NOT NULL PRIMARY KEY,
          device_id TEXT NOT NULL,
          public_key_pem TEXT NOT NULL,
          private_key_pem TEXT NOT NULL,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX IF NOT EXISTS idx_device_identities_device
          ON device_identities(device_id, updated_at_ms DESC);

        CREATE TABLE IF NOT EXISTS device_auth_tokens (
          device_id TEXT NOT NULL,
          role TEXT NOT NULL,
          token TEXT NOT NULL,
          scopes_json TEXT NOT NULL,
          updated_at_ms INTEGER NOT NULL,
          PRIMARY KEY (device_id, role)
        ) STRICT;
        CREATE INDEX IF NOT EXISTS idx_device_auth_tokens_updated
          ON device_auth_tokens(updated_at_ms DESC, device_id, role);
        """

    /// A database made by running `nativeDDL` verbatim on a new file, with no pragma set: the reference
    /// a database this client created must equal.
    static func nativeReference(at path: String) throws {
        let db = try open(path, create: true)
        defer { sqlite3_close_v2(db) }
        try exec(db, nativeDDL)
    }

    /// What makes a database what it is apart from its rows: every schema object (with its page and
    /// its exact SQL text) and the pragmas stored in the file.
    static func shape(path: String) throws -> [[String?]] {
        var rows = try query(path: path, "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master ORDER BY rowid")
        for pragma in ["user_version", "application_id", "schema_version", "page_size", "auto_vacuum", "journal_mode",
                       "encoding", "freelist_count"] {
            rows.append([pragma] + (try query(path: path, "PRAGMA \(pragma)").first ?? []))
        }
        return rows
    }

    /// The device identity lock files the official tools use for the database of `stateDirectory`
    /// (`<tmpdir>/openclaw-<uid>/` and `<state>/tmp/openclaw-<uid>/`, each
    /// `device-identity.<8 hex of SHA-256 of the database's canonical path>.lock.sqlite`).
    static func identityLockPaths(stateDirectory: URL, temporaryDirectory: URL) -> (temporary: String, stateLocal: String) {
        let database = canonicalPath(stateDirectory.appendingPathComponent("state/openclaw.sqlite").path)
        let name = "device-identity.\(Hex.encode(Digest.sha256(Array(database.utf8))).prefix(8)).lock.sqlite"
        let user = "openclaw-\(getuid())"
        return (temporaryDirectory.standardizedFileURL.path + "/\(user)/" + name,
                canonicalPath(stateDirectory.path) + "/tmp/\(user)/" + name)
    }

    /// The path with its longest existing ancestor resolved (the official `resolvePathViaExistingAncestorSync`).
    static func canonicalPath(_ path: String) -> String {
        var existing = path
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing) {
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        var real = existing
        if let resolved = realpath(existing, nil) {
            real = String(cString: resolved)
            free(resolved)
        }
        return ([real] + missing).joined(separator: "/")
    }

    /// Holds the device identity lock at `path` as the official tools do (directory 0700; `PRAGMA
    /// busy_timeout = 5000; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE`) until `release` is called.
    static func holdIdentityLock(at path: String) throws -> () -> Void {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let db = try open(path, create: true)
        try exec(db, "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE;")
        return { try? exec(db, "ROLLBACK"); sqlite3_close_v2(db) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ db: OpaquePointer?) { description = db.map { String(cString: sqlite3_errmsg($0)) } ?? "sqlite: no handle" }
    }

    private static func open(_ path: String, create: Bool) throws -> OpaquePointer? {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else { defer { sqlite3_close_v2(db) }; throw Failure(db) }
        _ = csqlite_no_checkpoint_on_close(db)
        sqlite3_busy_timeout(db, 10_000)
        return db
    }

    static func exec(_ db: OpaquePointer?, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure(db) }
    }
}
