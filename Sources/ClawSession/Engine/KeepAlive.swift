import ClawSystem

/// The link-health rule of every long-lived connection, as the official clients keep it: a WebSocket
/// ping every `pingInterval` (keeps NATs and proxies from closing an idle link), and a gateway silent
/// for two ticks (`2 × hello-ok tickIntervalMs`) has lost the connection. The gateway ticks every
/// 30 s by default, so a working link is never silent that long.
package struct KeepAlive: Sendable {
    package static let defaultPingInterval = 15.0

    package let pingInterval: Double
    /// How long the gateway may stay silent: two ticks.
    package let silenceLimit: Double
    /// When the gateway will have been silent too long, unless a frame comes first.
    package private(set) var watchdog: Deadline
    package private(set) var nextPing: Deadline

    /// What is due now.
    package enum Due: Sendable, Equatable {
        case nothing
        case ping
        /// No frame for `silenceLimit`: close the connection (4000) as lost.
        case silence
    }

    package init(tickIntervalMs: Int, pingInterval: Double = KeepAlive.defaultPingInterval) {
        self.pingInterval = pingInterval
        silenceLimit = 2 * Double(tickIntervalMs) / 1000
        watchdog = .after(seconds: silenceLimit)
        nextPing = .after(seconds: pingInterval)
    }

    /// A rule that never fires (no connection yet).
    package static var off: KeepAlive { KeepAlive(watchdog: .never, nextPing: .never) }

    private init(watchdog: Deadline, nextPing: Deadline) {
        pingInterval = .infinity
        silenceLimit = .infinity
        self.watchdog = watchdog
        self.nextPing = nextPing
    }

    /// The earliest moment something may be due: wait no longer than this.
    package var nextCheck: Deadline { min(watchdog, nextPing) }

    /// A frame arrived: the silence starts again.
    package mutating func heardFromGateway() {
        if !watchdog.isNever { watchdog = .after(seconds: silenceLimit) }
    }

    /// What is due now; a ping reported due is counted as sent.
    package mutating func due() -> Due {
        if watchdog.hasPassed { return .silence }
        if nextPing.hasPassed {
            nextPing = .after(seconds: pingInterval)
            return .ping
        }
        return .nothing
    }

    /// The error a silent link ends with.
    package var silenceError: GatewayError {
        .connectionLost("no frame from the gateway for \(formatDelay(silenceLimit)) (2 × tickIntervalMs)", closeCode: 4000)
    }
}

/// A delay as people read it: `0.4 s`, `12 s`.
package func formatDelay(_ seconds: Double) -> String {
    seconds >= 10 ? "\(Int(seconds.rounded())) s" : "\(Double(Int(seconds * 10)) / 10) s"
}
