@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
/// The device identity in the state database: table `device_identities`, row `identity_key = 'primary'`
/// (the official CLI's own; `device_id`, SPKI and PKCS#8 PEM keys, `created_at_ms`, `updated_at_ms`).
/// Read as the official CLI reads it, and created as it creates it when the row is missing.
enum DatabaseIdentity {
    static let primaryKey = "primary"

    /// The pre-database identity files whose presence makes the official tools refuse to go on until
    /// `openclaw doctor --fix` has imported them (checked with lstat, as they do).
    static func pendingLegacyIdentity(stateDirectory: String) -> String? {
        let base = DeviceIdentity.path(stateDirectory: stateDirectory)
        return [base, base + ".doctor-importing", base + ".native-importing"].first(where: FileSystem.lexists)
    }

    static func loadOrCreate(database: StateDatabase, stateDirectory: String) throws(IdentityError) -> DeviceIdentity {
        if let legacy = pendingLegacyIdentity(stateDirectory: stateDirectory) {
            throw .stateDatabase(StateDatabaseError(path: database.path, problem: .legacyIdentityAwaitingImport(path: legacy)))
        }
        // This client always uses the device tokens with the identity: a token file the official store
        // refuses to work beside stops the command here, before anything is sent.
        let legacyTokens = DeviceAuthStore(stateDirectory: stateDirectory).path
        if FileSystem.exists(legacyTokens) {
            throw .stateDatabase(StateDatabaseError(path: database.path, problem: .legacyDeviceAuthAwaitingImport(path: legacyTokens)))
        }
        if FileSystem.exists(database.path) {
            var existing: [SQLiteValue]? = nil
            do {
                existing = try database.withConnection { db throws(SQLiteError) in try select(db) }
            } catch where isMissingIdentityTable(error) {
                // Maybe a database another native client is creating right now: its tables are done under the lock.
            } catch {
                throw .stateDatabase(error)
            }
            if let existing { return try identity(row: existing, database: database) }
        }
        return try create(database: database, stateDirectory: stateDirectory)
    }

    /// Creates the `primary` row as the official tools do: under their identity lock, inserted only if
    /// nobody else did first, then read back, so a race with the official CLI, the Apple apps or
    /// `openclaw doctor --fix` ends with the one row that won. On a machine without OpenClaw state this
    /// creates the database first, as a native client does (`NativeStateSchema`).
    private static func create(database: StateDatabase, stateDirectory: String) throws(IdentityError) -> DeviceIdentity {
        // Generated before the lock is taken, to hold it as briefly as the official tools do.
        let key: Ed25519PrivateKey
        do { key = try Ed25519PrivateKey.generate() } catch { throw .crypto(operation: "key generation") }
        let fresh = DeviceIdentity(privateKey: key, createdAtMs: FileSystem.nowMilliseconds())
        let lockPaths = IdentityCreationLock.paths(databasePath: database.path, stateDirectory: stateDirectory,
                                                   temporaryDirectory: database.temporaryDirectory,
                                                   userID: FileSystem.currentUserID())
        let row: [SQLiteValue]?
        do throws(StateDatabaseError) {
            // Another process creating it under the lock: its row, as soon as it is there.
            var theirs: [SQLiteValue]? = nil
            let taken = try IdentityCreationLock.acquire(paths: lockPaths, databasePath: database.path) {
                theirs = FileSystem.exists(database.path) ? try? database.withConnection { db throws(SQLiteError) in try select(db) } : nil
                return theirs != nil
            }
            if let lock = taken {
                defer { lock.release() }
                let created = try database.createIfMissing()
                defer { if created { database.securePermissions() } }
                row = try database.withConnection { db throws(SQLiteError) in
                    try db.writeTransaction { () throws(SQLiteError) in
                        try NativeStateSchema.completeIfNative(db)
                        try db.rows("""
                            INSERT INTO device_identities
                                (identity_key, device_id, public_key_pem, private_key_pem, created_at_ms, updated_at_ms)
                            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (identity_key) DO NOTHING
                            """, [.text(primaryKey), .text(fresh.deviceId), .text(fresh.publicKey.pem),
                                  .text(fresh.privateKey.pem), .integer(fresh.createdAtMs ?? 0), .integer(fresh.createdAtMs ?? 0)])
                        return try select(db)
                    }
                }
            } else {
                row = theirs
            }
        } catch {
            throw .stateDatabase(error)
        }
        guard let row else {
            throw .stateDatabase(StateDatabaseError(path: database.path, problem: .cannotWrite("the new identity row was not kept")))
        }
        return try identity(row: row, database: database)
    }

    private static func isMissingIdentityTable(_ error: StateDatabaseError) -> Bool {
        if case .unknownSchema(let reason) = error.problem { return reason == "no such table: device_identities" }
        return false
    }

    private static func select(_ db: SQLiteConnection) throws(SQLiteError) -> [SQLiteValue]? {
        try db.rows("""
            SELECT device_id, public_key_pem, private_key_pem, created_at_ms
            FROM device_identities WHERE identity_key = ?
            """, [.text(primaryKey)]).first
    }

    /// The row as an identity, validated as the official loader validates it: the keys are an Ed25519 pair,
    /// the id is the hex SHA-256 of the public key, the creation time a non-negative integer.
    private static func identity(row: [SQLiteValue], database: StateDatabase) throws(IdentityError) -> DeviceIdentity {
        func invalid(_ reason: String) -> IdentityError {
            .stateDatabase(StateDatabaseError(path: database.path, problem: .invalidIdentity(reason)))
        }
        guard row.count == 4, let storedId = row[0].text, let publicPem = row[1].text, let privatePem = row[2].text,
              let createdAtMs = row[3].integer, createdAtMs >= 0
        else { throw invalid("a column is empty or of the wrong type") }
        let key: Ed25519PrivateKey
        do { key = try Ed25519PrivateKey(pem: privatePem) } catch { throw invalid("private_key_pem is not an Ed25519 PKCS#8 key") }
        let identity = DeviceIdentity(privateKey: key, createdAtMs: createdAtMs)
        let publicKey: Ed25519PublicKey
        do { publicKey = try Ed25519PublicKey(pem: publicPem) } catch { throw invalid("public_key_pem is not an Ed25519 SPKI key") }
        guard publicKey.rawRepresentation == identity.publicKey.rawRepresentation else {
            throw invalid("public_key_pem does not belong to private_key_pem")
        }
        guard storedId == identity.deviceId else { throw invalid("device_id is not the public key's id") }
        return identity
    }
}
