import Foundation
import CSQLite
import ClawState

/// A state database laid out as the official CLI (September 2026) lays it out: its DDL (STRICT tables,
/// the indexes, `schema_meta`), its pragmas (page size 4096, incremental auto-vacuum, WAL,
/// `user_version` 17) and rows with its column values. The connection that built it closes without
/// checkpointing, so every row is still in the `-wal` file, as on a machine where the gateway runs.
final class OfficialStateDatabase: @unchecked Sendable {
    /// The official DDL, kept once for the tests and the benchmark.
    static let schema = (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../tests/fixtures/official-state-schema.sql").standardizedFileURL, encoding: .utf8)) ?? ""

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
