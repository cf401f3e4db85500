@_spi(Engine) import ClawSystem

/// The link-health rule of every long-lived connection, as the official clients keep it: a WebSocket
/// ping every `pingInterval` (keeps NATs and proxies from closing an idle link), and a gateway silent
/// for two ticks (`2 × hello-ok tickIntervalMs`) has lost the connection. The gateway ticks every
/// 30 s by default, so a working link is never silent that long.
///
/// Time is an input (`now`, nanoseconds on the monotonic clock, or a test's virtual clock): the rule
/// never reads a clock.
@_spi(Engine) public struct KeepAlive: Sendable {
    @_spi(Engine) public static let defaultPingInterval = 15.0

    @_spi(Engine) public let pingInterval: Double
    /// How long the gateway may stay silent: two ticks.
    @_spi(Engine) public let silenceLimit: Double
    /// When the gateway will have been silent too long, unless a frame comes first.
    @_spi(Engine) public private(set) var watchdog: UInt64
    @_spi(Engine) public private(set) var nextPing: UInt64

    /// What is due now.
    @_spi(Engine) public enum Due: Sendable, Equatable {
        case nothing
        case ping
        /// No frame for `silenceLimit`: close the connection (4000) as lost.
        case silence
    }

    @_spi(Engine) public init(tickIntervalMs: Int, pingInterval: Double = KeepAlive.defaultPingInterval, now: UInt64) {
        self.pingInterval = pingInterval
        silenceLimit = 2 * Double(tickIntervalMs) / 1000
        watchdog = Self.after(silenceLimit, from: now)
        nextPing = Self.after(pingInterval, from: now)
    }

    /// The earliest moment something may be due: wait no longer than this.
    @_spi(Engine) public var nextCheck: UInt64 { min(watchdog, nextPing) }

    /// A frame arrived: the silence starts again.
    @_spi(Engine) public mutating func heardFromGateway(now: UInt64) {
        watchdog = Self.after(silenceLimit, from: now)
    }

    /// What is due at `now`; a ping reported due is counted as sent.
    @_spi(Engine) public mutating func due(now: UInt64) -> Due {
        if now >= watchdog { return .silence }
        if now >= nextPing {
            nextPing = Self.after(pingInterval, from: now)
            return .ping
        }
        return .nothing
    }

    /// The error a silent link ends with.
    @_spi(Engine) public var silenceError: GatewayError {
        .connectionLost("no frame from the gateway for \(formatDelay(silenceLimit)) (2 × tickIntervalMs)", closeCode: 4000)
    }

    /// `seconds` after `now`, in nanoseconds; `UInt64.max` (never) for an infinite or huge delay.
    @_spi(Engine) public static func after(_ seconds: Double, from now: UInt64) -> UInt64 {
        guard seconds.isFinite else { return .max }
        let delta = max(0, seconds) * 1e9
        return delta >= Double(UInt64.max - now) ? .max : now + UInt64(delta)
    }
}

/// A delay as people read it: `0.4 s`, `12 s`.
@_spi(Engine) public func formatDelay(_ seconds: Double) -> String {
    seconds >= 10 ? "\(Int(seconds.rounded())) s" : "\(Double(Int(seconds * 10)) / 10) s"
}
