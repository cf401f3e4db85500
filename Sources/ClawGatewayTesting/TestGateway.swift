@_spi(Engine) import ClawSystem
/// The gateway simulator started in-process, for tests: what `openclaw-gateway-sim` runs, configured
/// in code, on a free loopback port unless told otherwise.
///
/// ```swift
/// var configuration = TestGatewayConfiguration()
/// configuration.token = "secret"
/// configuration.reply = .lorem(words: 20)
/// let gateway = try TestGateway.start(configuration)
/// defer { gateway.stop() }
/// // connect a client to gateway.url ("ws://127.0.0.1:PORT") with token "secret"
/// ```
///
/// Each gateway has its own threads (accept, tick, a reader and a writer per connection), never the
/// cooperative pool; `stop()` waits for them. A gateway released without `stop()` is stopped then.
public final class TestGateway: Sendable {
    /// Where clients connect: `ws://127.0.0.1:PORT` with the port actually bound (`wss://` with
    /// `--tls-cert`; the `--host` given instead of 127.0.0.1, in brackets if it is IPv6).
    public let url: String

    /// The TCP port the gateway listens on (the one chosen for `--port 0`, the default).
    public let port: Int

    private let server: GatewayServer

    private init(server: GatewayServer) {
        self.server = server
        url = server.url
        port = server.listener.port
    }

    deinit { server.shutdown() }

    /// Starts a gateway configured by `configuration`. It is listening when this returns.
    ///
    /// - Throws: `TestGatewayError`: `.usage` for a setting out of range, `.cannotStart` when the port
    ///   is in use or the TLS files or the log cannot be opened.
    public static func start(_ configuration: TestGatewayConfiguration = TestGatewayConfiguration()) throws(TestGatewayError) -> TestGateway {
        try start(options: configuration.simulatorOptions())
    }

    /// Starts a gateway configured by the simulator's own flags, for what `TestGatewayConfiguration`
    /// does not cover (the executable's every flag): exactly those of
    /// `openclaw-gateway-sim --help` (`--token`, `--tick-ms`, `--reply`, `--fault`, `--tls-cert`,
    /// `--log`, …), except that without `--port` it listens on any free port, never on 18789, and that
    /// `--help` is refused. It is listening when this returns.
    ///
    /// Restarting a gateway in place is `stop()`, then `start(arguments: ["--port", String(old.port)])`.
    ///
    /// - Throws: `TestGatewayError`: `.usage` for a bad flag (the description is the executable's
    ///   sentence), `.cannotStart` when the port is in use or `--tls-cert`/`--tls-key` or `--log` cannot
    ///   be opened.
    public static func start(arguments: [String]) throws(TestGatewayError) -> TestGateway {
        guard let gateway = try start(arguments: arguments, defaultPort: 0) else {
            throw TestGatewayError(.usage, "--help is the openclaw-gateway-sim executable's; pass the other flags")
        }
        return gateway
    }

    /// The executable's start: its default port (18789), and `nil` when `--help` was asked for.
    package static func start(commandLine arguments: [String]) throws(TestGatewayError) -> TestGateway? {
        try start(arguments: arguments, defaultPort: 18789)
    }

    /// What `openclaw-gateway-sim --help` prints (without the final newline).
    package static var helpText: String { SimulatorOptions.helpText }

    private static func start(arguments: [String], defaultPort: Int) throws(TestGatewayError) -> TestGateway? {
        let options: SimulatorOptions
        do {
            guard let parsed = try SimulatorOptions.parse(arguments, defaultPort: defaultPort) else { return nil }
            options = parsed
        } catch {
            throw TestGatewayError(.usage, error.description)
        }
        return try start(options: options)
    }

    private static func start(options: SimulatorOptions) throws(TestGatewayError) -> TestGateway {
        let server: GatewayServer
        do {
            server = try GatewayServer(options: options)
        } catch {
            throw TestGatewayError(.cannotStart, error.description)
        }
        server.start()
        return TestGateway(server: server)
    }

    /// What SIGTERM does to the executable (without the exit): a `shutdown` event to every client
    /// (`restartExpectedMs` from `--restart-ms`), close 1012 "service restart", the listener closed.
    /// Returns once the connections are closed and the gateway's threads have ended (a client that
    /// does not answer the close is cut after 3 s). Calling it again does nothing.
    public func stop() { server.shutdown() }

    /// What SIGUSR1 does: suspends the gateway (see `--suspended`). Connected clients stay connected;
    /// connects are refused `UNAVAILABLE` and closed 1013, requests but `health` refused `UNAVAILABLE`.
    public func suspend() { server.gateway.admission.suspend() }

    /// What SIGUSR2 does: ends a suspension; work is admitted again.
    public func resume() { server.gateway.admission.resume() }

    /// What an administrator does on the gateway host (`openclaw devices approve`): approves every open
    /// pairing request (`requiresPairing`), for the role and scopes it asked for; returns the device
    /// ids approved. A connect waiting for the decision (`waits.pairingApproval`) then goes on.
    @discardableResult
    public func approvePairings() -> [String] { server.gateway.decideAllPairings(approve: true) }

    /// Rejects every open pairing request; returns the device ids refused.
    @discardableResult
    public func rejectPairings() -> [String] { server.gateway.decideAllPairings(approve: false) }

    /// The connections open now: accepted and not yet ended (handshake or not). A test can wait for
    /// it to drop to what it was to know its client has gone; 0 after `stop()`.
    public var connectionCount: Int { server.connectionCount }
}

/// Why `TestGateway.start(arguments:)` failed; `description` is the sentence the executable prints
/// after `openclaw-gateway-sim: `.
public struct TestGatewayError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Which way a start fails.
    public enum Kind: Sendable, Equatable {
        /// A bad flag or value, or flags that do not go together (the executable exits 2).
        case usage
        /// The gateway could not start: the port is in use, the certificate, key or log file cannot
        /// be opened (the executable exits 1).
        case cannotStart
    }

    /// Which way the start failed.
    public let kind: Kind

    /// One line for people, e.g. `unknown option '--prot' (see --help)` or
    /// `cannot listen on 127.0.0.1:18789: …`.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
