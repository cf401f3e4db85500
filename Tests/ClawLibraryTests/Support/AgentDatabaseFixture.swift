import Foundation
import CClawSQLite
@_spi(Engine) import ClawJSON

/// An agent session database built as the official CLI (2026.9.x) builds one: the v19 DDL of
/// `Tests/Fixtures/official-agent-schema-v19.sql`, journal mode WAL, `PRAGMA user_version`, the
/// `schema_meta` owner row, and rows written as its session writer writes them (the row inserted,
/// which the triggers mark pending, then settled `entry_valid = 1`). Every write is its own
/// connection, closed without a checkpoint, so committed rows wait in the `-wal` file, as on a
/// machine where the gateway runs.
final class AgentDatabaseFixture: @unchecked Sendable {
    static let schema = (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/official-agent-schema-v19.sql").standardizedFileURL, encoding: .utf8)) ?? ""

    let path: String

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// `meta`: the `schema_meta` row (role, agent id); nil for none.
    init(path: String, agentId: String = "main", userVersion: Int = 19, journalMode: String = "WAL",
         meta: (role: String, agentId: String?)? = nil, withMeta: Bool = true, schema: String = AgentDatabaseFixture.schema) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let owner = meta ?? (role: "agent", agentId: agentId)
        var script = "PRAGMA journal_mode = \(journalMode);\n" + schema + "\nPRAGMA user_version = \(userVersion);\n"
        if withMeta {
            script += "INSERT INTO schema_meta VALUES ('primary', '\(owner.role)', \(userVersion), "
                + (owner.agentId.map { "'\($0)'" } ?? "NULL") + ", '2026.9.4', 1758000000000, 1758000000000);\n"
        }
        try exec(script)
    }

    /// Runs `sql` (several statements) on a connection of its own.
    func exec(_ sql: String) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let db else {
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close_v2(db) }
        _ = csqlite_no_checkpoint_on_close(db)
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(db, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "?"
            sqlite3_free(error)
            throw Failure(description: message)
        }
    }

    /// A session row as the writer stores it: `entry` is the `entry_json` document; the row's
    /// `current_session_id` and `updated_at` are the entry's unless given. `valid`: nil leaves the
    /// row as the triggers left it (pending).
    func insert(_ key: String, _ entry: JSONValue, valid: Int? = 1, sessionId: String? = nil, updatedAt: Int64? = nil,
                entryJSON: String? = nil, extra: [String: String] = [:]) throws {
        let id = sessionId ?? entry["sessionId"]?.stringValue ?? ""
        let stamp = updatedAt ?? entry["updatedAt"]?.int64Value ?? 0
        var columns = ["session_key", "current_session_id", "entry_json", "updated_at"]
        var values = [Self.quote(key), Self.quote(id), Self.quote(entryJSON ?? entry.compactText), String(stamp)]
        for (column, value) in extra.sorted(by: { $0.key < $1.key }) {
            columns.append(column)
            values.append(value)
        }
        var sql = "INSERT INTO session_nodes (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")));"
        if let valid { sql += " UPDATE session_nodes SET entry_valid = \(valid) WHERE session_key = \(Self.quote(key));" }
        try exec(sql)
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// The names of the files beside the database (`-wal`, `-shm`, …).
    var siblings: [String] {
        let directory = (path as NSString).deletingLastPathComponent
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    /// Checkpoints the WAL into the main file and leaves no `-wal`/`-shm`: a database nobody has open.
    func closeCleanly() throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            throw Failure(description: "cannot open \(path)")
        }
        sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil)
        sqlite3_close_v2(db)
    }

    /// Holds the write lock with `statements` written but not committed until `release` is called:
    /// a gateway in the middle of a write.
    func holdWrite(_ statements: String) throws -> () -> Void {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            throw Failure(description: "cannot open \(path)")
        }
        _ = csqlite_no_checkpoint_on_close(db)
        guard sqlite3_exec(db, "BEGIN IMMEDIATE; " + statements, nil, nil, nil) == SQLITE_OK else {
            sqlite3_close_v2(db)
            throw Failure(description: "cannot start the write")
        }
        return { sqlite3_exec(db, "ROLLBACK", nil, nil, nil); sqlite3_close_v2(db) }
    }
}
