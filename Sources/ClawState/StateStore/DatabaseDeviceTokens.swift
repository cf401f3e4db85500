@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
/// Device tokens in the state database, written as the official CLI writes them: one row per
/// (device, role), `scopes_json` the normalised scopes as compact JSON, `updated_at_ms` now, each
/// change one short `BEGIN IMMEDIATE` transaction that touches that row only, and only if it still
/// holds the token this command saw.
/// - the gateway the config describes in local mode: `device_auth_tokens`;
/// - any other target (a URL given on the side, a remote gateway): `gateway_origin_device_tokens`
///   under the target's scope (`DeviceTokenScope`), so a token never travels to another gateway.
@_spi(Engine) public struct DatabaseDeviceTokens: DeviceTokenStore {
    @_spi(Engine) public enum Target: Sendable, Equatable {
        case configuredGateway
        case gatewayScope(String)
    }

    @_spi(Engine) public let database: StateDatabase
    @_spi(Engine) public let target: Target
    /// The state directory, for the pre-database token file the official store refuses to work beside.
    let stateDirectory: String

    @_spi(Engine) public init(database: StateDatabase, target: Target, stateDirectory: String) {
        self.database = database
        self.target = target
        self.stateDirectory = stateDirectory
    }

    @_spi(Engine) public func observe(deviceId: String, role: String) throws(IdentityError) -> DeviceTokenObservation {
        let role = TextTrim.trimmed(role)
        guard FileSystem.exists(database.path) else { return .nothingStored }
        let row = try run { db throws(SQLiteError) -> [SQLiteValue]? in
            switch target {
            case .configuredGateway:
                return try db.rows("SELECT token, scopes_json, updated_at_ms FROM device_auth_tokens WHERE device_id = ? AND role = ?",
                                   [.text(deviceId), .text(role)]).first
            case .gatewayScope(let scope):
                guard try Self.hasOriginTable(db) else { return nil }
                return try db.rows("""
                    SELECT token, scopes_json, updated_at_ms FROM gateway_origin_device_tokens
                    WHERE gateway_scope = ? AND device_id = ? AND role = ?
                    """, [.text(scope), .text(deviceId), .text(role)]).first
            }
        }
        guard let row, row.count == 3, let stored = row[0].text else { return .nothingStored }
        // A row the official store would not read either (no token, scopes not a JSON array of strings) is
        // no token to use; it is still what a later write must find there.
        guard !stored.isEmpty, let scopesJSON = row[1].text,
              let scopes = try? JSONValue.parse(Array(scopesJSON.utf8)).arrayValue?.compactMap(\.stringValue),
              let updatedAtMs = row[2].integer
        else { return DeviceTokenObservation(entry: nil, storedToken: stored) }
        return DeviceTokenObservation(entry: StoredDeviceToken(token: Secret(stored), role: role, scopes: scopes, updatedAtMs: updatedAtMs),
                                      storedToken: stored)
    }

    /// As the newest official store writes: `UPDATE … WHERE token = <the token observed>`, or, where
    /// none was, `INSERT … ON CONFLICT DO NOTHING`; a row another process changed meanwhile is kept.
    /// A database without `gateway_origin_device_tokens` (one a native client created) keeps no
    /// tokens of other targets: nothing is written, quietly.
    @discardableResult
    @_spi(Engine) public func save(deviceId: String, role: String, token: Secret, scopes: [String],
                     replacing observed: DeviceTokenObservation) throws(IdentityError) -> StoredDeviceToken? {
        let entry = StoredDeviceToken(token: token, role: TextTrim.trimmed(role),
                                      scopes: DeviceAuthStore.normalizeScopes(scopes), updatedAtMs: FileSystem.nowMilliseconds())
        var scopesJSON = [UInt8]()
        JSONValue(entry.scopes).write(to: &scopesJSON)
        let update: [SQLiteValue] = [.text(token.value), .text(String(decoding: scopesJSON, as: UTF8.self)), .integer(entry.updatedAtMs)]
        let statements: (update: String, insert: String, key: [SQLiteValue])
        switch target {
        case .configuredGateway:
            statements = ("""
                UPDATE device_auth_tokens SET token = ?, scopes_json = ?, updated_at_ms = ?
                WHERE device_id = ? AND role = ? AND token = ?
                """, """
                INSERT INTO device_auth_tokens (device_id, role, token, scopes_json, updated_at_ms)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (device_id, role) DO NOTHING
                """, [.text(deviceId), .text(entry.role)])
        case .gatewayScope(let scope):
            statements = ("""
                UPDATE gateway_origin_device_tokens SET token = ?, scopes_json = ?, updated_at_ms = ?
                WHERE gateway_scope = ? AND device_id = ? AND role = ? AND token = ?
                """, """
                INSERT INTO gateway_origin_device_tokens (gateway_scope, device_id, role, token, scopes_json, updated_at_ms)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (gateway_scope, device_id, role) DO NOTHING
                """, [.text(scope), .text(deviceId), .text(entry.role)])
        }
        let stored = try run { db throws(SQLiteError) -> Bool in
            if case .gatewayScope = target, try !Self.hasOriginTable(db) { return false }
            return try db.writeTransaction { () throws(SQLiteError) -> Bool in
                if let expected = observed.storedToken {
                    try db.rows(statements.update, update + statements.key + [.text(expected)])
                } else {
                    try db.rows(statements.insert, statements.key + update)
                }
                return db.changes == 1
            }
        }
        return stored ? entry : nil
    }

    /// `DELETE … WHERE token = <the token the gateway rejected>`: a token stored since is kept.
    @_spi(Engine) public func remove(deviceId: String, role: String, ifStill token: String) throws(IdentityError) {
        let role = TextTrim.trimmed(role)
        _ = try run { db throws(SQLiteError) in
            switch target {
            case .configuredGateway:
                _ = try db.writeTransaction { () throws(SQLiteError) in
                    try db.rows("DELETE FROM device_auth_tokens WHERE device_id = ? AND role = ? AND token = ?",
                                [.text(deviceId), .text(role), .text(token)])
                }
            case .gatewayScope(let scope):
                guard try Self.hasOriginTable(db) else { return }
                _ = try db.writeTransaction { () throws(SQLiteError) in
                    try db.rows("DELETE FROM gateway_origin_device_tokens WHERE gateway_scope = ? AND device_id = ? AND role = ? AND token = ?",
                                [.text(scope), .text(deviceId), .text(role), .text(token)])
                }
            }
        }
    }

    /// Whether the database has the table for other targets' tokens: the official CLI's schema has it
    /// (and creates it in the few older ones that lack it); the native tables do not include it.
    private static func hasOriginTable(_ db: SQLiteConnection) throws(SQLiteError) -> Bool {
        !(try db.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'gateway_origin_device_tokens'")).isEmpty
    }

    @_spi(Engine) public func close() { database.close() }

    /// `body` on an open connection, after the check the official store makes before every use.
    private func run<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(IdentityError) -> T {
        let legacy = DeviceAuthStore(stateDirectory: stateDirectory).path
        if FileSystem.exists(legacy) {
            throw .stateDatabase(StateDatabaseError(path: database.path, problem: .legacyDeviceAuthAwaitingImport(path: legacy)))
        }
        do { return try database.withConnection(body) } catch { throw .stateDatabase(error) }
    }
}
