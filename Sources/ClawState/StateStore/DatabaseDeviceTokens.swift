import ClawSystem
import ClawJSON
/// Device tokens in the state database, written as the official CLI writes them: one row per
/// (device, role), `scopes_json` the normalised scopes as compact JSON, `updated_at_ms` now, each
/// change one short `BEGIN IMMEDIATE` transaction that touches that row only.
/// - the gateway the config describes in local mode: `device_auth_tokens`;
/// - any other target (a URL given on the side, a remote gateway): `gateway_origin_device_tokens`
///   under the target's scope (`DeviceTokenScope`), so a token never travels to another gateway.
public struct DatabaseDeviceTokens: DeviceTokenStore {
    public enum Target: Sendable, Equatable {
        case configuredGateway
        case gatewayScope(String)
    }

    public let database: StateDatabase
    public let target: Target
    /// The state directory, for the pre-database token file the official store refuses to work beside.
    let stateDirectory: String

    public init(database: StateDatabase, target: Target, stateDirectory: String) {
        self.database = database
        self.target = target
        self.stateDirectory = stateDirectory
    }

    public func token(deviceId: String, role: String) throws(IdentityError) -> StoredDeviceToken? {
        let role = TextTrim.trimmed(role)
        let row = try run { db throws(SQLiteError) in
            switch target {
            case .configuredGateway:
                return try db.rows("SELECT token, scopes_json, updated_at_ms FROM device_auth_tokens WHERE device_id = ? AND role = ?",
                                   [.text(deviceId), .text(role)]).first
            case .gatewayScope(let scope):
                return try db.rows("""
                    SELECT token, scopes_json, updated_at_ms FROM gateway_origin_device_tokens
                    WHERE gateway_scope = ? AND device_id = ? AND role = ?
                    """, [.text(scope), .text(deviceId), .text(role)]).first
            }
        }
        // A row the official store would not read either (no token, scopes not a JSON array of strings) is no token.
        guard let row, row.count == 3, let token = row[0].text, !token.isEmpty, let scopesJSON = row[1].text,
              let scopes = try? JSONValue.parse(Array(scopesJSON.utf8)).arrayValue?.compactMap(\.stringValue),
              let updatedAtMs = row[2].integer
        else { return nil }
        return StoredDeviceToken(token: Secret(token), role: role, scopes: scopes, updatedAtMs: updatedAtMs)
    }

    @discardableResult
    public func save(deviceId: String, role: String, token: Secret, scopes: [String]) throws(IdentityError) -> StoredDeviceToken {
        let entry = StoredDeviceToken(token: token, role: TextTrim.trimmed(role),
                                      scopes: DeviceAuthStore.normalizeScopes(scopes), updatedAtMs: FileSystem.nowMilliseconds())
        var scopesJSON = [UInt8]()
        JSONValue(entry.scopes).write(to: &scopesJSON)
        let values: [SQLiteValue] = [.text(deviceId), .text(entry.role), .text(token.value),
                                     .text(String(decoding: scopesJSON, as: UTF8.self)), .integer(entry.updatedAtMs)]
        _ = try run { db throws(SQLiteError) in
            try db.writeTransaction { () throws(SQLiteError) in
                switch target {
                case .configuredGateway:
                    try db.rows("""
                        INSERT INTO device_auth_tokens (device_id, role, token, scopes_json, updated_at_ms)
                        VALUES (?, ?, ?, ?, ?) ON CONFLICT (device_id, role) DO UPDATE SET
                            token = excluded.token, scopes_json = excluded.scopes_json, updated_at_ms = excluded.updated_at_ms
                        """, values)
                case .gatewayScope(let scope):
                    try db.rows("""
                        INSERT INTO gateway_origin_device_tokens (gateway_scope, device_id, role, token, scopes_json, updated_at_ms)
                        VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (gateway_scope, device_id, role) DO UPDATE SET
                            token = excluded.token, scopes_json = excluded.scopes_json, updated_at_ms = excluded.updated_at_ms
                        """, [.text(scope)] + values)
                }
            }
        }
        return entry
    }

    public func remove(deviceId: String, role: String) throws(IdentityError) {
        let role = TextTrim.trimmed(role)
        _ = try run { db throws(SQLiteError) in
            try db.writeTransaction { () throws(SQLiteError) in
                switch target {
                case .configuredGateway:
                    try db.rows("DELETE FROM device_auth_tokens WHERE device_id = ? AND role = ?", [.text(deviceId), .text(role)])
                case .gatewayScope(let scope):
                    try db.rows("DELETE FROM gateway_origin_device_tokens WHERE gateway_scope = ? AND device_id = ? AND role = ?",
                                [.text(scope), .text(deviceId), .text(role)])
                }
            }
        }
    }

    public func close() { database.close() }

    /// `body` on an open connection, after the check the official store makes before every use.
    private func run<T>(_ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(IdentityError) -> T {
        let legacy = DeviceAuthStore(stateDirectory: stateDirectory).path
        if FileSystem.exists(legacy) {
            throw .stateDatabase(StateDatabaseError(path: database.path, problem: .legacyDeviceAuthAwaitingImport(path: legacy)))
        }
        do { return try database.withConnection(body) } catch { throw .stateDatabase(error) }
    }
}
