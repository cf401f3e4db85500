import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawState

/// End-to-end `ConnectionResolver.resolve`: files on disk, URL parsing and the plaintext policy.
@Suite struct ConfigConnectionTests {
    @Test func resolvesALocalInstallFromTheStateDirectory() throws {
        let dir = ConfigTestDirectory()
        dir.write("home/.openclaw/openclaw.json", #"{gateway:{port:19001,auth:{mode:"token",token:"tok-local"}}}"#)
        let resolved = try ConnectionResolver.resolve(
            options: ConnectionOptions(), environment: Environment(["HOME": dir.sub("home")]))
        #expect(resolved.url == WebSocketURL(isSecure: false, host: "127.0.0.1", port: 19001))
        #expect(resolved.token == Secret("tok-local"))
        #expect(resolved.tokenSource == .configKey("gateway.auth.token", path: dir.sub("home/.openclaw/openclaw.json")))
        #expect(resolved.password == nil && resolved.passwordSource == .none)
        #expect(resolved.authMode == "token")
        #expect(resolved.stateDirectory == dir.sub("home/.openclaw"))
        #expect(resolved.configPath == dir.sub("home/.openclaw/openclaw.json"))
        #expect(!resolved.urlIsOverride)
        #expect(resolved.tlsFingerprint == nil)
    }

    @Test func legacyInstallIsFound() throws {
        let dir = ConfigTestDirectory()
        dir.write("home/.clawdbot/clawdbot.json", #"{gateway:{auth:{token:"tok-legacy"}}}"#)
        let resolved = try ConnectionResolver.resolve(
            options: ConnectionOptions(), environment: Environment(["HOME": dir.sub("home")]))
        #expect(resolved.token?.value == "tok-legacy")
        #expect(resolved.configPath == dir.sub("home/.clawdbot/clawdbot.json"))
    }

    @Test func flagsForStateDirConfigAndCACert() throws {
        let dir = ConfigTestDirectory()
        let config = dir.write("elsewhere.json", #"{gateway:{auth:{password:"pw-cfg"}}}"#)
        let resolved = try ConnectionResolver.resolve(
            options: ConnectionOptions(stateDirectory: "~/st", configPath: config, caBundlePath: "~/ca.pem"),
            environment: Environment(["HOME": dir.path, "OPENCLAW_CONFIG_PATH": dir.sub("ignored.json")]))
        #expect(resolved.stateDirectory == dir.sub("st"))
        #expect(resolved.configPath == config)
        #expect(resolved.password?.value == "pw-cfg")
        #expect(resolved.caBundlePath == dir.sub("ca.pem"))
    }

    @Test func plaintextToANonLoopbackHostIsRefusedWithTheFixes() {
        let dir = ConfigTestDirectory()
        let env = Environment(["HOME": dir.path])
        do {
            _ = try ConnectionResolver.resolve(options: ConnectionOptions(url: "ws://192.0.2.7:18789"), environment: env)
            Issue.record("ws:// to a remote host was accepted")
        } catch {
            // The sentence with its remedies is the CLI's (FailureMessagesTests).
            #expect(error == .insecureWebSocket(url: "ws://192.0.2.7:18789", source: .option(.url)))
        }
        // Only a host that resolves hears about plaintext: a mistyped name is reported as one (.invalid never resolves).
        do {
            _ = try ConnectionResolver.resolve(options: ConnectionOptions(url: "ws://gatway.exmaple.invalid:18789"), environment: env)
            Issue.record("ws:// to an unresolvable host was accepted")
        } catch {
            if case .unresolvableHost(host: "gatway.exmaple.invalid", let reason) = error {
                #expect(!reason.isEmpty)
            } else {
                Issue.record("\(error)")
            }
        }
        // The same rule applies to a URL from the config file.
        dir.write(".openclaw/openclaw.json", #"{gateway:{mode:"remote",remote:{url:"ws://10.0.0.5:18789"}}}"#)
        #expect(throws: ConfigError.insecureWebSocket(
            url: "ws://10.0.0.5:18789", source: .configKey("gateway.remote.url", path: dir.sub(".openclaw/openclaw.json")))) {
            try ConnectionResolver.resolve(options: ConnectionOptions(), environment: env)
        }
        // Break-glass admits private hosts, never public ones.
        let breakGlass = Environment(["HOME": dir.path, "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS": "1"])
        #expect((try? ConnectionResolver.resolve(options: ConnectionOptions(), environment: breakGlass))?.url.host == "10.0.0.5")
        #expect(throws: ConfigError.self) {
            try ConnectionResolver.resolve(options: ConnectionOptions(url: "ws://8.8.8.8"), environment: breakGlass)
        }
        // Loopback and wss are fine without it.
        for url in ["ws://127.0.0.1:1", "ws://localhost:2", "ws://[::1]:3", "wss://gw.example.com"] {
            #expect((try? ConnectionResolver.resolve(options: ConnectionOptions(url: url), environment: env)) != nil, "\(url)")
        }
    }

    @Test func invalidURLsAreNamedWithTheirSource() {
        let dir = ConfigTestDirectory()
        #expect(throws: ConfigError.invalidURL(url: "http://x", source: .environment("OPENCLAW_GATEWAY_URL"))) {
            try ConnectionResolver.resolve(
                options: ConnectionOptions(), environment: Environment(["HOME": dir.path, "OPENCLAW_GATEWAY_URL": "http://x"]))
        }
    }

    @Test func tlsFingerprintFromFlagOrRemoteConfig() throws {
        let dir = ConfigTestDirectory()
        let pin = String(repeating: "0f", count: 32)
        dir.write(".openclaw/openclaw.json", """
            {gateway:{mode:"remote",remote:{url:"wss://gw.example.com",tlsFingerprint:"\(pin)"}}}
            """)
        let env = Environment(["HOME": dir.path])
        let fromConfig = try ConnectionResolver.resolve(options: ConnectionOptions(), environment: env)
        #expect(fromConfig.tlsFingerprint == [UInt8](repeating: 0x0f, count: 32))
        // An explicit --url does not inherit the config's pin; --tls-fingerprint always applies.
        let cliURL = try ConnectionResolver.resolve(options: ConnectionOptions(url: "wss://other.example.com"), environment: env)
        #expect(cliURL.tlsFingerprint == nil)
        let flag = try ConnectionResolver.resolve(
            options: ConnectionOptions(url: "wss://other.example.com", tlsFingerprint: String(repeating: "AA", count: 32)),
            environment: env)
        #expect(flag.tlsFingerprint == [UInt8](repeating: 0xaa, count: 32))
        #expect(flag.tlsFingerprintSource == .option(.tlsFingerprint))
    }

    @Test func tokenAndTokenFileTogetherAreRefused() {
        #expect(throws: ConfigError.conflictingOptions(.token, .tokenFile)) {
            try ConnectionResolver.resolve(
                options: ConnectionOptions(token: Secret("a"), tokenFile: "/dev/null"), environment: Environment(["HOME": "/nonexistent"]))
        }
    }
}
