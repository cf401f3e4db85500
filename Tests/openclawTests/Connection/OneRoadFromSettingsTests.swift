import Foundation
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession
@testable import ClawGatewayClient

/// The same settings given to both faces — the CLI's flags (`--url`, `--token`, `--state-dir`,
/// `--tls-fingerprint`, `--cacert`) and the library's `GatewayConfiguration` in code — resolve to the
/// same session options: one resolver, one conversion, every rule written once.
@Suite struct OneRoadFromSettingsTests {
    /// What the CLI makes of these flags: its resolver call, then the shared conversion.
    static func cli(_ flags: ConnectionOptions, _ environment: Environment) throws -> SessionOptions {
        let resolved = try ConnectionResolver.resolve(options: flags, environment: environment)
        return SessionOptions(resolved: resolved, clientVersion: "test", environment: environment,
                              usesDeviceIdentity: flags.stateDirectory != nil)
    }

    /// What the library makes of the same settings given in code.
    static func library(_ configuration: GatewayConfiguration, _ environment: Environment) throws -> SessionOptions {
        var configuration = configuration
        configuration.environment = environment
        return try configuration.sessionOptions()
    }

    static func expectSame(_ cli: SessionOptions, _ library: SessionOptions, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(cli.url == library.url, sourceLocation: sourceLocation)
        #expect(cli.token?.value == library.token?.value, sourceLocation: sourceLocation)
        #expect(cli.tokenSource == library.tokenSource, sourceLocation: sourceLocation)
        #expect(cli.password?.value == library.password?.value, sourceLocation: sourceLocation)
        #expect(cli.tls?.pinnedSHA256 == library.tls?.pinnedSHA256, sourceLocation: sourceLocation)
        #expect(cli.tls?.caBundlePath == library.tls?.caBundlePath, sourceLocation: sourceLocation)
        #expect(cli.tls?.trust == library.tls?.trust, sourceLocation: sourceLocation)
        #expect(cli.proxy == library.proxy, sourceLocation: sourceLocation)
        #expect(cli.sshRoute == nil && library.sshRoute == nil, sourceLocation: sourceLocation)
        #expect(cli.upgradeHeaders.isEmpty && library.upgradeHeaders.isEmpty, sourceLocation: sourceLocation)
        #expect(cli.handshakeTimeout == library.handshakeTimeout, sourceLocation: sourceLocation)
        #expect((cli.identitySource == nil) == (library.identitySource == nil), sourceLocation: sourceLocation)
        #expect((cli.deviceAuthStore == nil) == (library.deviceAuthStore == nil), sourceLocation: sourceLocation)
    }

    @Test func aPinnedGatewayThroughTheEnvironmentsProxyWithAStateDirectory() throws {
        let state = NSTemporaryDirectory() + "one-road-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: state) }
        let pin = [UInt8](repeating: 0xAB, count: 32)
        let environment = Environment(["HOME": state, "HTTPS_PROXY": "http://proxy.corp:3128",
                                       "OPENCLAW_HANDSHAKE_TIMEOUT_MS": "4000"])
        var flags = ConnectionOptions(url: "wss://gateway.example.com:8443", token: Secret("t0ken"), stateDirectory: state,
                                      tlsFingerprint: Hex.encode(pin))
        flags.configPath = state + "/openclaw.json"  // none there: the flags alone, as the code's settings
        var configuration = GatewayConfiguration(url: "wss://gateway.example.com:8443")
        configuration.token = Secret("t0ken")
        configuration.tls = .pinned(sha256: pin)
        configuration.deviceIdentity = .stateDirectory(state)
        let cli = try Self.cli(flags, environment)
        let library = try Self.library(configuration, environment)
        Self.expectSame(cli, library)
        #expect(library.proxy?.host == "proxy.corp" && library.handshakeTimeout == 4)
        #expect(library.deviceAuthStore != nil)
    }

    @Test func aCertificateBundleAndAPasswordWithoutADevice() throws {
        let environment = Environment(["HOME": "/nonexistent", "SSL_CERT_FILE": "/etc/ssl/certs/ca-certificates.crt"])
        var flags = ConnectionOptions(url: "wss://10.1.2.3", password: Secret("pw"), caBundlePath: "/etc/ssl/certs/ca-certificates.crt")
        flags.configPath = "/nonexistent/openclaw.json"
        var configuration = GatewayConfiguration(url: "wss://10.1.2.3")
        configuration.password = Secret("pw")
        configuration.tls = .caBundle(path: "/etc/ssl/certs/ca-certificates.crt")
        Self.expectSame(try Self.cli(flags, environment), try Self.library(configuration, environment))
    }

    /// The plaintext rule, once: a private host is allowed by the same opt-in, a public host by none.
    @Test(arguments: [("ws://10.0.0.5:18789", true, true), ("ws://10.0.0.5:18789", false, false),
                      ("ws://gateway.example.com:18789", true, false), ("ws://127.0.0.1:18789", false, true)])
    func thePlaintextRuleIsTheSame(_ url: String, _ optIn: Bool, _ allowed: Bool) throws {
        let environment = Environment(optIn ? ["HOME": "/nonexistent", "OPENCLAW_ALLOW_INSECURE_PRIVATE_WS": "1"] : ["HOME": "/nonexistent"])
        var flags = ConnectionOptions(url: url)
        flags.configPath = "/nonexistent/openclaw.json"
        let cli = Result { try Self.cli(flags, environment) }
        let library = Result { try Self.library(GatewayConfiguration(url: url), environment) }
        #expect(((try? cli.get()) != nil) == allowed, "CLI: \(cli)")
        #expect(((try? library.get()) != nil) == allowed, "library: \(library)")
        if let cli = try? cli.get(), let library = try? library.get() { Self.expectSame(cli, library) }
    }
}
