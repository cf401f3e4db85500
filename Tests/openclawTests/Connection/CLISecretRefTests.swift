import Foundation
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport

/// Secret refs, credential precedence, profiles and OPENCLAW_HANDSHAKE_TIMEOUT_MS through the real
/// binary against the simulator, with `~/.openclaw/openclaw.json` written as an official install
/// writes it. The token reaching the gateway is read back from the simulator's log.
@Suite struct CLISecretRefTests {
    static let token = "secret-ref-token-7c41"

    /// A simulator that wants `token` and a CLI environment with nothing pointing at it yet.
    private func setUp() throws -> (SimulatorProcess, CLIEnvironment) {
        (try SimulatorProcess(["--token", Self.token]), CLIEnvironment())
    }

    private func writeConfig(_ cli: CLIEnvironment, _ text: String, profileDirectory: String = ".openclaw") throws {
        let directory = cli.home.appendingPathComponent(profileDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent("openclaw.json"))
    }

    /// A local-mode config for `port` whose gateway token is `token` (JSON5 text: a string or a ref).
    private func localConfig(port: Int, token: String, extra: String = "", mode: String = "token") -> String {
        "{ \(extra) gateway: { mode: 'local', port: \(port), auth: { mode: '\(mode)', token: \(token) } } }\n"
    }

    /// Writes a file with `mode` under the CLI's home.
    @discardableResult
    private func writeFile(_ cli: CLIEnvironment, _ name: String, _ text: String, mode: Int) throws -> String {
        let url = cli.home.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        chmod(url.path, mode_t(mode))
        return url.path
    }

    private func sentTokens(_ simulator: SimulatorProcess) -> [String?] {
        simulator.logEntries()
            .filter { $0["frame"]?["method"]?.stringValue == "connect" }
            .map { $0["frame"]?["params"]?["auth"]?["token"]?.stringValue }
    }

    /// The run succeeded with `token` on the wire and nowhere in the output, `--trace` included.
    private func expectConnected(_ result: CLIResult, _ simulator: SimulatorProcess, token: String = Self.token,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(sentTokens(simulator).last == token, sourceLocation: sourceLocation)
        #expect(!result.stdout.contains(token) && !result.stderr.contains(token), sourceLocation: sourceLocation)
    }

    /// Exactly one line on stderr, the final error, and the status.
    private func expectOneLineFailure(_ result: CLIResult, status: Int32, containing parts: [String],
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("openclaw: error: "), "\(result.stderr)",
                sourceLocation: sourceLocation)
        for part in parts { #expect(result.stderr.contains(part), "missing \(part): \(result.stderr)", sourceLocation: sourceLocation) }
        #expect(!result.stderr.contains(Self.token), sourceLocation: sourceLocation)
    }

    // MARK: each secret source

    @Test func anEnvRefAndTheDollarShorthandSupplyTheToken() throws {
        let (simulator, base) = try setUp()
        var cli = base
        cli.variables["GW_SECRET_TOKEN"] = Self.token
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'env', provider: 'default', id: 'GW_SECRET_TOKEN' }"))
        expectConnected(try cli.run(["history", "--trace"]), simulator)
        try writeConfig(cli, localConfig(port: simulator.port, token: "'${GW_SECRET_TOKEN}'"))
        expectConnected(try cli.run(["history"]), simulator)
        // An allowlist that does not name it: one line, status 2.
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'env', provider: 'locked', id: 'GW_SECRET_TOKEN' }",
                                         extra: "secrets: { providers: { locked: { source: 'env', allowlist: ['OTHER'] } } },"))
        expectOneLineFailure(try cli.run(["history"]), status: 2,
                             containing: ["gateway.auth.token", "secret provider \"locked\" (env)", "allowlist"])
        cli.variables["GW_SECRET_TOKEN"] = nil
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'env', provider: 'default', id: 'GW_SECRET_TOKEN' }"))
        expectOneLineFailure(try cli.run(["history"]), status: 2,
                             containing: ["gateway.auth.token", "\"default\" (env)", "GW_SECRET_TOKEN is not set"])
    }

    @Test func aFileRefSuppliesTheTokenAndAnInsecureFileIsRefused() throws {
        let (simulator, cli) = try setUp()
        let secrets = try writeFile(cli, ".openclaw/secrets.json", #"{"gateway":{"token":"\#(Self.token)"}}"#, mode: 0o600)
        let providers = "secrets: { providers: { files: { source: 'file', path: '~/.openclaw/secrets.json' } } },"
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'file', provider: 'files', id: '/gateway/token' }",
                                         extra: providers))
        expectConnected(try cli.run(["history", "--trace"]), simulator)
        // The single-value form.
        try writeFile(cli, ".openclaw/gateway-token", Self.token + "\n", mode: 0o400)
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'file', provider: 'one', id: 'value' }",
                                         extra: "secrets: { providers: { one: { source: 'file', path: '~/.openclaw/gateway-token', mode: 'singleValue' } } },"))
        expectConnected(try cli.run(["history"]), simulator)
        // Readable by others: refused before anything is sent.
        chmod(secrets, 0o644)
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'file', provider: 'files', id: '/gateway/token' }",
                                         extra: providers))
        let before = sentTokens(simulator).count
        expectOneLineFailure(try cli.run(["history"]), status: 2,
                             containing: ["gateway.auth.token", "secret provider \"files\" (file)", secrets, "mode 0644", "chmod 600"])
        #expect(sentTokens(simulator).count == before)
    }

    @Test(.notUnderQEMU("the emulated openclaw cannot start an exec provider: qemu-user answers a system call of glibc's posix_spawn with ENOSYS"))
    func anExecRefSuppliesTheToken() throws {
        let (simulator, cli) = try setUp()
        let script = try writeFile(cli, "bin/gateway-secret", """
            #!/bin/sh
            read request
            printf '{"protocolVersion":1,"values":{"gateway":"%s"}}' "$GW_SEED"
            """, mode: 0o700)
        try writeConfig(cli, localConfig(
            port: simulator.port, token: "{ source: 'exec', provider: 'vault', id: 'gateway' }",
            extra: "secrets: { providers: { vault: { source: 'exec', command: '\(script)', env: { GW_SEED: '\(Self.token)' } } } },"))
        expectConnected(try cli.run(["history", "--trace"]), simulator)
    }

    @Test func aStoreRefSuppliesTheToken() throws {
        let (simulator, cli) = try setUp()
        _ = try OfficialStateDatabase(stateDirectory: cli.stateDirectory, rows: [
            OfficialStateDatabase.secretRow(name: "OPENCLAW_GATEWAY_TOKEN", value: Self.token),
        ])
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'store', provider: 'default', id: 'OPENCLAW_GATEWAY_TOKEN' }"))
        expectConnected(try cli.run(["history", "--trace"]), simulator)
    }

    // MARK: exec failures

    @Test(.notUnderQEMU("the emulated openclaw cannot start an exec provider: qemu-user answers a system call of glibc's posix_spawn with ENOSYS"))
    func anExecProviderThatTimesOutFailsInOneLineAndLeavesNothingRunning() throws {
        let (simulator, cli) = try setUp()
        let pids = cli.home.appendingPathComponent("pids").path
        let script = try writeFile(cli, "bin/slow-secret", """
            #!/bin/sh
            sleep 60 &
            echo $! >> "\(pids)"
            echo $$ >> "\(pids)"
            wait
            """, mode: 0o700)
        try writeConfig(cli, localConfig(
            port: simulator.port, token: "{ source: 'exec', provider: 'vault', id: 'gateway' }",
            extra: "secrets: { providers: { vault: { source: 'exec', command: '\(script)', timeoutMs: 300 } } },"))
        expectOneLineFailure(try cli.run(["history"]), status: 2,
                             containing: ["gateway.auth.token", "secret provider \"vault\" (exec)", "timed out after 300 ms"])
        let started = Self.pids(in: pids)
        #expect(started.count == 2)
        #expect(Self.waitUntilGone(started), "still running: \(started)")
        #expect(sentTokens(simulator).isEmpty)
    }

    @Test(.notUnderQEMU("the emulated openclaw cannot start an exec provider: qemu-user answers a system call of glibc's posix_spawn with ENOSYS"))
    func aSignalWhileAnExecProviderRunsStopsItAndEndsTheCommand() throws {
        let (simulator, cli) = try setUp()
        let pids = cli.home.appendingPathComponent("pids").path
        let script = try writeFile(cli, "bin/slow-secret", "#!/bin/sh\necho $$ >> \"\(pids)\"\nexec sleep 60\n", mode: 0o700)
        try writeConfig(cli, localConfig(
            port: simulator.port, token: "{ source: 'exec', provider: 'vault', id: 'gateway' }",
            extra: "secrets: { providers: { vault: { source: 'exec', command: '\(script)', timeoutMs: 60000 } } },"))
        let process = try cli.start(["history"])
        let deadline = Date().addingTimeInterval(20)
        while Self.pids(in: pids).isEmpty && Date() < deadline { usleep(10_000) }
        let started = Self.pids(in: pids)
        #expect(started.count == 1)
        process.send(signal: SIGTERM)
        let result = process.finish()
        #expect(result.status == 143, "\(result.stderr)")
        #expect(result.stderr.contains("interrupted while secret provider \"vault\" (exec) ran"))
        #expect(Self.waitUntilGone(started))
    }

    /// A signal while the winning ref's provider runs ends the command: the environment's token is not
    /// used instead, and no other provider is started.
    @Test(.notUnderQEMU("the emulated openclaw cannot start an exec provider: qemu-user answers a system call of glibc's posix_spawn with ENOSYS"))
    func aSignalDuringAProviderIsNotAFailedRefToFallBackFrom() throws {
        let (simulator, cli) = try setUp()
        let pids = cli.home.appendingPathComponent("pids").path
        let script = try writeFile(cli, "bin/slow-secret", "#!/bin/sh\necho $$ >> \"\(pids)\"\nexec sleep 60\n", mode: 0o700)
        try writeConfig(cli, """
            { secrets: { providers: { vault: { source: 'exec', command: '\(script)', timeoutMs: 60000 } } },
              gateway: { mode: 'remote', remote: { url: 'ws://127.0.0.1:\(simulator.port)',
                         token: { source: 'exec', provider: 'vault', id: 'token' },
                         password: { source: 'exec', provider: 'vault', id: 'password' } } } }
            """)
        var withEnvironmentToken = cli
        withEnvironmentToken.variables["OPENCLAW_GATEWAY_TOKEN"] = Self.token
        let process = try withEnvironmentToken.start(["history"])
        let deadline = Date().addingTimeInterval(20)
        while Self.pids(in: pids).isEmpty && Date() < deadline { usleep(10_000) }
        #expect(Self.pids(in: pids).count == 1)
        process.send(signal: SIGTERM)
        let result = process.finish()
        #expect(result.status == 143, "\(result.stderr)")
        #expect(result.stderr.contains("interrupted while secret provider \"vault\" (exec) ran"), "\(result.stderr)")
        #expect(Self.pids(in: pids).count == 1, "a second provider started after the signal")
        #expect(sentTokens(simulator).isEmpty, "the command connected after the signal")
        #expect(Self.waitUntilGone(Self.pids(in: pids)))
    }

    @Test func badExecCommandsAreRefusedWithTheirReason() throws {
        let (simulator, cli) = try setUp()
        let script = try writeFile(cli, "bin/shared-secret", "#!/bin/sh\necho '{}'\n", mode: 0o777)
        let cases: [(String, [String])] = [
            ("bin/shared-secret", ["refusing the command bin/shared-secret: not an absolute path"]),
            (script, ["mode 0777 lets group or others change it"]),
            (cli.home.appendingPathComponent("bin/none").path, ["No such file or directory"]),
        ]
        for (command, parts) in cases {
            try writeConfig(cli, localConfig(
                port: simulator.port, token: "{ source: 'exec', provider: 'vault', id: 'gateway' }",
                extra: "secrets: { providers: { vault: { source: 'exec', command: '\(command)' } } },"))
            expectOneLineFailure(try cli.run(["history"]), status: 2, containing: ["gateway.auth.token", "\"vault\" (exec)"] + parts)
        }
        try writeConfig(cli, localConfig(port: simulator.port, token: "{ source: 'exec', provider: 'nowhere', id: 'gateway' }"))
        expectOneLineFailure(try cli.run(["history"]), status: 2,
                             containing: ["gateway.auth.token", "\"nowhere\" (exec)", "not configured; add secrets.providers.nowhere"])
        #expect(sentTokens(simulator).isEmpty)
    }

    // MARK: precedence

    @Test func localModeIsConfigFirst() throws {
        let (simulator, base) = try setUp()
        var cli = base
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = "wrong-env-token"
        try writeConfig(cli, localConfig(port: simulator.port, token: "'\(Self.token)'"))
        expectConnected(try cli.run(["history"]), simulator)
        // gateway.auth.token unset: the environment comes before gateway.remote.token.
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = Self.token
        try writeConfig(cli, "{ gateway: { mode: 'local', port: \(simulator.port), remote: { token: 'wrong-remote-token' } } }")
        expectConnected(try cli.run(["history"]), simulator)
    }

    @Test func remoteModeIsRemoteTokenFirst() throws {
        let (simulator, base) = try setUp()
        var cli = base
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = "wrong-env-token"
        try writeConfig(cli, """
            { gateway: { mode: 'remote', auth: { token: 'wrong-local-token' },
                         remote: { url: '\(simulator.url)', token: '\(Self.token)' } } }
            """)
        expectConnected(try cli.run(["history"]), simulator)
    }

    @Test func clawdbotVariablesAreNotRead() throws {
        let (simulator, base) = try setUp()
        var cli = base
        cli.variables["CLAWDBOT_GATEWAY_URL"] = simulator.url
        cli.variables["CLAWDBOT_GATEWAY_TOKEN"] = Self.token
        cli.variables["CLAWDBOT_GATEWAY_PORT"] = String(simulator.port)
        try writeConfig(cli, "{ gateway: { mode: 'local', port: \(simulator.port) } }")
        let result = try cli.run(["history", "--no-device"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("the gateway requires a token"))
        #expect(sentTokens(simulator) == [nil])
    }

    // MARK: profiles

    @Test func profilesKeepTheirOwnConfig() throws {
        let (simulator, base) = try setUp()
        var cli = base
        try writeConfig(cli, localConfig(port: simulator.port, token: "'\(Self.token)'"), profileDirectory: ".openclaw-work")
        try writeConfig(cli, localConfig(port: simulator.port, token: "'wrong-default-profile-token'"))
        expectConnected(try cli.run(["history", "--profile", "work"]), simulator)
        #expect(FileManager.default.fileExists(atPath: cli.home.appendingPathComponent(".openclaw-work/state/openclaw.sqlite").path))
        cli.variables["OPENCLAW_PROFILE"] = "work"
        expectConnected(try cli.run(["history"]), simulator)
        expectOneLineFailure(try cli.run(["history", "--profile", "../etc"]), status: 2,
                             containing: ["invalid profile \"../etc\" from --profile"])
    }

    @Test func devIsTheDevProfileOnPort19001() throws {
        let (simulator, base) = try setUp()
        var cli = base
        try writeConfig(cli, "{ gateway: { mode: 'local', auth: { mode: 'token', token: '\(Self.token)' } } }",
                        profileDirectory: ".openclaw-dev")
        // Its own port is 19001. Hold that port with a silent listener when it is free, and see the
        // connection arrive there; when something else holds it, the error still names the port.
        var dev = cli
        dev.variables["OPENCLAW_HANDSHAKE_TIMEOUT_MS"] = "300"
        if let listener = try? TCPListener(host: "127.0.0.1", port: 19001) {
            let accepted = Thread {
                if let stream = try? listener.accept(deadline: .after(seconds: 20)) {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    while ((try? buffer.withUnsafeMutableBytes { try stream.read(into: $0, deadline: .after(seconds: 20)) }) ?? 0) > 0 {}
                }
            }
            accepted.start()
            let held = try dev.run(["history", "--dev"])
            #expect(held.status == 5, "\(held.stderr)")
            #expect(held.stderr.contains("waiting for the WebSocket upgrade from ws://127.0.0.1:19001"), "\(held.stderr)")
        } else {
            let other = try dev.run(["history", "--dev", "--connect-timeout", "2"])
            #expect(other.status == 0 || other.stderr.contains("127.0.0.1:19001"), "\(other.stderr)")
        }
        // OPENCLAW_GATEWAY_PORT still wins, and the dev profile's config supplies the token.
        cli.variables["OPENCLAW_GATEWAY_PORT"] = String(simulator.port)
        expectConnected(try cli.run(["history", "--dev"]), simulator)
        expectOneLineFailure(try cli.run(["history", "--dev", "--profile", "work"]), status: 2,
                             containing: ["--dev cannot be combined with --profile work"])
    }

    // MARK: OPENCLAW_HANDSHAKE_TIMEOUT_MS

    /// A listener that accepts one connection and, with `upgrade`, answers the upgrade, then stays silent.
    private func silentGateway(upgrade: Bool) throws -> (TCPListener, Thread) {
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        let thread = Thread {
            if let stream = try? listener.accept(deadline: .after(seconds: 20)) {
                let connection = upgrade ? try? WebSocketConnection.accept(stream: stream, deadline: .after(seconds: 20)) : nil
                // Hold the connection, silent, until the client goes away.
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = (try? buffer.withUnsafeMutableBytes { bytes in
                        try stream.read(into: bytes, deadline: .after(seconds: 20))
                    }) ?? 0
                    if count <= 0 { break }
                }
                withExtendedLifetime(connection) {}
            }
        }
        thread.start()
        return (listener, thread)
    }

    @Test func theHandshakeTimeoutBoundsTheChallengeWait() throws {
        let (listener, _) = try silentGateway(upgrade: true)
        var cli = CLIEnvironment(url: "ws://127.0.0.1:\(listener.port)", token: "t")
        cli.variables["OPENCLAW_HANDSHAKE_TIMEOUT_MS"] = "300"
        let result = try cli.run(["history", "--connect-timeout", "60"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("waiting for connect.challenge"))
        #expect(result.stderr.contains("after 300 ms (OPENCLAW_HANDSHAKE_TIMEOUT_MS"))
    }

    @Test func theHandshakeTimeoutBoundsTheUpgradeWait() throws {
        let (listener, _) = try silentGateway(upgrade: false)
        var cli = CLIEnvironment(url: "ws://127.0.0.1:\(listener.port)", token: "t")
        cli.variables["OPENCLAW_HANDSHAKE_TIMEOUT_MS"] = "300"
        let result = try cli.run(["history", "--connect-timeout", "60"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("waiting for the WebSocket upgrade"))
    }

    @Test func aHandshakeTimeoutThatIsNotDigitsIsIgnored() throws {
        let (listener, _) = try silentGateway(upgrade: true)
        var cli = CLIEnvironment(url: "ws://127.0.0.1:\(listener.port)", token: "t")
        cli.variables["OPENCLAW_HANDSHAKE_TIMEOUT_MS"] = "3e2"
        let result = try cli.run(["history", "--connect-timeout", "0.5"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(result.stderr.contains("(--connect-timeout 0.5)"), "\(result.stderr)")
    }

    // MARK: helpers

    static func pids(in path: String) -> [Int32] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
    }

    /// Waits (up to 10 s) until none of `pids` is a live process (a zombie counts as gone).
    static func waitUntilGone(_ pids: [Int32]) -> Bool {
        func running(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
            return state != "Z" && state != "X"
        }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !pids.contains(where: running) { return true }
            usleep(10_000)
        }
        return false
    }
}
