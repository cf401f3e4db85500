@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawState
@_spi(Engine) import ClawTransport

/// The way to a gateway, the CLI's and the library's: the SSH step when the options name a route
/// (`gateway.remote.transport` ssh: a new tunnel per attempt, the previous one stopped), then the
/// connect itself (socket, TLS, upgrade, handshake). Every wait of both ends when `interrupt` turns
/// readable (a signal pipe, a close request).
@_spi(Engine) public final class GatewayConnector {
    @_spi(Engine) public let options: SessionOptions
    private let environment: Environment
    private let interrupt: Int32
    private let clock: any EngineClock
    /// The tunnel of the latest attempt, while it lasts.
    @_spi(Engine) public private(set) var tunnel: SSHTunnel?

    @_spi(Engine) public init(options: SessionOptions, environment: Environment, interrupt: Int32,
                              clock: any EngineClock = SystemEngineClock.shared) {
        self.options = options
        self.environment = environment
        self.interrupt = interrupt
        self.clock = clock
    }

    /// The options an attempt dials: through a new tunnel when there is a route (its failures are
    /// sorted by `SSHTunnelFailure.disposition`), else the options themselves.
    @_spi(Engine) public func route(deadline: Deadline) throws(SSHTunnelFailure) -> SessionOptions {
        guard let route = options.sshRoute else { return options }
        stopTunnel()
        let opened = try SSHTunnel.open(route: route, preferredLocalPort: options.url.port, environment: environment,
                                        deadline: deadline, startTimeout: options.connectTimeout,
                                        interruptDescriptor: interrupt)
        tunnel = opened
        return opened.sessionOptions(options)
    }

    /// One connect to what `route` returned, bounded by `deadline` and the connect timeout.
    @_spi(Engine) public func connect(_ dial: SessionOptions, deadline: Deadline) throws(GatewayError) -> GatewaySession {
        try Poll.interruptible(by: interrupt) { () throws(GatewayError) in
            try GatewaySession.open(dial, deadline: min(deadline, clock.deadline(after: dial.connectTimeout)))
        }
    }

    /// Stops the tunnel (SIGTERM, SIGKILL after 1.5 s) and reaps its ssh.
    @_spi(Engine) public func stopTunnel() {
        tunnel?.stop()
        tunnel = nil
    }
}

extension SSHTunnelFailure {
    /// What a failure to open a tunnel means for the caller: one sorting for the CLI's exit statuses
    /// and the library's error codes.
    @_spi(Engine) public enum Disposition: Sendable, Equatable {
        /// The caller's interrupt ended it.
        case interrupted
        /// The caller's deadline passed.
        case timedOut
        /// No ssh to run: a configuration problem, not worth retrying.
        case clientUnusable
        /// ssh refused the host key or the login: someone must act.
        case refused
        /// ssh ended, or its forward never listened: it may pass.
        case transient
    }

    @_spi(Engine) public var disposition: Disposition {
        switch self {
        case .interrupted: return .interrupted
        case .timedOut: return .timedOut
        case .clientNotFound, .cannotStart: return .clientUnusable
        case .exited, .notListening, .listenerNotOwned, .noLocalPort: return refusal != nil ? .refused : .transient
        }
    }
}

extension ReconnectSchedule {
    /// The delay a `shutdown` event's payload announces (`restartExpectedMs`), in seconds.
    @_spi(Engine) public static func restartDelay(announcedBy payload: JSONValue?) -> Double? {
        payload?["restartExpectedMs"]?.doubleValue.map { max(0, $0) / 1000 }
    }
}
