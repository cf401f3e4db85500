import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawState

/// The official SQLite state store, through the real binary against the simulator, on state directories
/// built as a current official install builds them (`OfficialStateDatabase`).
@Suite struct CLIStateDatabaseTests {
    /// A CLI whose config points at `simulator` as the local gateway (the config target).
    private func localConfig(_ cli: CLIEnvironment, port: Int, token: String? = GatewayFixture.token, extra: String = "") throws {
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let auth = token.map { "auth: { mode: 'token', token: '\($0)' }," } ?? ""
        let config = "{ gateway: { mode: 'local', port: \(port), \(auth) }, \(extra) }\n"
        try Data(config.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
    }

    private func connects(_ simulator: SimulatorProcess) -> [JSONValue] {
        simulator.logEntries().compactMap { entry in
            entry["frame"]?["method"]?.stringValue == "connect" ? entry["frame"]?["params"] : nil
        }
    }

    private func identityFolderAbsent(_ cli: CLIEnvironment) -> Bool {
        !FileManager.default.fileExists(atPath: cli.stateDirectory.appendingPathComponent("identity").path)
    }

    @Test func thePrimaryIdentityIsUsedAndAnIssuedTokenLandsInItsRow() throws {
        let identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let cli = CLIEnvironment()
        let database = try OfficialStateDatabase(stateDirectory: cli.stateDirectory,
                                                 rows: [OfficialStateDatabase.identityRow(identity)])
        #expect(FileManager.default.fileExists(atPath: database.path + "-wal"))
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        try localConfig(cli, port: simulator.port)

        let result = try cli.run(["history", "--trace"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(connects(simulator).first?["device"]?["id"]?.stringValue == identity.deviceId)
        let rows = try database.query("SELECT device_id, role, token, scopes_json, updated_at_ms FROM device_auth_tokens")
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row[0] == identity.deviceId && row[1] == "operator")
        #expect(row[3] == #"["operator.read","operator.write"]"#)
        #expect((Int64(row[4] ?? "") ?? 0) > 1758000000000)
        let token = try #require(row[2])
        #expect(!result.stderr.contains(token) && !result.stdout.contains(token))
        #expect(!result.stderr.contains("PRIVATE KEY"))
        #expect(try database.query("SELECT count(*) FROM gateway_origin_device_tokens") == [["0"]])
        #expect(try database.query("PRAGMA integrity_check") == [["ok"]])
        #expect(try database.query("PRAGMA journal_mode") == [["wal"]])
        #expect(try database.query("PRAGMA user_version") == [["17"]])
        #expect(identityFolderAbsent(cli))

        // The stored token alone now authenticates, as it would for the official CLI.
        try localConfig(cli, port: simulator.port, token: nil)
        let again = try cli.run(["history"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(connects(simulator).last?["auth"]?["token"]?.stringValue == token)
        #expect(identityFolderAbsent(cli))
    }

    @Test func aStoredTokenIsSentAndClearedWhenTheGatewayRejectsIt() throws {
        let identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let cli = CLIEnvironment()
        let database = try OfficialStateDatabase(stateDirectory: cli.stateDirectory, rows: [
            OfficialStateDatabase.identityRow(identity),
            OfficialStateDatabase.tokenRow(deviceId: identity.deviceId, token: "stale-device-token-77"),
        ])
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        try localConfig(cli, port: simulator.port, token: nil)
        let result = try cli.run(["history"])
        #expect(result.status == 4)
        #expect(!result.stderr.contains("stale-device-token-77"))
        let sent = connects(simulator).map { $0["auth"]?["token"]?.stringValue }
        #expect(sent.first == "stale-device-token-77")
        #expect(try database.query("SELECT count(*) FROM device_auth_tokens") == [["0"]])
        #expect(try database.query("PRAGMA integrity_check") == [["ok"]])
        #expect(identityFolderAbsent(cli))
    }

    @Test func aURLTargetKeepsItsTokenUnderItsOriginScope() throws {
        let gateway = try GatewayFixture()
        let database = try OfficialStateDatabase(stateDirectory: gateway.cli.stateDirectory)
        #expect(try gateway.run(["history"]).status == 0)
        let identities = try database.query("SELECT identity_key, device_id, created_at_ms = updated_at_ms FROM device_identities")
        #expect(identities.count == 1)
        let deviceId = try #require(identities.first?[1])
        #expect(identities.first?[0] == "primary" && identities.first?[2] == "1")
        #expect(connects(gateway.simulator).first?["device"]?["id"]?.stringValue == deviceId)
        let scoped = try database.query("SELECT gateway_scope, device_id, role FROM gateway_origin_device_tokens")
        #expect(scoped == [["ws://127.0.0.1:\(gateway.simulator.port)", deviceId, "operator"]])
        #expect(try database.query("SELECT count(*) FROM device_auth_tokens") == [["0"]])
        #expect(identityFolderAbsent(gateway.cli))
    }

    @Test func aLegacyIdentityFileWaitingForItsImportStopsTheCommand() throws {
        let gateway = try GatewayFixture()
        let database = try OfficialStateDatabase(stateDirectory: gateway.cli.stateDirectory)
        let legacy = gateway.cli.stateDirectory.appendingPathComponent("identity")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: legacy.appendingPathComponent("device.json"))
        let before = database.snapshot()
        let result = try gateway.run(["history"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("openclaw doctor --fix"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(database.snapshot() == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: legacy.path) == ["device.json"])
        #expect(connects(gateway.simulator).isEmpty)
    }

    @Test func aLegacyDeviceTokenFileBesideTheDatabaseStopsTheCommand() throws {
        let identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let gateway = try GatewayFixture()
        _ = try OfficialStateDatabase(stateDirectory: gateway.cli.stateDirectory, rows: [OfficialStateDatabase.identityRow(identity)])
        let legacy = gateway.cli.stateDirectory.appendingPathComponent("identity")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: legacy.appendingPathComponent("device-auth.json"))
        let result = try gateway.run(["history"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("device-auth.json") && result.stderr.contains("openclaw doctor --fix"), "\(result.stderr)")
    }

    @Test func aStoreSecretRefSuppliesTheGatewayToken() throws {
        let simulator = try SimulatorProcess(["--token", "stored-gateway-token-5150"])
        let cli = CLIEnvironment()
        let database = try OfficialStateDatabase(stateDirectory: cli.stateDirectory, rows: [
            OfficialStateDatabase.secretRow(name: "OPENCLAW_GATEWAY_TOKEN", value: "stored-gateway-token-5150"),
            OfficialStateDatabase.secretRow(name: "OLD_TOKEN", value: "deleted-value", deletedAtMs: 1758000000001),
        ])
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let config = """
            { gateway: { mode: 'local', port: \(simulator.port),
              auth: { mode: 'token', token: { source: 'store', provider: 'default', id: 'OPENCLAW_GATEWAY_TOKEN' } } } }
            """
        try Data(config.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        let result = try cli.run(["history", "--trace"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("stored-gateway-token-5150"))
        #expect(try database.query("SELECT count(*) FROM secret_store_entries") == [["2"]])

        // A deleted secret is no secret: the one-line error names the key and the secret.
        let deleted = config.replacingOccurrences(of: "'OPENCLAW_GATEWAY_TOKEN'", with: "'OLD_TOKEN'")
        try Data(deleted.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        let missing = try cli.run(["history"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("gateway.auth.token") && missing.stderr.contains("OLD_TOKEN"), "\(missing.stderr)")
        #expect(!missing.stderr.contains("deleted-value"))
    }

    /// Twenty commands at once on a database with no identity yet, while another process holds the
    /// write lock for two seconds: all succeed, as one device.
    @Test func twentyConcurrentCommandsBesideABusyWriterAgreeOnOneDevice() throws {
        let gateway = try GatewayFixture()
        let database = try OfficialStateDatabase(stateDirectory: gateway.cli.stateDirectory)
        let release = try database.holdLock()
        let commands = try (0..<20).map { _ in try gateway.cli.start(["history"]) }
        Thread.sleep(forTimeInterval: 2)  // the writer's two seconds, not a wait for the commands
        release()
        for command in commands {
            let result = command.finish(timeout: 60)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let ids = Set(connects(gateway.simulator).compactMap { $0["device"]?["id"]?.stringValue })
        #expect(ids.count == 1)
        #expect(try database.query("SELECT device_id FROM device_identities") == [[ids.first]])
        #expect(try database.query("PRAGMA integrity_check") == [["ok"]])
        #expect(identityFolderAbsent(gateway.cli))
    }

    // MARK: a machine without OpenClaw state

    private func permissions(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int
    }

    /// No database, no identity files: the command creates the database a native client creates (the
    /// official DDL of the device tables and nothing else, user_version 0, 0700/0600) and keeps the
    /// identity and the configured gateway's token in it; the next command uses it like any other.
    @Test func aFreshMachineGetsTheNativeStateDatabase() throws {
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        let cli = CLIEnvironment()
        try localConfig(cli, port: simulator.port)
        let result = try cli.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(identityFolderAbsent(cli))

        let state = cli.stateDirectory.appendingPathComponent("state")
        let path = state.appendingPathComponent("openclaw.sqlite").path
        let reference = cli.home.appendingPathComponent("reference.sqlite").path
        try OfficialStateDatabase.nativeReference(at: reference)
        #expect(try OfficialStateDatabase.shape(path: path) == OfficialStateDatabase.shape(path: reference))
        #expect(try OfficialStateDatabase.query(path: path, "PRAGMA user_version") == [["0"]])
        #expect(try OfficialStateDatabase.query(path: path, "PRAGMA integrity_check") == [["ok"]])
        #expect(permissions(state.path) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path) == ["openclaw.sqlite"])
        #expect(permissions(path) == 0o600)

        let identities = try OfficialStateDatabase.query(path: path, "SELECT identity_key, device_id, private_key_pem, created_at_ms = updated_at_ms FROM device_identities")
        #expect(identities.count == 1)
        let row = try #require(identities.first)
        #expect(row[0] == "primary" && row[3] == "1")
        let key = try Ed25519PrivateKey(pem: try #require(row[2]))
        #expect(row[1] == DeviceIdentity(privateKey: key).deviceId)
        #expect(connects(simulator).first?["device"]?["id"]?.stringValue == row[1])
        let tokens = try OfficialStateDatabase.query(path: path, "SELECT device_id, role, scopes_json, token FROM device_auth_tokens")
        #expect(tokens.count == 1)
        #expect(tokens.first?[0] == row[1] && tokens.first?[1] == "operator")
        #expect(tokens.first?[2] == #"["operator.read","operator.write"]"#)
        let token = try #require(tokens.first?[3])

        // The identity lock, where the official tools keep it: private directories, an empty file.
        let locks = OfficialStateDatabase.identityLockPaths(stateDirectory: cli.stateDirectory, temporaryDirectory: cli.temporaryDirectory)
        for lock in [locks.temporary, locks.stateLocal] {
            #expect(permissions(lock) == 0o600, "\(lock)")
            #expect(permissions((lock as NSString).deletingLastPathComponent) == 0o700, "\(lock)")
            #expect((try? FileManager.default.attributesOfItem(atPath: lock))?[.size] as? Int == 0)
        }

        // From now on it is a database like any other: the stored token alone authenticates, same device.
        try localConfig(cli, port: simulator.port, token: nil)
        let again = try cli.run(["history"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(connects(simulator).last?["auth"]?["token"]?.stringValue == token)
        #expect(connects(simulator).last?["device"]?["id"]?.stringValue == row[1])
        #expect(try OfficialStateDatabase.query(path: path, "SELECT count(*) FROM device_identities") == [["1"]])
        #expect(try OfficialStateDatabase.query(path: path, "PRAGMA integrity_check") == [["ok"]])
        #expect(identityFolderAbsent(cli))
    }

    /// A database a native client created has no table for other targets' tokens: a `--url` target's
    /// token is neither stored nor asked for, without a word, and the schema stays the native one.
    @Test func aURLTargetKeepsNoTokenInANativeDatabase() throws {
        let gateway = try GatewayFixture()
        let first = try gateway.run(["history"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        let path = gateway.cli.stateDirectory.appendingPathComponent("state/openclaw.sqlite").path
        let reference = gateway.cli.home.appendingPathComponent("reference.sqlite").path
        try OfficialStateDatabase.nativeReference(at: reference)
        #expect(try OfficialStateDatabase.shape(path: path) == OfficialStateDatabase.shape(path: reference))
        #expect(try OfficialStateDatabase.query(path: path, "SELECT count(*) FROM device_auth_tokens") == [["0"]])
        let issued = gateway.simulator.logEntries().compactMap { $0["frame"]?["payload"]?["auth"]?["deviceToken"]?.stringValue }
        #expect(!issued.isEmpty)
        let second = try gateway.run(["history"])
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
        let ids = Set(connects(gateway.simulator).compactMap { $0["device"]?["id"]?.stringValue })
        #expect(ids.count == 1)
        #expect(identityFolderAbsent(gateway.cli))
    }

    /// An install older than the database (identity files, no database) keeps its files: no database.
    @Test func anOlderInstallKeepsItsFiles() throws {
        let gateway = try GatewayFixture()
        let legacy = gateway.cli.stateDirectory.appendingPathComponent("identity")
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        let key = try Ed25519PrivateKey.generate()
        let identity = DeviceIdentity(privateKey: key)
        let file: JSONValue = ["version": 1, "deviceId": .string(identity.deviceId), "publicKeyPem": .string(key.publicKey.pem),
                               "privateKeyPem": .string(key.pem), "createdAtMs": 1737264000000]
        try Data(file.prettyText.utf8).write(to: legacy.appendingPathComponent("device.json"))
        #expect(try gateway.run(["history"]).status == 0)
        #expect(connects(gateway.simulator).first?["device"]?["id"]?.stringValue == identity.deviceId)
        #expect(!FileManager.default.fileExists(atPath: gateway.cli.stateDirectory.appendingPathComponent("state").path))
        #expect(!FileManager.default.fileExists(atPath: gateway.cli.stateDirectory.appendingPathComponent("tmp").path))
    }

    enum LockPlace: String, CaseIterable, Sendable { case temporaryDirectory, stateDirectory }

    /// The official CLI (or `openclaw doctor --fix`) is creating the identity under its lock when the
    /// first command runs: the command waits for the lock, creates nothing meanwhile, and then uses the
    /// row made under it. One device, theirs.
    @Test(arguments: LockPlace.allCases)
    func identityCreationWaitsForTheOfficialLockAndAdoptsItsRow(_ place: LockPlace) throws {
        let gateway = try GatewayFixture()
        let locks = OfficialStateDatabase.identityLockPaths(stateDirectory: gateway.cli.stateDirectory,
                                                            temporaryDirectory: gateway.cli.temporaryDirectory)
        let lock = place == .temporaryDirectory ? locks.temporary : locks.stateLocal
        let release = try OfficialStateDatabase.holdIdentityLock(at: lock)
        let command = try gateway.cli.start(["history"])
        let waiting = command.waitForOpenFile(OfficialStateDatabase.canonicalPath(lock))
        #expect(waiting, "the command never opened the lock \(lock)")
        let path = gateway.cli.stateDirectory.appendingPathComponent("state/openclaw.sqlite").path
        #expect(!FileManager.default.fileExists(atPath: path))

        // Theirs: the official CLI's database with its primary row, made while it holds the lock.
        let theirs = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let database = try OfficialStateDatabase(stateDirectory: gateway.cli.stateDirectory,
                                                 rows: [OfficialStateDatabase.identityRow(theirs)])
        release()
        let result = command.finish(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(connects(gateway.simulator).first?["device"]?["id"]?.stringValue == theirs.deviceId)
        #expect(try database.query("SELECT device_id FROM device_identities") == [[theirs.deviceId]])
        #expect(try database.query("PRAGMA user_version") == [["17"]])
        #expect(try database.query("PRAGMA integrity_check") == [["ok"]])
        #expect(identityFolderAbsent(gateway.cli))
    }

    /// A lock held past the 5 s busy timeout: one line naming the lock, exit 4, nothing created.
    @Test func anIdentityLockHeldPastTheBusyTimeoutGivesOneLine() throws {
        let gateway = try GatewayFixture()
        let lock = OfficialStateDatabase.identityLockPaths(stateDirectory: gateway.cli.stateDirectory,
                                                           temporaryDirectory: gateway.cli.temporaryDirectory).temporary
        let release = try OfficialStateDatabase.holdIdentityLock(at: lock)
        let result = try gateway.run(["history"])
        release()
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(lock) && result.stderr.contains("try again"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: gateway.cli.stateDirectory.appendingPathComponent("state/openclaw.sqlite").path))
        #expect(connects(gateway.simulator).isEmpty)
    }

    // MARK: token writes

    /// The gateway issues again the token already stored: the row is left as it is, scopes included.
    @Test func aReissuedEqualTokenKeepsTheStoredRow() throws {
        let identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let cli = CLIEnvironment()
        let database = try OfficialStateDatabase(stateDirectory: cli.stateDirectory, rows: [OfficialStateDatabase.identityRow(identity)])
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        try localConfig(cli, port: simulator.port)
        #expect(try cli.run(["history"]).status == 0)
        let token = try #require(try database.query("SELECT token FROM device_auth_tokens").first?[0])
        let kept = #"["operator.admin","operator.read","operator.write"]"#
        let write = try database.beginWrite()
        try write(["UPDATE device_auth_tokens SET scopes_json = '\(kept)', updated_at_ms = 1758000000000"])

        let again = try cli.run(["history"])  // the shared token again: the simulator re-issues the same device token
        #expect(again.status == 0, "\(again.stderr)")
        let issued = simulator.logEntries().compactMap { $0["frame"]?["payload"]?["auth"]?["deviceToken"]?.stringValue }
        #expect(issued == [token, token])
        #expect(try database.query("SELECT token, scopes_json, updated_at_ms FROM device_auth_tokens") == [[token, kept, "1758000000000"]])
    }

    /// Another process rotates the stored token between this command's look (before the connect) and
    /// its write (after hello-ok): the write changes nothing, and the other process's token stays.
    @Test func aTokenRotatedByAnotherProcessMeanwhileIsKept() throws {
        let identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let cli = CLIEnvironment()
        let database = try OfficialStateDatabase(stateDirectory: cli.stateDirectory, rows: [
            OfficialStateDatabase.identityRow(identity),
            OfficialStateDatabase.tokenRow(deviceId: identity.deviceId, token: "token-this-command-saw"),
        ])
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        try localConfig(cli, port: simulator.port)  // the shared token authenticates; the stored one is only observed
        let write = try database.beginWrite()  // the other process's transaction: this command's write waits for it
        let command = try cli.start(["history"])
        let issued = { simulator.logEntries().contains { $0["frame"]?["payload"]?["auth"]?["deviceToken"] != nil } }
        let deadline = Date().addingTimeInterval(30)
        while !issued() && Date() < deadline { usleep(10_000) }
        #expect(issued(), "the simulator never issued a device token")
        try write(["UPDATE device_auth_tokens SET token = 'token-rotated-by-another-process'"])
        let result = command.finish(timeout: 60)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(try database.query("SELECT token FROM device_auth_tokens") == [["token-rotated-by-another-process"]])
        #expect(try database.query("PRAGMA integrity_check") == [["ok"]])
    }

    enum BadDatabase: String, CaseIterable, Sendable {
        case notADatabase, truncated, unreadable, missingTable, missingColumn, lockedPastTheBusyTimeout
    }

    @Test(arguments: BadDatabase.allCases)
    func aBadDatabaseGivesOneLineAndExit4AndStaysUnchanged(_ bad: BadDatabase) throws {
        let identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let gateway = try GatewayFixture()
        let state = gateway.cli.stateDirectory
        let path = state.appendingPathComponent("state/openclaw.sqlite").path
        var lockHolder: OfficialStateDatabase? = nil
        switch bad {
        case .notADatabase:
            try FileManager.default.createDirectory(at: state.appendingPathComponent("state"), withIntermediateDirectories: true)
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        case .truncated:
            _ = try OfficialStateDatabase(stateDirectory: state, rows: [OfficialStateDatabase.identityRow(identity)])
            // Checkpointed into the main file, which then loses its second half.
            let db = try OfficialStateDatabase(stateDirectory: state, schema: "PRAGMA wal_checkpoint(TRUNCATE);")
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: db.path))
            try handle.truncate(atOffset: 4096 + 100)
            try handle.close()
            try? FileManager.default.removeItem(atPath: db.path + "-wal")
            try? FileManager.default.removeItem(atPath: db.path + "-shm")
        case .unreadable:
            // Root reads any file whatever its mode: a directory in the database's place cannot be opened by anyone.
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case .missingTable:
            _ = try OfficialStateDatabase(stateDirectory: state, schema: "CREATE TABLE other (x TEXT) STRICT;")
        case .missingColumn:
            _ = try OfficialStateDatabase(stateDirectory: state, schema: """
                CREATE TABLE device_identities (identity_key TEXT NOT NULL PRIMARY KEY, device_id TEXT NOT NULL) STRICT;
                """)
        case .lockedPastTheBusyTimeout:
            // Not in WAL mode, so an exclusive lock keeps readers out too.
            lockHolder = try OfficialStateDatabase(stateDirectory: state, rows: [OfficialStateDatabase.identityRow(identity)],
                                                   journalMode: "DELETE")
        }
        // The database file itself. (A reader of a WAL database may create an empty -wal, and the -shm
        // file is SQLite's shared memory, which every reader writes to.)
        let before = FileManager.default.contents(atPath: path)
        // Taken after that read: closing any descriptor of the file drops this process's POSIX locks on it.
        let release = try lockHolder?.holdLock(exclusive: true)
        let result = try gateway.run(["history"])
        release?()
        #expect(result.status == 4, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(path), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        if bad != .lockedPastTheBusyTimeout {
            #expect(FileManager.default.contents(atPath: path) == before)
        }
        #expect(identityFolderAbsent(gateway.cli))
        #expect(connects(gateway.simulator).isEmpty)
    }
}
