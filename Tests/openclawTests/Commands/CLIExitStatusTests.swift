import Foundation
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport

/// One test per row of docs/cli.md's exit-status table, plus the failure scenarios of issue 5.
@Suite struct CLIExitStatusTests {
    @Test func status1WhenTheGatewayAnswersOkFalse() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["call", "no.such.method", "--scope", "operator.admin"])
        #expect(result.status == 1)
        #expect(result.frames.first?["ok"]?.boolValue == false)
        #expect(result.stderr == "openclaw: error: no.such.method failed: INVALID_REQUEST: unknown method: no.such.method\n")
    }

    /// Someone must act: exit 4, and the line names the scope and both ways out.
    @Test func status4WhenAScopeIsMissing() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["send", "--scope", "operator.read", "hi"])
        #expect(result.status == 4)
        #expect(result.stderr == "openclaw: error: chat.send needs the operator.write scope, which this device was not granted: "
            + "request it with --scope operator.write if the device was approved for it, or approve the scope upgrade on the "
            + "gateway host (openclaw devices list)\n")
    }

    @Test func status1WhenTheRunEndsInError() throws {
        let gateway = try GatewayFixture(["--reply", "error"])
        let result = try gateway.run(["send", "hi"])
        #expect(result.status == 1)
        #expect(result.frames.last?["payload"]?["state"]?.stringValue == "error")
        #expect(result.stderr.contains("failed"))
    }

    @Test func status2ForUsageErrors() throws {
        let cli = CLIEnvironment()
        for arguments in [["--bogus"], ["history", "--limit", "x"], ["send"], ["call"], ["call", "m", "[1]"], ["completion"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("openclaw: error: ") && result.stderr.split(separator: "\n").count == 1, "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func status2ForARequestOverTheGatewaysMaxPayload() throws {
        let gateway = try GatewayFixture()
        let message = Data(repeating: UInt8(ascii: "a"), count: 25 * 1024 * 1024)
        let result = try gateway.run(["send", "-"], stdin: message)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("policy.maxPayload"))
        #expect(!gateway.receivedMethods().contains("chat.send"))
    }

    @Test func status2WhenSendRunsInsideAnExecTool() throws {
        let gateway = try GatewayFixture()
        var cli = gateway.cli
        cli.variables["OPENCLAW_SHELL"] = "exec"
        let result = try cli.run(["send", "hi"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("OPENCLAW_SHELL=exec"))
        #expect(!gateway.receivedMethods().contains("connect"))
    }

    @Test func status3WhenNothingListens() throws {
        let simulator = try SimulatorProcess([], log: false)
        let url = simulator.url
        simulator.kill()
        let result = try CLIEnvironment(url: url, token: "t").run(["history"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("Connection refused"))
    }

    @Test func status3WhenTheGatewayDropsTheConnectionMidRun() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:50", "--delta-ms", "20", "--fault", "drop-after:6"])
        let result = try gateway.run(["send", "hi"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.lines.allSatisfy { (try? JSONValue.parse($0)) != nil })
    }

    @Test func status4ForAWrongTokenNamingItsSource() throws {
        let gateway = try GatewayFixture()
        var cli = gateway.cli
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = "wrong-token-value"
        let result = try cli.run(["history"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("OPENCLAW_GATEWAY_TOKEN"))
        #expect(!result.stderr.contains("wrong-token-value"))
        #expect(!result.stderr.contains(GatewayFixture.token))
    }

    /// The device key is loaded while the gateway answers the upgrade, yet an unusable one is still
    /// the error reported, whether or not a gateway listens, and nothing is sent to one that does.
    @Test func status4ForAnUnusableIdentityBeforeAnyConnectionError() throws {
        let gateway = try GatewayFixture()
        let simulator = try SimulatorProcess([], log: false)
        let deadURL = simulator.url
        simulator.kill()
        var cli = gateway.cli
        let directory = cli.stateDirectory.appendingPathComponent("identity")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(#"{"version":1,"deviceId":"x","privateKeyPem":"not a key"}"#.utf8)
            .write(to: directory.appendingPathComponent("device.json"))
        for url in [gateway.cli.variables["OPENCLAW_GATEWAY_URL"]!, deadURL] {
            cli.variables["OPENCLAW_GATEWAY_URL"] = url
            let result = try cli.run(["history"])
            #expect(result.status == 4, "\(url): \(result.stderr)")
            #expect(result.stderr.hasPrefix("openclaw: error: device identity ") && result.stderr.contains("is unusable"),
                    "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(!gateway.receivedMethods().contains("connect"))
    }

    @Test func status4WhenPairingIsRequiredWithTheApproveCommand() throws {
        let gateway = try GatewayFixture(["--require-pairing"])
        let result = try gateway.run(["history"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("openclaw devices approve "))
    }

    @Test func pairingApprovedDeviceConnects() throws {
        let cli = CLIEnvironment()
        // Create the identity first (it fails pairing), then approve its id.
        let first = try GatewayFixture(["--require-pairing"])
        var env = first.cli
        _ = try env.run(["history"])
        let database = env.stateDirectory.appendingPathComponent("state/openclaw.sqlite").path
        let id = try #require(try OfficialStateDatabase.query(path: database, "SELECT device_id FROM device_identities").first?[0])
        let approved = try SimulatorProcess(["--token", GatewayFixture.token, "--require-pairing", "--approve", id])
        env.variables["OPENCLAW_GATEWAY_URL"] = approved.url
        let result = try env.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        _ = cli
    }

    @Test func status5WhenTheRunOutlastsTimeout() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let result = try gateway.run(["send", "--timeout", "1", "hi"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("timed out"))
        #expect(result.frames.first?["type"]?.stringValue == "res")
    }

    @Test func status5WhenTheHandshakeNeverGetsAChallenge() throws {
        // A TCP listener that accepts the upgrade but never speaks.
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let thread = Thread {
            if let stream = try? listener.accept(deadline: .after(seconds: 10)) {
                _ = try? WebSocketConnection.accept(stream: stream, deadline: .after(seconds: 10))
                Thread.sleep(forTimeInterval: 5)
            }
        }
        thread.start()
        let result = try CLIEnvironment(url: "ws://127.0.0.1:\(listener.port)", token: "t")
            .run(["history", "--connect-timeout", "0.5"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("connect.challenge"))
    }

    /// `--timeout` shorter than `--connect-timeout`: the error names the limit that ran out.
    @Test func aConnectCutShortByTimeoutNamesTimeout() throws {
        // A listener whose backlog takes the TCP connect; nothing ever answers the upgrade.
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let result = try CLIEnvironment(url: "ws://127.0.0.1:\(listener.port)", token: "t")
            .run(["history", "--timeout", "0.5", "--connect-timeout", "10"])
        #expect(result.status == 5)
        #expect(result.stderr.contains("--timeout 0.5 ran out before --connect-timeout 10"), "\(result.stderr)")
        _ = listener
    }

    @Test func status6ForFramesItDoesNotUnderstandOnlyWithStrict() throws {
        let gateway = try GatewayFixture(["--fault", "bad-json"])
        let strict = try gateway.run(["history", "--strict"])
        #expect(strict.status == 6, "\(strict.stderr)")
        #expect(strict.stderr.contains("does not understand"))
        let tolerant = try gateway.run(["history"])
        #expect(tolerant.status == 0, "\(tolerant.stderr)")
    }

    @Test func status6ForAnUnsupportedProtocolGenerationIsReportedAsProtocol() throws {
        let gateway = try GatewayFixture(["--fault", "garbage"])
        let result = try gateway.run(["history"])
        #expect([3, 6].contains(result.status), "\(result.status) \(result.stderr)")
        #expect(result.stderr.hasPrefix("openclaw: error: "))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalDuringSendAbortsTheRun(_ signal: Int32, _ status: Int32) throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let process = try gateway.cli.start(["send", "--idempotency-key", "sig-run", "hi"])
        #expect(process.waitForLines(2))
        process.send(signal: signal)
        let result = process.finish()
        #expect(result.status == status, "\(result.stderr)")
        #expect(gateway.receivedMethods().contains("chat.abort"))
        let abortResponse = result.frames.first { $0["payload"]?["runIds"] != nil }
        #expect(abortResponse?["payload"]?["aborted"]?.boolValue == true)
        #expect(result.frames.contains { $0["payload"]?["state"]?.stringValue == "aborted" })
        #expect(result.lines.allSatisfy { (try? JSONValue.parse($0)) != nil })
    }

    @Test func closedStdoutEndsWatchQuietly() throws {
        let gateway = try GatewayFixture(["--tick-ms", "50"])
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", "set -o pipefail; \"$OPENCLAW\" watch --event tick | head -n 1"]
        var environment = gateway.cli.variables
        environment["OPENCLAW"] = BuiltProducts.executable("openclaw").path
        shell.environment = environment
        let out = Pipe(), err = Pipe()
        shell.standardOutput = out
        shell.standardError = err
        try shell.run()
        shell.waitUntilExit()
        let line = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(shell.terminationStatus == 0, "\(stderr)")
        #expect(try JSONValue.parse(line.trimmingCharacters(in: .newlines))["event"]?.stringValue == "tick")
        #expect(stderr.isEmpty)
    }
}
