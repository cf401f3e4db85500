import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawState

/// What this client writes into a state database, on real files: the database a machine without
/// OpenClaw state gets, and token writes that never lose another process's token.
@Suite struct StateDatabaseWritesTests {
    /// A state directory whose identity lock lives in the test's own temporary directory.
    private func layout(_ dir: ConfigTestDirectory, _ state: String = "state") -> StateLayout {
        dir.mkdir("tmp")
        return StateLayout(stateDirectory: dir.sub(state), environment: Environment(["TMPDIR": dir.sub("tmp")]))
    }

    private func connection(_ path: String) throws -> SQLiteConnection {
        try SQLiteConnection(path: path, busyTimeoutMs: 5_000)
    }

    private func names(_ db: SQLiteConnection) throws -> [String] {
        try db.rows("SELECT name FROM sqlite_master ORDER BY rowid").compactMap { $0.first?.text }
    }

    @Test func aFreshStateDirectoryGetsTheNativeDatabaseAndItsIdentity() throws {
        let dir = ConfigTestDirectory()
        let state = layout(dir)
        guard case .database(let database) = state else { Issue.record("\(state)"); return }
        let created = try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("state"), layout: state)
        database.close()
        #expect(!FileManager.default.fileExists(atPath: dir.sub("state/identity")))
        #expect(permissionBits(dir.sub("state")) == 0o700)
        #expect(permissionBits(dir.sub("state/state")) == 0o700)
        #expect(permissionBits(database.path) == 0o600)
        let db = try connection(database.path)
        #expect(try names(db) == ["device_identities", "sqlite_autoindex_device_identities_1", "idx_device_identities_device",
                                  "device_auth_tokens", "sqlite_autoindex_device_auth_tokens_1", "idx_device_auth_tokens_updated"])
        #expect(try db.rows("PRAGMA user_version") == [[.integer(0)]])
        #expect(try db.rows("PRAGMA integrity_check") == [[.text("ok")]])
        #expect(try db.rows("SELECT identity_key, device_id FROM device_identities") == [[.text("primary"), .text(created.deviceId)]])
        // The identity lock files, both of them, empty and private.
        for lock in IdentityCreationLock.paths(databasePath: database.path, stateDirectory: dir.sub("state"),
                                               temporaryDirectory: dir.sub("tmp"), userID: FileSystem.currentUserID()) {
            #expect(permissionBits(lock) == 0o600, "\(lock)")
            #expect(permissionBits(Paths.parent(lock)) == 0o700, "\(lock)")
        }
        // And from now on a database like any other.
        let again = try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("state"), layout: layout(dir))
        #expect(again.deviceId == created.deviceId)
    }

    @Test func concurrentCreatorsOnAFreshMachineAgreeOnOneIdentity() throws {
        let dir = ConfigTestDirectory()
        let ids = IdentityIdCollector()
        dir.mkdir("tmp")
        let (directory, temporary) = (dir.sub("race"), dir.sub("tmp"))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let state = StateLayout(stateDirectory: directory, environment: Environment(["TMPDIR": temporary]))
            defer { if case .database(let database) = state { database.close() } }
            if let identity = try? DeviceIdentity.loadOrCreate(stateDirectory: directory, layout: state) { ids.add(identity.deviceId) }
        }
        #expect(ids.all.count == 8)
        #expect(Set(ids.all).count == 1)
        let db = try connection(dir.sub("race/state/openclaw.sqlite"))
        #expect(try db.rows("SELECT device_id FROM device_identities") == [[.text(ids.all[0])]])
    }

    /// The Swift identity store of the Apple apps creates `device_identities` alone: the token table is
    /// added beside it. A database with anything else is the official CLI's and is not touched.
    @Test func theNativeTablesAreCompletedOnlyInANativeDatabase() throws {
        let dir = ConfigTestDirectory()
        dir.mkdir("state/state")
        let path = dir.sub("state/state/openclaw.sqlite")
        _ = try FileSystem.createEmptyFile(path, mode: 0o600)
        let db = try connection(path)
        try db.rows(NativeStateSchema.statements[0])
        try db.rows(NativeStateSchema.statements[1])
        try db.writeTransaction { () throws(SQLiteError) in try NativeStateSchema.completeIfNative(db) }
        #expect(Set(try names(db).filter { !$0.hasPrefix("sqlite_") }) == NativeStateSchema.objectNames)

        let other = ConfigTestDirectory()
        other.mkdir("s")
        let foreign = other.sub("s/other.sqlite")
        _ = try FileSystem.createEmptyFile(foreign, mode: 0o600)
        let odb = try connection(foreign)
        try odb.rows("CREATE TABLE other (x TEXT) STRICT")
        try odb.writeTransaction { () throws(SQLiteError) in try NativeStateSchema.completeIfNative(odb) }
        #expect(try names(odb) == ["other"])
        try odb.rows("DROP TABLE other")
        try odb.rows("PRAGMA user_version = 3")
        try odb.writeTransaction { () throws(SQLiteError) in try NativeStateSchema.completeIfNative(odb) }
        #expect(try names(odb).isEmpty)
    }

    // MARK: token writes

    /// A native database with the identity of `deviceId`'s device, and a store for the configured gateway.
    private func nativeStore(_ dir: ConfigTestDirectory, target: DatabaseDeviceTokens.Target = .configuredGateway)
        throws -> (DatabaseDeviceTokens, DeviceIdentity) {
        let state = layout(dir)
        guard case .database(let database) = state else { throw StateDatabaseError(path: "", problem: .corrupt) }
        let identity = try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("state"), layout: state)
        return (DatabaseDeviceTokens(database: database, target: target, stateDirectory: dir.sub("state")), identity)
    }

    @Test func aTokenRotatedMeanwhileIsKept() throws {
        let dir = ConfigTestDirectory()
        let (store, identity) = try nativeStore(dir)
        defer { store.close() }
        let other = try connection(store.database.path)  // another process's connection
        let id = identity.deviceId

        // Nothing stored when this command looked; another process stores one before this one writes.
        let none = try store.observe(deviceId: id, role: "operator")
        #expect(none == .nothingStored)
        try other.rows("INSERT INTO device_auth_tokens VALUES (?, 'operator', 'theirs-1', '[]', 1)", [.text(id)])
        #expect(try store.save(deviceId: id, role: "operator", token: Secret("ours-1"), scopes: [], replacing: none) == nil)
        #expect(try store.token(deviceId: id, role: "operator")?.token.value == "theirs-1")

        // This command saw theirs-1; another process rotates it to theirs-2 before this one writes.
        let seen = try store.observe(deviceId: id, role: "operator")
        #expect(seen.storedToken == "theirs-1" && seen.entry?.token.value == "theirs-1")
        try other.rows("UPDATE device_auth_tokens SET token = 'theirs-2'")
        #expect(try store.save(deviceId: id, role: "operator", token: Secret("ours-2"), scopes: [], replacing: seen) == nil)
        #expect(try other.rows("SELECT token FROM device_auth_tokens") == [[.text("theirs-2")]])

        // Unchanged since the look: replaced, scopes normalised.
        let current = try store.observe(deviceId: id, role: "operator")
        let saved = try store.save(deviceId: id, role: " operator ", token: Secret("ours-3"), scopes: ["operator.write"], replacing: current)
        #expect(saved?.scopes == ["operator.read", "operator.write"])
        #expect(try other.rows("SELECT role, token, scopes_json FROM device_auth_tokens")
                == [[.text("operator"), .text("ours-3"), .text(#"["operator.read","operator.write"]"#)]])

        // A rejected token is removed only while it is still the one stored.
        try store.remove(deviceId: id, role: "operator", ifStill: "ours-2")
        #expect(try store.token(deviceId: id, role: "operator")?.token.value == "ours-3")
        try store.remove(deviceId: id, role: "operator", ifStill: "ours-3")
        #expect(try store.observe(deviceId: id, role: "operator") == .nothingStored)
    }

    /// A row the official store would not read (scopes not a JSON array) is no token to use, but it is
    /// what a write must find there.
    @Test func anUnreadableRowIsStillTheOneAWriteReplaces() throws {
        let dir = ConfigTestDirectory()
        let (store, identity) = try nativeStore(dir)
        defer { store.close() }
        let other = try connection(store.database.path)
        try other.rows("INSERT INTO device_auth_tokens VALUES (?, 'operator', 'odd', 'not json', 1)", [.text(identity.deviceId)])
        let seen = try store.observe(deviceId: identity.deviceId, role: "operator")
        #expect(seen.entry == nil && seen.storedToken == "odd")
        #expect(try store.save(deviceId: identity.deviceId, role: "operator", token: Secret("new"), scopes: [], replacing: seen) != nil)
        #expect(try other.rows("SELECT token, scopes_json FROM device_auth_tokens") == [[.text("new"), .text("[]")]])
    }

    /// A native database keeps no tokens of other targets: nothing read, nothing written, no table made.
    @Test func otherTargetsKeepNoTokensInANativeDatabase() throws {
        let dir = ConfigTestDirectory()
        let (store, identity) = try nativeStore(dir, target: .gatewayScope("wss://gw.example"))
        defer { store.close() }
        let seen = try store.observe(deviceId: identity.deviceId, role: "operator")
        #expect(seen == .nothingStored)
        #expect(try store.save(deviceId: identity.deviceId, role: "operator", token: Secret("t"), scopes: [], replacing: seen) == nil)
        try store.remove(deviceId: identity.deviceId, role: "operator", ifStill: "t")
        let db = try connection(store.database.path)
        #expect(try !names(db).contains("gateway_origin_device_tokens"))
        #expect(try db.rows("SELECT count(*) FROM device_auth_tokens") == [[.integer(0)]])
    }

    @Test func theOlderTokenFileIsWrittenByTheSameRule() throws {
        let dir = ConfigTestDirectory()
        let store = DeviceAuthStore(stateDirectory: dir.sub("state"))
        let none = store.observe(deviceId: "dev", role: "operator")
        #expect(none == .nothingStored)
        try store.save(deviceId: "dev", role: "operator", token: Secret("theirs"), scopes: [])
        #expect(try store.save(deviceId: "dev", role: "operator", token: Secret("ours"), scopes: [], replacing: none) == nil)
        let seen = store.observe(deviceId: "dev", role: "operator")
        #expect(try store.save(deviceId: "dev", role: "operator", token: Secret("ours"), scopes: [], replacing: seen) != nil)
        try store.remove(deviceId: "dev", role: "operator", ifStill: "theirs")
        #expect(store.token(deviceId: "dev", role: "operator")?.token.value == "ours")
    }
}
