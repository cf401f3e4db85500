@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// What a connect waits out before it fails, with the CLI's defaults: a gateway that is briefly
/// unable to take us in is asked again within `limit`, as `openclaw` does within `--timeout`.
///
/// ```swift
/// var configuration = GatewayConfiguration(url: "ws://127.0.0.1:18789")
/// configuration.waits.refusedConnections = true  // the gateway may still be starting
/// configuration.waits.limit = .seconds(60)
/// ```
public struct ConnectWaits: Sendable, Equatable {
    /// A gateway that is suspended, draining for a restart or starting (it names a delay: its
    /// `retryAfterMs`, or a connect closed 1013), or past its cap of unauthenticated sockets per
    /// address (`HTTP 503`): asked again after that delay, or with jitter. On by default.
    public var unavailableGateway = true
    /// Nothing listening at the address yet (connection refused): asked again after 0.25 s doubling
    /// to 2 s. Off by default, as the CLI's `--retry-connrefused`.
    public var refusedConnections = false
    /// A device that must be paired first: waits for an administrator's approval (on the connection the
    /// gateway keeps open for it, or by asking again), as the CLI's `--wait-for-pairing`. Off by default.
    public var pairingApproval = false
    /// No wait of a connect ends later than this after it began (the CLI's `--timeout`, 30 s).
    public var limit: Duration = .seconds(30)

    public init() {}

    /// The engine's rules for one connection, its limit counted from now.
    func rules() -> ConnectionLife.Rules {
        var rules = ConnectionLife.Rules()
        rules.waitsOutUnavailable = unavailableGateway
        rules.retriesRefused = refusedConnections
        rules.waitsForPairing = pairingApproval
        rules.deadline = Deadline.after(seconds: limit.seconds).nanoseconds
        return rules
    }
}
