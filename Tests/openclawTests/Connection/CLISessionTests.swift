import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawState

/// Issue 4's session scenarios through the real binary: device tokens, credentials, versions.
@Suite struct CLISessionTests {
    /// A config file that points at the simulator the way an OpenClaw install would.
    private func configure(_ cli: CLIEnvironment, port: Int, token: String?) throws {
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let auth = token.map { "auth: { mode: 'token', token: '\($0)' }," } ?? ""
        let config = "// written by the test\n{ gateway: { mode: 'local', port: \(port), \(auth) }, }\n"
        try Data(config.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
    }

    /// An install older than the state database: its identity file (which keeps the CLI on the files).
    private func olderInstall(_ cli: CLIEnvironment) throws {
        let key = try Ed25519PrivateKey.generate()
        let directory = cli.stateDirectory.appendingPathComponent("identity")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file: JSONValue = ["version": 1, "deviceId": .string(DeviceIdentity(privateKey: key).deviceId),
                               "publicKeyPem": .string(key.publicKey.pem), "privateKeyPem": .string(key.pem), "createdAtMs": 1737264000000]
        try Data(file.prettyText.utf8).write(to: directory.appendingPathComponent("device.json"))
    }

    @Test func deviceTokenIsStoredAndReusedWithoutTheSharedToken() throws {
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        let cli = CLIEnvironment()
        try olderInstall(cli)
        try configure(cli, port: simulator.port, token: GatewayFixture.token)
        #expect(try cli.run(["history"]).status == 0)
        let store = cli.stateDirectory.appendingPathComponent("identity/device-auth.json")
        let stored = try JSONValue.parse(Array(try Data(contentsOf: store)))
        let token = try #require(stored["tokens"]?["operator"]?["token"]?.stringValue)
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // No shared token any more: the stored device token is what authenticates.
        try configure(cli, port: simulator.port, token: nil)
        let result = try cli.run(["history", "--trace"])
        #expect(result.status == 0, "\(result.stderr)")
        let connects = simulator.logEntries().filter { $0["frame"]?["method"]?.stringValue == "connect" }
        #expect(connects.last?["frame"]?["params"]?["auth"]?["token"]?.stringValue == token)
        #expect(!result.stderr.contains(token) && !result.stdout.contains(token))
    }

    @Test func aRejectedStoredDeviceTokenIsDroppedAndReportedOnce() throws {
        let first = try SimulatorProcess(["--token", GatewayFixture.token])
        let cli = CLIEnvironment()
        try olderInstall(cli)
        try configure(cli, port: first.port, token: GatewayFixture.token)
        #expect(try cli.run(["history"]).status == 0)
        first.kill()
        // A gateway that never issued that token.
        let second = try SimulatorProcess(["--token", GatewayFixture.token], port: first.port)
        try configure(cli, port: second.port, token: nil)
        let result = try cli.run(["history"])
        #expect(result.status == 4)
        let store = try JSONValue.parse(Array(try Data(contentsOf: cli.stateDirectory.appendingPathComponent("identity/device-auth.json"))))
        #expect(store["tokens"]?["operator"] == nil)
        let connects = second.logEntries().filter { $0["frame"]?["method"]?.stringValue == "connect" }
        #expect(connects.count == 2)
    }

    @Test func anOfficialFormatIdentityFileIsUsedAsIs() throws {
        let key = try Ed25519PrivateKey.generate()
        let identity = DeviceIdentity(privateKey: key)
        let cli = CLIEnvironment()
        let directory = cli.stateDirectory.appendingPathComponent("identity")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file: JSONValue = ["version": 1, "deviceId": .string(identity.deviceId), "publicKeyPem": .string(key.publicKey.pem),
                               "privateKeyPem": .string(key.pem), "createdAtMs": 1737264000000]
        try Data(file.prettyText.utf8).write(to: directory.appendingPathComponent("device.json"))
        let gateway = try GatewayFixture()
        var env = gateway.cli
        env.variables["OPENCLAW_STATE_DIR"] = cli.stateDirectory.path
        #expect(try env.run(["history"]).status == 0)
        let connect = gateway.simulator.logEntries().first { $0["frame"]?["method"]?.stringValue == "connect" }
        #expect(connect?["frame"]?["params"]?["device"]?["id"]?.stringValue == identity.deviceId)
    }

    @Test func aFreshIdentityIsCreatedPrivately() throws {
        let gateway = try GatewayFixture()
        #expect(try gateway.run(["history"]).status == 0)
        // A machine without OpenClaw state: the state database, as a native client creates it.
        let state = gateway.cli.stateDirectory
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("identity").path))
        for (path, mode) in [(state.path, 0o700), (state.appendingPathComponent("state").path, 0o700),
                             (state.appendingPathComponent("state/openclaw.sqlite").path, 0o600)] {
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == mode, "\(path)")
        }
    }

    @Test func passwordAuthAndItsMismatch() throws {
        let simulator = try SimulatorProcess(["--password", "hunter2-pw"])
        var cli = CLIEnvironment(url: simulator.url)
        cli.variables["OPENCLAW_GATEWAY_PASSWORD"] = "hunter2-pw"
        #expect(try cli.run(["history"]).status == 0)
        cli.variables["OPENCLAW_GATEWAY_PASSWORD"] = "wrong-pw"
        let result = try cli.run(["history"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("password") && !result.stderr.contains("wrong-pw"))
    }

    @Test func noDeviceOnLoopbackKeepsTheCLIScopes() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        let result = try gateway.run(["--no-device", "send", "-o", "text", "tokens only"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "tokens only\n")
        let connect = gateway.simulator.logEntries().first { $0["frame"]?["method"]?.stringValue == "connect" }
        #expect(connect?["frame"]?["params"]?["device"] == nil)
        #expect(!FileManager.default.fileExists(atPath: gateway.cli.stateDirectory.appendingPathComponent("identity").path))
        #expect(!FileManager.default.fileExists(atPath: gateway.cli.stateDirectory.appendingPathComponent("state").path))
    }

    @Test(arguments: ["3", "4"])
    func bothProtocolGenerations(_ version: String) throws {
        let gateway = try GatewayFixture(["--protocol", version, "--reply", "lorem:3"])
        let result = try gateway.run(["send", "hi", "--raw"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.frames[1]["payload"]?["protocol"]?.stringValue == nil)
        #expect(result.frames[1]["payload"]?["protocol"]?.intValue == Int(version))
        let deltas = result.frames.filter { $0["payload"]?["state"]?.stringValue == "delta" }
        #expect(!deltas.isEmpty)
        #expect(deltas.allSatisfy { ($0["payload"]?["deltaText"] != nil) == (version == "4") })
    }

    @Test func aGatewayThatClosesMidHandshakeIsAConnectionError() throws {
        let gateway = try GatewayFixture(["--fault", "drop-after:1"])
        let result = try gateway.run(["history"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("handshake") || result.stderr.contains("connection"))
    }

    @Test func noSecretAppearsInAnyOutputOrError() throws {
        let secret = "s3cr3t-\(UUID().uuidString)"
        let gateway = try GatewayFixture()
        var scenarios: [CLIResult] = []
        var wrong = gateway.cli
        wrong.variables["OPENCLAW_GATEWAY_TOKEN"] = secret
        scenarios.append(try wrong.run(["history", "--trace", "--raw"]))
        scenarios.append(try wrong.run(["watch", "--trace"]))
        scenarios.append(try wrong.run(["--token", secret, "--url", "ws://10.9.9.9:1", "history"]))
        scenarios.append(try wrong.run(["--password", secret, "--token-file", "/nonexistent", "history"]))
        var right = gateway.cli
        right.variables["OPENCLAW_GATEWAY_TOKEN"] = GatewayFixture.token
        scenarios.append(try right.run(["send", "--trace", "--raw", "--agent-events", "hi"]))
        scenarios.append(try right.run(["call", "connect", "{}", "--trace"]))
        for result in scenarios {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret))
            #expect(!result.stdout.contains(GatewayFixture.token) && !result.stderr.contains(GatewayFixture.token))
        }
        let issued = gateway.simulator.logEntries().compactMap { $0["frame"]?["payload"]?["auth"]?["deviceToken"]?.stringValue }
        #expect(!issued.isEmpty)
        for token in issued {
            for result in scenarios { #expect(!result.stdout.contains(token) && !result.stderr.contains(token)) }
        }
        let database = gateway.cli.stateDirectory.appendingPathComponent("state/openclaw.sqlite").path
        let key = try #require(try OfficialStateDatabase.query(path: database, "SELECT private_key_pem FROM device_identities").first?[0])
        let pemBody = key.components(separatedBy: "PRIVATE KEY-----").dropFirst().first?.prefix(40) ?? "-"
        for result in scenarios { #expect(!result.stdout.contains(pemBody) && !result.stderr.contains(pemBody)) }
    }
}
