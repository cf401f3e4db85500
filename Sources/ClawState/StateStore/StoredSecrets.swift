@_spi(Engine) import ClawSystem
/// Secrets the official CLI keeps in the state database (`secret_store_entries`), for secret refs
/// `{source: "store", provider: "default", id: NAME}`: the live team-scope row of that name. Read only.
@_spi(Engine) public enum StoredSecrets {
    @_spi(Engine) public enum Failure: Error, Sendable, Equatable {
        /// The name is not `[A-Z][A-Z0-9_]{0,127}`.
        case invalidName
        /// No database, no table, or no live row of that name.
        case notFound
        case unavailable(StateDatabaseError)
    }

    @_spi(Engine) public static func value(named name: String, in database: StateDatabase?) throws(Failure) -> String {
        guard isValidName(name) else { throw .invalidName }
        guard let database, FileSystem.exists(database.path) else { throw .notFound }
        defer { database.close() }
        let row: [SQLiteValue]?
        do {
            row = try database.withConnection { db throws(SQLiteError) in
                try db.rows("""
                    SELECT value FROM secret_store_entries
                    WHERE scope_kind = 'team' AND scope_id = '' AND name = ? AND deleted_at_ms IS NULL
                    """, [.text(name)]).first
            }
        } catch {
            // As in the official store, a database without the table simply holds no secrets.
            if case .unknownSchema(let reason) = error.problem, reason.hasPrefix("no such table") { throw .notFound }
            throw .unavailable(error)
        }
        guard let value = row?.first?.text, !value.isEmpty else { throw .notFound }
        return value
    }

    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 128, first >= UInt8(ascii: "A"), first <= UInt8(ascii: "Z") else { return false }
        return bytes.allSatisfy { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "_") }
    }
}
