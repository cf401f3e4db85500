@_spi(Engine) import ClawSystem

/// When a long-lived client connects again, and when it gives up: the reconnect rule shared by
/// `openclaw watch` and the library's `GatewayClient`.
///
/// A failed connect counts as a failure; so does a connection lost before it was healthy. A connection
/// was healthy once the gateway sent anything after hello-ok (the answer to a subscription, an event,
/// a tick) or it stayed up `healthyAfter`; losing a healthy one starts the backoff again from its base,
/// as the official clients reset after hello-ok, so a proxy that cuts idle tunnels is met promptly every
/// time, while a gateway that accepts and drops at once meets a growing backoff and `maxRetries`.
/// A delay the gateway named (`retryAfterMs`, a `shutdown` event's `restartExpectedMs`) wins over the backoff.
@_spi(Engine) public struct ReconnectSchedule: Sendable {
    @_spi(Engine) public var backoff: Backoff
    /// Failed attempts in a row allowed before giving up; nil: never give up.
    @_spi(Engine) public var maxRetries: Int?
    /// Failed attempts since the last healthy connection.
    @_spi(Engine) public private(set) var failures = 0
    /// The delay a `shutdown` event announced, used once for the next reconnect.
    @_spi(Engine) public var restartDelay: Double?

    @_spi(Engine) public enum Decision: Sendable, Equatable {
        case retry(afterSeconds: Double)
        /// `maxRetries` failed attempts in a row.
        case giveUp
    }

    @_spi(Engine) public init(backoff: Backoff = Backoff(), maxRetries: Int? = nil) {
        self.backoff = backoff
        self.maxRetries = maxRetries
    }

    /// How long a connection must stay up to count as healthy: two ticks, at most 30 s.
    @_spi(Engine) public static func healthyAfter(tickIntervalMs: Int) -> Double {
        min(30, 2 * Double(tickIntervalMs) / 1000)
    }

    /// A connect attempt failed with `error`; `random` (0…1) draws the jitter.
    @_spi(Engine) public mutating func connectFailed(_ error: GatewayError, random: Double) -> Decision {
        failures += 1
        return next(error, random: random)
    }

    /// An established connection ended with `error`.
    @_spi(Engine) public mutating func connectionLost(_ error: GatewayError, healthy: Bool, random: Double) -> Decision {
        if healthy { failures = 0 } else { failures += 1 }
        return next(error, random: random)
    }

    private mutating func next(_ error: GatewayError, random: Double) -> Decision {
        if let maxRetries, failures > maxRetries { return .giveUp }
        let delay = restartDelay ?? error.retryAfterSeconds ?? backoff.delay(attempt: max(failures, 1), random: random)
        restartDelay = nil
        return .retry(afterSeconds: delay)
    }
}
