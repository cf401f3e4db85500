import Foundation
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// `gateway.remote.transport: "ssh"` end to end: the built `openclaw` opens its own `ssh -N -L` through a
/// real `sshd` on loopback to the simulator, with a config written the official way. ssh reads
/// `~/.ssh` from the password database's home, not from `$HOME`, so each `openclaw` (and the ssh it
/// starts) sees the test's throwaway home there through nss_wrapper (`PasswordDatabaseOverride`): the
/// machine's own `~/.ssh` is never read or written, and nothing is mounted. sshd needs root.
@Suite(.serialized, .enabled(if: getuid() == 0, "needs root: the test's sshd runs as root (privilege separation)"),
       .enabled(if: PasswordDatabaseOverride.library != nil, "needs nss_wrapper (Debian package libnss-wrapper, which make deps installs)"))
struct CLISSHTunnelTests {
    /// An sshd, a simulator behind it, and a CLI home whose config reaches the simulator through the sshd.
    struct Tunnel {
        static let token = GatewayFixture.token
        let sshd: SSHServer
        let simulator: SimulatorProcess
        var cli = CLIEnvironment()

        init(simulator arguments: [String] = []) throws {
            sshd = try SSHServer()
            simulator = try SimulatorProcess(["--token", Self.token] + arguments)
            try trustHostKey()
            try configure()
        }

        /// Writes `~/.openclaw/openclaw.json`: remote mode, the loopback URL of the gateway as seen from
        /// the SSH host, the target and identity; `remote` adds or replaces members of `gateway.remote`.
        func configure(_ remote: [String: Any] = [:]) throws {
            var members: [String: Any] = [
                "url": "ws://127.0.0.1:\(simulator.port)", "token": Self.token, "transport": "ssh",
                "sshTarget": sshd.target, "sshIdentity": sshd.clientKey,
            ]
            members.merge(remote) { $1 }
            let config = ["gateway": ["mode": "remote", "remote": members]]
            try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: config, options: [.prettyPrinted, .sortedKeys])
                .write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        }

        /// `~/.ssh/known_hosts` with the sshd's host key (what `ssh` once recorded), or empty.
        func trustHostKey(_ trusted: Bool = true, port: Int? = nil) throws {
            let directory = cli.home.appendingPathComponent(".ssh")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let line = "[127.0.0.1]:\(port ?? sshd.port) \(sshd.hostKey)\n"
            try (trusted ? line : "").write(to: directory.appendingPathComponent("known_hosts"), atomically: true, encoding: .utf8)
        }

        /// `~/.ssh/config`.
        func sshConfig(_ text: String) throws {
            try text.write(to: cli.home.appendingPathComponent(".ssh/config"), atomically: true, encoding: .utf8)
        }

        /// Starts `openclaw` with the test's home as the account's home (see the suite's note).
        func start(_ arguments: [String]) throws -> CLIProcess {
            let environment = cli.variables.merging(try PasswordDatabaseOverride.variables(home: cli.home)) { $1 }
            return try CLIProcess(arguments, environment: environment)
        }

        func run(_ arguments: [String], timeout: Double = 60) throws -> CLIResult {
            try start(arguments).finish(timeout: timeout)
        }

        /// ssh processes of this test still running (their `-i` names the test's own key).
        var sshLeft: [Int32] { sshProcesses(naming: sshd.clientKey) }

        /// Requests the simulator received for `method`.
        func requests(_ method: String) -> Int {
            simulator.logEntries().filter { $0["dir"]?.stringValue == "in" && $0["frame"]?["method"]?.stringValue == method }.count
        }

        /// Forwarded connections sshd opened to the gateway's port.
        var forwardsToGateway: Int {
            sshd.log.components(separatedBy: "target 127.0.0.1 port \(simulator.port)").count - 1
        }
    }

    func oneErrorLine(_ result: CLIResult) -> String? {
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard lines.count == 1, let line = lines.first, line.hasPrefix("openclaw: error: ") else { return nil }
        return String(line)
    }

    // MARK: through the tunnel

    @Test func historyGoesThroughTheTunnel() throws {
        let tunnel = try Tunnel()
        let result = try tunnel.run(["history", "-n", "1"])
        #expect(result.status == 0, "\(result.stderr)\n\(tunnel.sshd.log.suffix(2000))")
        #expect(result.frames.first?["type"]?.stringValue == "res")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(tunnel.requests("chat.history") == 1)
        // The gateway was reached through sshd's forward, logged in with the configured key.
        #expect(tunnel.forwardsToGateway == 1, "\(tunnel.sshd.log.suffix(3000))")
        #expect(tunnel.sshd.log.contains("Accepted publickey for \(tunnel.sshd.user)"))
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func theReadmesExampleWorksAsWritten() throws {
        // README "Remote gateways" → "Over SSH": its config, with this test's host, port and key put in.
        let readme = try String(contentsOf: ReadmeRecipeTests.readme, encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n### Over SSH\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```json5\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let tunnel = try Tunnel()
        let config = block
            .replacingOccurrences(of: "127.0.0.1:18789", with: "127.0.0.1:\(tunnel.simulator.port)")
            .replacingOccurrences(of: "me@gateway.example.net", with: tunnel.sshd.target)
            .replacingOccurrences(of: "~/.ssh/id_ed25519", with: tunnel.sshd.clientKey)
        #expect(config != block)
        try config.write(to: tunnel.cli.stateDirectory.appendingPathComponent("openclaw.json"), atomically: true, encoding: .utf8)
        var withToken = tunnel
        withToken.cli.variables["OPENCLAW_GATEWAY_TOKEN"] = Tunnel.token
        let result = try withToken.run(["history", "-n", "5", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)\n\(config)")
        #expect(tunnel.forwardsToGateway == 1)
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func theRemotePortIsReachedOnlyThroughTheTunnel() throws {
        // The URL's port has nothing behind it on this side: only ssh's forward to remotePort gets there.
        let tunnel = try Tunnel()
        let unused = try LoopbackPort.ephemeral()
        try tunnel.configure(["url": "ws://127.0.0.1:\(unused)", "remotePort": tunnel.simulator.port])
        let result = try tunnel.run(["call", "health"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(tunnel.requests("health") == 1)
        #expect(tunnel.forwardsToGateway == 1)
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func wssThroughTheTunnelChecksTheConfiguredHostName() throws {
        // A certificate for the name "localhost" only: the tunnel's local end is dialled as 127.0.0.1,
        // and the certificate must still be checked against the configured URL's host.
        let certificate = try TestCertificate(subjectAltName: "DNS:localhost")
        defer { try? FileManager.default.removeItem(at: certificate.directory) }
        let cert = certificate.cert, key = certificate.key
        let tunnel = try Tunnel(simulator: ["--tls-cert", cert, "--tls-key", key])
        try tunnel.configure(["url": "wss://localhost:\(tunnel.simulator.port)"])
        let result = try tunnel.run(["history", "--cacert", cert])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(tunnel.forwardsToGateway == 1)
        // The same certificate is refused for the address the tunnel is dialled at.
        let direct = try tunnel.cli.run(["history", "--cacert", cert, "--url", "wss://127.0.0.1:\(tunnel.simulator.port)",
                                         "--token", Tunnel.token])
        #expect(direct.status == 3 && direct.stderr.contains("another name"), "\(direct.stderr)")
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func aTakenConfiguredPortFallsBackToOneTheKernelPicks() throws {
        let tunnel = try Tunnel()
        let taken = try HeldPort()
        try tunnel.configure(["url": "ws://127.0.0.1:\(taken.port)", "remotePort": tunnel.simulator.port])
        let result = try tunnel.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(tunnel.requests("chat.history") == 1)
        #expect(!taken.wasConnectedTo, "openclaw dialled the taken port instead of the tunnel")
    }

    @Test func theOpenSSHPolicyLeavesTheHostKeyToTheUsersSSHConfig() throws {
        let tunnel = try Tunnel()
        try tunnel.trustHostKey(false)
        try tunnel.sshConfig("Host 127.0.0.1\n    StrictHostKeyChecking accept-new\n")
        // strict (the default) passes StrictHostKeyChecking=yes, which the user's config cannot relax.
        let strict = try tunnel.run(["history"])
        #expect(strict.status == 4, "\(strict.stderr)")
        try tunnel.configure(["sshHostKeyPolicy": "openssh"])
        let open = try tunnel.run(["history"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(tunnel.requests("chat.history") == 1)
    }

    @Test func deviceTokensAreFiledUnderTheRoutesScopeNotTheLocalPort() throws {
        let tunnel = try Tunnel()
        let database = try OfficialStateDatabase(stateDirectory: tunnel.cli.stateDirectory)
        let result = try tunnel.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        // As the official client: "remote:ssh:" + SHA-256 of "TARGET:gateway-port:REMOTEPORT".
        let scope = "remote:ssh:" + Hex.encode(Digest.sha256(Array("\(tunnel.sshd.target):gateway-port:\(tunnel.simulator.port)".utf8)))
        #expect(try database.query("SELECT gateway_scope, role FROM gateway_origin_device_tokens") == [[scope, "operator"]])
    }

    // MARK: failures: one line, the right status, nothing left running

    @Test func anUnknownHostKeyIsOneLineAndExit4() throws {
        let tunnel = try Tunnel()
        try tunnel.trustHostKey(false)
        let result = try tunnel.run(["history"])
        #expect(result.status == 4)
        let line = try #require(oneErrorLine(result), "\(result.stderr)")
        #expect(line.contains("Host key verification failed"), "\(line)")
        #expect(line.contains("SSH tunnel to \(tunnel.sshd.target)") && line.contains("sshHostKeyPolicy"), "\(line)")
        #expect(tunnel.requests("connect") == 0)
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func aRefusedLoginIsOneLineAndExit4() throws {
        let tunnel = try Tunnel()
        let stranger = tunnel.cli.home.appendingPathComponent("stranger_ed25519").path
        try SSHServer.makeKey(stranger)
        try tunnel.configure(["sshIdentity": stranger])
        let result = try tunnel.run(["history"])
        #expect(result.status == 4)
        let line = try #require(oneErrorLine(result), "\(result.stderr)")
        #expect(line.contains("Permission denied (publickey)") && line.contains("sshIdentity"), "\(line)")
        #expect(sshProcesses(naming: stranger).isEmpty)
    }

    @Test func sshdDownIsOneLineWithSSHsReasonAndExit3() throws {
        let tunnel = try Tunnel()
        tunnel.sshd.stop()
        let result = try tunnel.run(["history"])
        #expect(result.status == 3)
        let line = try #require(oneErrorLine(result), "\(result.stderr)")
        #expect(line.contains("port \(tunnel.sshd.port): Connection refused"), "\(line)")
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func aForwardPortTakenWhenSSHBindsItIsOneLineWithSSHsReasonAndExit3() throws {
        let tunnel = try Tunnel()
        let local = try LoopbackPort.ephemeral()
        // The relay takes the forward's port after openclaw found it free and before ssh binds it.
        let relay = try PortGrabbingRelay(to: tunnel.sshd.port, grabbing: local)
        try tunnel.trustHostKey(port: relay.port)
        try tunnel.configure(["url": "ws://127.0.0.1:\(local)", "remotePort": tunnel.simulator.port,
                              "sshTarget": "\(tunnel.sshd.user)@127.0.0.1:\(relay.port)"])
        let result = try tunnel.run(["history"])
        #expect(result.status == 3)
        let line = try #require(oneErrorLine(result), "\(result.stderr)")
        #expect(line.contains("\(local): Address already in use"), "\(line)")
        #expect(line.contains("ssh exited with code 255"), "\(line)")
        #expect(tunnel.requests("chat.history") == 0)
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func anotherListenerOnTheForwardsPortIsRefused() throws {
        // Someone listens on [::1]:PORT: ssh's 127.0.0.1:PORT listener is not the only one, so a client
        // that reaches "localhost:PORT" might talk to the other. The official client refuses that tunnel.
        let tunnel = try Tunnel()
        let local = try LoopbackPort.ephemeral()
        let squatter = try HeldPort(ipv6Port: local)
        try tunnel.configure(["url": "ws://127.0.0.1:\(local)", "remotePort": tunnel.simulator.port])
        let result = try tunnel.run(["history"])
        #expect(result.status == 3)
        let line = try #require(oneErrorLine(result), "\(result.stderr)")
        #expect(line.contains("cannot verify that the listener on 127.0.0.1:\(local) is ssh's own"), "\(line)")
        #expect(tunnel.requests("connect") == 0 && !squatter.wasConnectedTo)
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func aGatewayDownBehindTheTunnelSaysWhatSSHSaw() throws {
        let tunnel = try Tunnel()
        let unused = try LoopbackPort.ephemeral()
        try tunnel.configure(["url": "ws://127.0.0.1:\(try LoopbackPort.ephemeral())", "remotePort": unused])
        let result = try tunnel.run(["history"])
        #expect(result.status == 3)
        let line = try #require(oneErrorLine(result), "\(result.stderr)")
        #expect(line.contains("ssh: channel") && line.contains("Connection refused"), "\(line)")
        #expect(tunnel.sshLeft.isEmpty)
    }

    // MARK: every way a command ends stops ssh

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalDuringWatchLeavesNoSSH(_ signal: Int32) throws {
        let tunnel = try Tunnel()
        let watch = try tunnel.start(["watch", "--client-events"])
        #expect(watch.waitForStdout("\"event\":\"connected\""), "\(watch.stderr)")
        #expect(tunnel.sshLeft.count == 1)
        watch.send(signal: signal)
        let result = watch.finish(timeout: 20)
        #expect(result.status == 128 + signal, "\(result.stderr)")
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func aTimeoutLeavesNoSSH() throws {
        let tunnel = try Tunnel()
        let result = try tunnel.run(["watch", "--timeout", "2"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(try #require(oneErrorLine(result)).contains("timed out watching"))
        #expect(tunnel.forwardsToGateway == 1)
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func aKilledOpenclawTakesItsSSHWithIt() throws {
        // SIGKILL gives openclaw no chance to stop ssh: the parent-death signal ssh was started with does.
        let tunnel = try Tunnel()
        let watch = try tunnel.start(["watch", "--client-events"])
        #expect(watch.waitForStdout("\"event\":\"connected\""), "\(watch.stderr)")
        let ssh = tunnel.sshLeft
        #expect(ssh.count == 1, "\(ssh)")
        watch.send(signal: SIGKILL)
        #expect(watch.finish(timeout: 20).status == 128 + SIGKILL)  // as a shell shows a death by SIGKILL
        #expect(eventually { tunnel.sshLeft.isEmpty }, "ssh \(tunnel.sshLeft) outlived the killed openclaw")
    }

    @Test func aChattySSHNeverStallsALongWatch() throws {
        // With LogLevel DEBUG3, ssh writes about 2 KiB on stderr for every connection through its forward:
        // a few dozen fill a pipe (64 KiB), and unless openclaw reads it all along, ssh blocks on it and
        // forwards nothing more. A storm of connections while `watch` runs, then an event that must arrive.
        let tunnel = try Tunnel()
        let local = try LoopbackPort.ephemeral()
        try tunnel.configure(["url": "ws://127.0.0.1:\(local)", "remotePort": tunnel.simulator.port])
        try tunnel.sshConfig("Host *\n    LogLevel DEBUG3\n")
        let watch = try tunnel.start(["watch", "--event", "chat", "--count", "1"])
        try waitUntilConnected(tunnel.simulator)
        for _ in 0..<300 {
            // A full accept queue (ssh stalled) is not waited out: the event below tells.
            if let stream = try? TCPStream.connect(host: "127.0.0.1", port: local, deadline: .after(seconds: 2)) { stream.close() }
        }
        let sender = try TestGatewayClient.connected(tunnel.simulator, token: Tunnel.token)
        _ = try sender.call("chat.send", ["sessionKey": "main", "message": "hi", "idempotencyKey": "chatty-1"])
        let result = watch.finish(timeout: 60)
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(result.frames.first?["event"]?.stringValue == "chat", "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr.suffix(2000))")
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func watchReconnectsThroughANewTunnelWhenSSHDies() throws {
        let tunnel = try Tunnel()
        let watch = try tunnel.start(["watch", "--client-events", "--backoff-base", "0.1"])
        #expect(watch.waitForStdout("\"event\":\"connected\""), "\(watch.stderr)")
        let first = try #require(tunnel.sshLeft.first)
        kill(first, SIGKILL)
        #expect(watch.waitForStdout("\"event\":\"reconnected\""), "\(watch.stderr)")
        #expect(watch.stdout.contains("SSH tunnel to \(tunnel.sshd.target) closed (ssh was killed by signal 9)"), "\(watch.stdout)")
        let second = tunnel.sshLeft
        #expect(second.count == 1 && second.first != first, "\(second)")
        try waitUntilConnected(tunnel.simulator, connections: 2)
        #expect(tunnel.forwardsToGateway == 2)
        watch.send(signal: SIGINT)
        #expect(watch.finish(timeout: 20).status == 130)
        #expect(tunnel.sshLeft.isEmpty)
    }

    @Test func watchRetriesWithANewTunnelWhileSSHDIsDown() throws {
        let tunnel = try Tunnel()
        tunnel.sshd.stop()
        let watch = try tunnel.start(["watch", "--client-events", "--backoff-base", "0.1", "--max-retries", "2"])
        let result = watch.finish(timeout: 30)
        #expect(result.status == 3, "\(result.stderr)")
        let failures = result.stdout.components(separatedBy: "\"event\":\"connect-failed\"").count - 1
        #expect(failures == 2, "\(result.stdout)")
        #expect(result.stdout.contains("Connection refused"))
        #expect(tunnel.sshLeft.isEmpty)
    }
}
