import Foundation
import Testing
@_spi(Engine) import ClawSystem

/// Errors that say where things came from (issue 28), end to end: the real binary against the real
/// simulator or a listener of the test's own. A refused or silent gateway is named with the place its
/// URL came from; the credential error under `--url` says why the environment's token went unused; a
/// mistyped host is unresolvable before it is plaintext; `wss://` to a plain port fails at once.
@Suite struct CLIErrorProvenanceTests {
    /// A CLI environment with no gateway variables and, when given, `config` as its `openclaw.json`.
    private func cli(config: String? = nil) throws -> CLIEnvironment {
        let cli = CLIEnvironment()
        if let config {
            try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
            try Data(config.utf8).write(to: configPath(cli))
        }
        return cli
    }

    private func configPath(_ cli: CLIEnvironment) -> URL { cli.stateDirectory.appendingPathComponent("openclaw.json") }

    /// The run failed with `status` and exactly `message` as its one stderr line.
    private func expectFailure(_ result: CLIResult, status: Int32, _ message: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == "openclaw: error: \(message)\n", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
    }

    // MARK: A refused connect names where the URL came from

    @Test func aRefusedConnectNamesEachPlaceTheURLCanComeFrom() throws {
        let port = try LoopbackPort.ephemeral()  // free a moment ago: nothing listens there
        let url = "ws://127.0.0.1:\(port)"
        let refused = "Connection refused"

        expectFailure(try cli().run(["history", "--url", url]), status: 3,
                      "cannot connect to \(url) (from --url): \(refused)")

        var fromEnvironment = try cli()
        fromEnvironment.variables["OPENCLAW_GATEWAY_URL"] = url
        expectFailure(try fromEnvironment.run(["history"]), status: 3,
                      "cannot connect to \(url) (from OPENCLAW_GATEWAY_URL; change it, or pass --url): \(refused)")

        var portFromEnvironment = try cli()
        portFromEnvironment.variables["OPENCLAW_GATEWAY_PORT"] = String(port)
        expectFailure(try portFromEnvironment.run(["history"]), status: 3,
                      "cannot connect to \(url) (the local gateway, port from OPENCLAW_GATEWAY_PORT; change it,"
                          + " or pass --url or set OPENCLAW_GATEWAY_URL): \(refused)")

        let portFromConfig = try cli(config: "{ gateway: { port: \(port) } }\n")
        expectFailure(try portFromConfig.run(["history"]), status: 3,
                      "cannot connect to \(url) (the local gateway, port from gateway.port in \(configPath(portFromConfig).path);"
                          + " change it, or pass --url or set OPENCLAW_GATEWAY_URL): \(refused)")

        let remote = try cli(config: "{ gateway: { mode: 'remote', remote: { url: '\(url)' } } }\n")
        expectFailure(try remote.run(["history"]), status: 3,
                      "cannot connect to \(url) (from gateway.remote.url in \(configPath(remote).path); change it,"
                          + " or pass --url or set OPENCLAW_GATEWAY_URL): \(refused)")
    }

    /// With nothing configured, the built-in default says so and where another is set.
    @Test func aRefusedDefaultGatewaySaysItIsTheDefaultAndHowToSetAnother() throws {
        // A gateway of this machine's own on the default port would answer instead: nothing to check then.
        guard (try? LoopbackPort.checkAvailable(18789)) != nil else { return }
        let cli = try cli()
        expectFailure(try cli.run(["history"]), status: 3,
                      "cannot connect to ws://127.0.0.1:18789 (the default local gateway; set another with --url,"
                          + " OPENCLAW_GATEWAY_URL or gateway.port in \(configPath(cli).path)): Connection refused")
    }

    /// A listener that completes TCP connects (the kernel's backlog) and never answers the upgrade.
    @Test func aTimedOutConnectNamesWhereTheURLCameFrom() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let url = "ws://127.0.0.1:\(listener.port)"
        expectFailure(try cli().run(["history", "--url", url, "--connect-timeout", "0.5"]), status: 5,
                      "timed out connecting to \(url) (from --url; --connect-timeout 0.5)")

        var fromEnvironment = try cli()
        fromEnvironment.variables["OPENCLAW_GATEWAY_URL"] = url
        expectFailure(try fromEnvironment.run(["history", "--connect-timeout", "0.5"]), status: 5,
                      "timed out connecting to \(url) (from OPENCLAW_GATEWAY_URL; change it, or pass --url; --connect-timeout 0.5)")
    }

    // MARK: Credentials under --url

    @Test func withURLTheTokenErrorSaysEnvironmentAndConfigCredentialsAreNotUsed() throws {
        let secret = "sekrit-4b1d"
        let simulator = try SimulatorProcess(["--token", secret], log: false)
        var cli = try cli(config: "{ gateway: { auth: { token: '\(secret)' } } }\n")
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = secret

        let explicit = try cli.run(["history", "--url", simulator.url])
        expectFailure(explicit, status: 4, "the gateway requires a token: with --url, credentials from the environment"
                          + " and the config file are not used; pass --token or --token-file")
        #expect(!explicit.stderr.contains(secret))

        // The same URL from the environment takes the environment's token (the official rule).
        var fromEnvironment = cli
        fromEnvironment.variables["OPENCLAW_GATEWAY_URL"] = simulator.url
        let connected = try fromEnvironment.run(["history"])
        #expect(connected.status == 0, "\(connected.stderr)")

        // Without one, the advice to set the variable stands.
        fromEnvironment.variables["OPENCLAW_GATEWAY_TOKEN"] = nil
        expectFailure(try fromEnvironment.run(["history"]), status: 4,
                      "the gateway requires a token: pass --token or --token-file, or set OPENCLAW_GATEWAY_TOKEN")
    }

    @Test func withURLThePasswordErrorSaysEnvironmentAndConfigCredentialsAreNotUsed() throws {
        let secret = "pw-9c2e"
        let simulator = try SimulatorProcess(["--password", secret], log: false)
        var cli = try cli(config: "{ gateway: { auth: { password: '\(secret)' } } }\n")
        cli.variables["OPENCLAW_GATEWAY_PASSWORD"] = secret

        let explicit = try cli.run(["history", "--url", simulator.url])
        expectFailure(explicit, status: 4, "the gateway requires a password: with --url, credentials from the environment"
                          + " and the config file are not used; pass --password")
        #expect(!explicit.stderr.contains(secret))

        var fromEnvironment = cli
        fromEnvironment.variables["OPENCLAW_GATEWAY_URL"] = simulator.url
        fromEnvironment.variables["OPENCLAW_GATEWAY_PASSWORD"] = nil
        expectFailure(try fromEnvironment.run(["history"]), status: 4,
                      "the gateway requires a password: pass --password or set OPENCLAW_GATEWAY_PASSWORD")
    }

    // MARK: A mistyped host is unresolvable before it is plaintext

    @Test func aMistypedHostIsReportedAsUnresolvableBeforeThePlaintextRule() throws {
        let cli = try cli()
        // `.invalid` never resolves (RFC 6761); the resolver's own words follow the host.
        let plain = try cli.run(["history", "--url", "ws://gatway.exmaple.invalid:18789"])
        #expect(plain.status == 3, "\(plain.stderr)")
        #expect(plain.stderr.hasPrefix("openclaw: error: cannot resolve gatway.exmaple.invalid: "), "\(plain.stderr)")
        #expect(plain.stderr.split(separator: "\n").count == 1 && !plain.stderr.contains("plaintext"))
        // wss:// says the same, with the same status.
        let secure = try cli.run(["history", "--url", "wss://gatway.exmaple.invalid:18789"])
        #expect(secure.status == 3 && secure.stderr == plain.stderr, "\(secure.stderr)")

        // A host that resolves still hears why plaintext is refused (a documentation address: no lookup).
        let resolvable = try cli.run(["history", "--url", "ws://192.0.2.1:18789"])
        #expect(resolvable.status == 2)
        #expect(resolvable.stderr.hasPrefix("openclaw: error: refusing plaintext ws://192.0.2.1:18789 (from --url) to a non-loopback host"))

        // So does a mistyped host in the config file.
        let remote = try self.cli(config: "{ gateway: { mode: 'remote', remote: { url: 'ws://gatway.exmaple.invalid' } } }\n")
        let configured = try remote.run(["history"])
        #expect(configured.status == 3 && configured.stderr == plain.stderr, "\(configured.stderr)")
    }

    // MARK: wss:// to a plain port

    static let notTLS = "TLS: handshake with 127.0.0.1 failed: the server did not answer in TLS (is it a TLS port? try ws://)"

    /// However long `--connect-timeout` is, the simulator's 400 ends the handshake at once: exit 3, not 5.
    @Test func wssToAPlainPortFailsAtOnceWithTheTLSHint() throws {
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token], log: false)
        let secure = "wss://127.0.0.1:\(simulator.port)"
        var cli = try cli()
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = GatewayFixture.token
        expectFailure(try cli.run(["history", "--url", secure, "--connect-timeout", "60"]), status: 3, Self.notTLS)
        cli.variables["OPENCLAW_GATEWAY_URL"] = secure
        expectFailure(try cli.run(["send", "--connect-timeout", "60", "hi"]), status: 3, Self.notTLS)
        // The simulator is still there for the right scheme.
        cli.variables["OPENCLAW_GATEWAY_URL"] = simulator.url
        let plain = try cli.run(["history"])
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    /// As the official gateway's Node HTTP server does: a first line that is not HTTP gets a bare 400
    /// and the connection closes, without waiting for the rest of a request.
    @Test func theSimulatorAnswersANonHTTPFirstLineWithA400AndCloses() throws {
        let simulator = try SimulatorProcess([], log: false)
        let stream = try TCPStream.connect(host: "127.0.0.1", port: simulator.port, deadline: .after(seconds: 10))
        defer { stream.close() }
        // The start of a TLS ClientHello record: handshake type, version 3.1, a length.
        let clientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01]
        try clientHello.withUnsafeBytes { try stream.write($0, deadline: .after(seconds: 10)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try stream.read(into: $0, deadline: .after(seconds: 30)) }
            if count == 0 { break }
            answer += buffer[..<count]
        }
        #expect(String(decoding: answer, as: UTF8.self) == "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n")
    }

    /// A server that closes during the TLS handshake gets the same sentence and status.
    @Test func wssToAServerThatClosesGetsTheSameHint() throws {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let closer = Thread {
            if let stream = try? listener.accept(deadline: .after(seconds: 30)) { stream.close() }
        }
        closer.start()
        expectFailure(try cli().run(["history", "--url", "wss://127.0.0.1:\(listener.port)", "--connect-timeout", "60"]),
                      status: 3, Self.notTLS)
    }
}
