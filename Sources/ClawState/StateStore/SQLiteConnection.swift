import CClawSQLite

/// A value bound to, or read from, an SQL statement.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case text(String)

    var text: String? { if case .text(let value) = self { return value } else { return nil } }
    var integer: Int64? { if case .integer(let value) = self { return value } else { return nil } }
}

/// What SQLite said went wrong: its primary result code and its message. SQLite's messages name
/// tables, columns and files, never the values of a row, so they are safe to show.
struct SQLiteError: Error, Sendable, Equatable {
    let code: Int32
    let message: String

    /// Another connection held the lock for longer than the busy timeout.
    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// Not a database, or a damaged one.
    var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    /// The file could not be opened, read or written (permissions, a missing directory, I/O).
    var isAccess: Bool { code == SQLITE_CANTOPEN || code == SQLITE_PERM || code == SQLITE_IOERR || code == SQLITE_AUTH }
    /// A change was refused: a read-only file or a full disk.
    var isWriteRefused: Bool { code == SQLITE_READONLY || code == SQLITE_FULL }
    /// A statement did not compile against this schema: a table or column is missing.
    var isSchema: Bool { code == SQLITE_ERROR }
}

/// One connection to an SQLite database file that already exists, through the system libsqlite3.
/// It never creates the file (a new state database is created empty, with its mode, by
/// `StateDatabase`) and never sets a pragma that persists (journal mode, user version): the database
/// belongs to whoever made it. Closing never checkpoints a WAL, so a read leaves every byte of the
/// database as it found it.
final class SQLiteConnection {
    private var handle: OpaquePointer?

    /// Opens `path` for reading and writing (reading only when the file is write-protected), waiting
    /// up to `busyTimeoutMs` whenever another connection holds a lock.
    init(path: String, busyTimeoutMs: Int32) throws(SQLiteError) {
        handle = try Self.open(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
                               busyTimeoutMs: busyTimeoutMs)
    }

    /// Opens `path` read-only, as the official CLI's readers do (`node:sqlite` with `readOnly: true`,
    /// openclaw/openclaw `src/state/openclaw-agent-db-readonly-open.ts`): `SQLITE_OPEN_READONLY`, never
    /// creating the database, no pragma at all, the busy timeout set with the open so every statement is
    /// covered. On a database in WAL mode SQLite itself still opens (and, when they are missing and the
    /// directory is writable, creates empty) the `-wal` and `-shm` files, exactly as for the official
    /// reader; it writes no page and, closing, never checkpoints.
    ///
    /// `immutable`: the file is opened as `file:…?immutable=1`, which SQLite reads with no lock and no
    /// side file at all; only for a file nothing writes while it is read (the caller checks that).
    init(readOnlyPath path: String, busyTimeoutMs: Int32, immutable: Bool = false) throws(SQLiteError) {
        var flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            name = Self.fileURI(path) + "?immutable=1"
        }
        handle = try Self.open(name, flags: flags, busyTimeoutMs: busyTimeoutMs)
    }

    /// One `sqlite3_open_v2`, its busy timeout set and the checkpoint on close turned off.
    private static func open(_ name: String, flags: Int32, busyTimeoutMs: Int32) throws(SQLiteError) -> OpaquePointer {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError(code: rc & 0xFF, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory")
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_busy_timeout(db, busyTimeoutMs)
        _ = csqlite_no_checkpoint_on_close(db)
        return db
    }

    deinit { close() }

    /// `file:` and the absolute path, with `%`, `?`, `#`, spaces, controls and non-ASCII bytes escaped.
    static func fileURI(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array("file:".utf8)
        for byte in path.utf8 {
            if byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs `sql` with `bindings` and returns every row (the statements used here return one or none).
    @discardableResult
    func rows(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        guard let db = handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed") }
        var statement: OpaquePointer?
        var rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw failure(rc) }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let number): rc = sqlite3_bind_int64(statement, index, number)
            case .text(let text): rc = sqlite3_bind_text(statement, index, text, -1, csqlite_transient())
            }
            guard rc == SQLITE_OK else { throw failure(rc) }
        }
        var result: [[SQLiteValue]] = []
        while true {
            rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return result }
            guard rc == SQLITE_ROW else { throw failure(rc) }
            var row: [SQLiteValue] = []
            for column in 0..<sqlite3_column_count(statement) {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_NULL:
                    row.append(.null)
                case SQLITE_INTEGER:
                    row.append(.integer(sqlite3_column_int64(statement, column)))
                default:
                    // Text (or a number or blob read as text): the columns read here are TEXT.
                    if let bytes = sqlite3_column_text(statement, column) {
                        let count = Int(sqlite3_column_bytes(statement, column))
                        row.append(.text(String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)))
                    } else {
                        row.append(.null)
                    }
                }
            }
            result.append(row)
        }
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// `body` inside `BEGIN IMMEDIATE` … `COMMIT`: the write lock is taken first (waiting up to the busy
    /// timeout), so a read inside the transaction cannot be overtaken by another writer. Rolled back on error.
    func writeTransaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try rows("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try rows("COMMIT")
            return value
        } catch {
            _ = try? rows("ROLLBACK")
            throw error
        }
    }

    private func failure(_ rc: Int32) -> SQLiteError {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "no connection"
        return SQLiteError(code: rc & 0xFF, message: message)
    }
}
