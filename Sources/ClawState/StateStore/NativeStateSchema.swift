
/// The tables a native OpenClaw client (the Swift runtime of the Apple apps, and this client) creates
/// in a state database that has none yet: the device identity and the device tokens, in the official
/// DDL, character for character (SQLite keeps the statement text, and the official tools compare
/// it). `user_version` stays 0 and nothing else is added (no `schema_meta` row, no
/// `gateway_origin_device_tokens`): the official CLI accepts such a database as "uninitialized
/// native" and builds its full schema on top of it at its next start.
enum NativeStateSchema {
    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS device_identities (
          identity_key TEXT NOT NULL PRIMARY KEY,
          device_id TEXT NOT NULL,
          public_key_pem TEXT NOT NULL,
          private_key_pem TEXT NOT NULL,
          created_at_ms INTEGER NOT NULL,
          updated_at_ms INTEGER NOT NULL
        ) STRICT
        """,
        """
        CREATE INDEX IF NOT EXISTS idx_device_identities_device
          ON device_identities(device_id, updated_at_ms DESC)
        """,
        """
        CREATE TABLE IF NOT EXISTS device_auth_tokens (
          device_id TEXT NOT NULL,
          role TEXT NOT NULL,
          token TEXT NOT NULL,
          scopes_json TEXT NOT NULL,
          updated_at_ms INTEGER NOT NULL,
          PRIMARY KEY (device_id, role)
        ) STRICT
        """,
        """
        CREATE INDEX IF NOT EXISTS idx_device_auth_tokens_updated
          ON device_auth_tokens(updated_at_ms DESC, device_id, role)
        """,
    ]

    /// The schema objects those statements make.
    static let objectNames: Set<String> = [
        "device_identities", "idx_device_identities_device", "device_auth_tokens", "idx_device_auth_tokens_updated",
    ]

    /// Inside a write transaction: completes the native tables of a database that holds nothing else
    /// (a file just created, or one another native client began) at `user_version` 0. A database
    /// with anything more, or a version, is the official CLI's and is left exactly as it is; if it
    /// lacks a table this client needs, the statement that uses it says so.
    static func completeIfNative(_ db: SQLiteConnection) throws(SQLiteError) {
        let names = Set(try db.rows("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").compactMap { $0.first?.text })
        guard names != objectNames, names.isSubset(of: objectNames),
              try db.rows("PRAGMA user_version").first?.first?.integer == 0
        else { return }
        for statement in statements { try db.rows(statement) }
    }
}
