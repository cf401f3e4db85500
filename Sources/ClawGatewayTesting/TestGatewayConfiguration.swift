/// How a `TestGateway` behaves: a value, built in code. Every setting has the default of
/// `openclaw-gateway-sim`, except the port (any free one).
///
/// ```swift
/// var configuration = TestGatewayConfiguration()
/// configuration.token = "secret"
/// configuration.reply = .lorem(words: 300)
/// let gateway = try TestGateway.start(configuration)
/// ```
public struct TestGatewayConfiguration: Sendable, Equatable {
    /// The loopback port; 0 (the default) picks a free one. A restart in place passes the old port.
    public var port = 0
    /// The protocol the gateway speaks: 4 (default) or 3.
    public var protocolVersion = 4
    /// The shared token clients must present, if any.
    public var token: String?
    /// The password clients must present, if any (and no token).
    public var password: String?
    /// How often the gateway sends `tick` (and so how long a client waits before calling it silent).
    public var tickInterval: Duration = .seconds(30)
    /// How the scripted agent answers `chat.send`.
    public var reply: Reply = .echo
    /// The pause between a streamed reply's deltas.
    public var deltaInterval: Duration = .milliseconds(5)
    /// Devices must be paired (approved) before they may connect.
    public var requiresPairing = false
    /// The `restartExpectedMs` its `shutdown` event announces on `stop()`.
    public var announcedRestart: Duration?
    /// A WebSocket ping this often; a client that does not answer within `pongTimeout` is dropped.
    public var pingInterval: Duration?
    public var pongTimeout: Duration = .seconds(25)
    /// Right after `hello-ok`, this many chat delta events of about `bytes` each, at full speed.
    public var blast: (count: Int, bytes: Int)? {
        get { blastCount.map { ($0, blastBytes) } }
        set { blastCount = newValue?.count; blastBytes = newValue?.bytes ?? 200 }
    }
    private var blastCount: Int?
    private var blastBytes = 200
    /// Misbehaviours to show, for robustness tests.
    public var faults: [Fault] = []
    /// Starts suspended: connects are refused `UNAVAILABLE` until `resume()`.
    public var startsSuspended = false
    /// A file that gets every frame in and out, one JSON line each (`{"dir","conn","frame"}`).
    public var logPath: String?
    /// A certificate and key (PEM files) to serve `wss://` with.
    public var tls: (certificatePath: String, keyPath: String)? {
        get { tlsCertificatePath.flatMap { cert in tlsKeyPath.map { (cert, $0) } } }
        set { tlsCertificatePath = newValue?.certificatePath; tlsKeyPath = newValue?.keyPath }
    }
    private var tlsCertificatePath: String?
    private var tlsKeyPath: String?

    public init() {}

    /// How the scripted agent answers a message.
    public enum Reply: Sendable, Equatable {
        /// The message itself, streamed back a word at a time.
        case echo
        /// `words` words of lorem ipsum, streamed.
        case lorem(words: Int)
        /// One delta, then the run ends in state `error`.
        case error
        /// A second or more per delta, for tests that abort mid-run.
        case slow
        /// `times` provider-retry status events first (protocol 4), then the echo.
        case retry(times: Int)
    }

    /// A misbehaviour of the gateway.
    public enum Fault: Sendable, Equatable {
        /// Drops the TCP connection (no close frame) after this many outgoing frames.
        case dropAfter(frames: Int)
        /// Skips one event number after every `every` events.
        case sequenceGap(every: Int)
        /// Never sends `tick`.
        case stopsTicking
        /// Answers the first `connects` connects "gateway starting" and closes 1013.
        case starting(connects: Int)
        /// Refuses the first `requests` requests after a connect (not `health`) as while draining for a restart.
        case restarting(requests: Int)
        /// Pings the client after `hello-ok` and on every tick.
        case pings
        /// Splits every message into continuation frames.
        case fragments
        /// Sends one message larger than the gateway's own `maxPayload` right after `hello-ok`.
        case oversizedMessage
        /// Sends a text frame that is not JSON right after `hello-ok`.
        case invalidJSON
    }

    /// The simulator's own options for this configuration.
    func simulatorOptions() throws(TestGatewayError) -> SimulatorOptions {
        var options = SimulatorOptions()
        guard (0...65535).contains(port) else { throw TestGatewayError(.usage, "port \(port) is not a TCP port") }
        guard protocolVersion == 3 || protocolVersion == 4 else {
            throw TestGatewayError(.usage, "protocol version \(protocolVersion): a gateway speaks 3 or 4")
        }
        guard token == nil || password == nil else {
            throw TestGatewayError(.usage, "give either a token or a password, not both (the gateway has one auth mode)")
        }
        options.port = port
        options.protocolVersion = protocolVersion
        options.token = token
        options.password = password
        options.tickMs = try Self.milliseconds(tickInterval, "tickInterval", minimum: 1)
        switch reply {
        case .echo: options.reply = .echo
        case .lorem(let words):
            guard words >= 1 else { throw TestGatewayError(.usage, "lorem(words: \(words)): at least one word") }
            options.reply = .lorem(words)
        case .error: options.reply = .error
        case .slow: options.reply = .slow
        case .retry(let times):
            guard (1...9).contains(times) else { throw TestGatewayError(.usage, "retry(times: \(times)): 1 to 9") }
            options.reply = .retry(times)
        }
        options.deltaMs = try Self.milliseconds(deltaInterval, "deltaInterval", minimum: 0)
        options.requirePairing = requiresPairing
        options.restartMs = try announcedRestart.map { d throws(TestGatewayError) in try Self.milliseconds(d, "announcedRestart", minimum: 0) }
        options.pingMs = try pingInterval.map { d throws(TestGatewayError) in try Self.milliseconds(d, "pingInterval", minimum: 1) }
        options.pongTimeoutMs = try Self.milliseconds(pongTimeout, "pongTimeout", minimum: 1)
        options.blastCount = blastCount
        options.blastBytes = blastBytes
        options.faults = faults.map(\.simulatorFault)
        options.startSuspended = startsSuspended
        options.logPath = logPath
        options.tlsCertPath = tlsCertificatePath
        options.tlsKeyPath = tlsKeyPath
        return options
    }

    private static func milliseconds(_ duration: Duration, _ name: String, minimum: Int) throws(TestGatewayError) -> Int {
        let (seconds, attoseconds) = duration.components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        guard ms >= minimum, ms <= Int64(Int32.max) else {
            throw TestGatewayError(.usage, "\(name) \(duration): \(minimum) ms to \(Int32.max) ms")
        }
        return Int(ms)
    }
}

extension TestGatewayConfiguration.Fault {
    var simulatorFault: Fault {
        switch self {
        case .dropAfter(let frames): return .dropAfter(frames)
        case .sequenceGap(let every): return .seqGap(every)
        case .stopsTicking: return .stopTicks
        case .starting(let connects): return .starting(connects)
        case .restarting(let requests): return .restarting(requests)
        case .pings: return .ping
        case .fragments: return .fragment
        case .oversizedMessage: return .oversize
        case .invalidJSON: return .badJSON
        }
    }
}
