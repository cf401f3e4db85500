@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

/// A gateway connection's whole life as a machine that decides and never acts: connect attempts and
/// every wait-out between them, the open link's pings and silence (`KeepAlive`'s rule), reconnecting,
/// and why it ended; `nextDeadline` is the one moment the driver must wake for. A driver
/// (the CLI's command loop, the library's I/O thread) performs what it decides — dials, waits, pings,
/// closes — and feeds it what happened; time (`now`, nanoseconds) and chance (`random`, 0…1) are inputs,
/// so its every rule runs in virtual time in tests, the sans-I/O shape of quinn-proto's `Connection`.
///
/// States: idle → connecting → open → (lost) → waiting → connecting …; a failed connect → waiting or
/// ended; an interrupt or cancel ends it from any state. Events come in through `handle(_:)` (the
/// methods below are its cases, kept for tests that read as sentences).
@_spi(Engine) public struct ConnectionLife: Sendable {
    /// What the face asks for: a one-shot command or a long-lived client, and which waits it accepts.
    @_spi(Engine) public struct Rules: Sendable {
        /// A long-lived client (`watch`, `GatewayClient.run()`): a lost connection is connected again.
        @_spi(Engine) public var reconnects = false
        /// Reconnect backoff and `maxRetries` (long-lived).
        @_spi(Engine) public var schedule = ReconnectSchedule()
        /// One-shot: wait out a suspended, restarting or starting gateway for the delay it names (its
        /// `retryAfterMs`, a connect closed 1013) while `deadline` allows.
        @_spi(Engine) public var waitsOutUnavailable = true
        /// `--retry-connrefused`: a gateway not listening yet is asked again.
        @_spi(Engine) public var retriesRefused = false
        /// `--wait-for-pairing`: an unpaired device asks again until approved.
        @_spi(Engine) public var waitsForPairing = false
        /// One-shot: no wait may end after this (nanoseconds; `.max`: none).
        @_spi(Engine) public var deadline = UInt64.max
        /// A WebSocket ping this often while the connection is open (`KeepAlive`).
        @_spi(Engine) public var pingInterval = KeepAlive.defaultPingInterval

        /// A gateway not listening yet: 0.25 s doubling to 2 s (as curl's retries grow).
        @_spi(Engine) public static let refusedBackoff = Backoff(base: 0.25, maximum: 2)
        /// A pairing request the gateway does not let us wait on: 1 s doubling to 5 s.
        @_spi(Engine) public static let pairingBackoff = Backoff(base: 1, maximum: 5)
        /// The gateway's cap of unauthenticated sockets: 0.25 s doubling to 2 s, with jitter, so that a
        /// cron storm of clients spreads out instead of knocking again in step.
        @_spi(Engine) public static let admissionBackoff = Backoff(base: 0.25, maximum: 2)

        @_spi(Engine) public init() {}

        /// A long-lived client: reconnect after `base` seconds doubling to `maximum`, with jitter, and
        /// give up after `maxRetries` failed retries in a row (nil: never).
        @_spi(Engine) public mutating func reconnect(base: Double, maximum: Double, maxRetries: Int?) {
            reconnects = true
            schedule = ReconnectSchedule(backoff: Backoff(base: base, maximum: maximum), maxRetries: maxRetries)
        }
    }

    /// Why a wait was decided.
    @_spi(Engine) public enum Wait: Sendable, Equatable {
        /// A suspended, restarting or starting gateway named when to come back.
        case unavailable(reason: String)
        /// `--retry-connrefused`; `first` for the first such wait (one note).
        case refused(first: Bool)
        /// `--wait-for-pairing`; `first` for the first such wait (one note).
        case pairing(requestId: String?, reason: String?, first: Bool)
        /// Past the gateway's unauthenticated-socket cap, or its WebSockets not ready yet.
        case admission(first: Bool)
        /// A long-lived client's reconnect; `afterFailedConnect` when no connection was made.
        case reconnect(afterFailedConnect: Bool)
    }

    /// How a life ended.
    @_spi(Engine) public enum Ending: Sendable {
        /// This error ended it (not waited out).
        case failed(GatewayError)
        /// A long-lived client failed `maxRetries` attempts in a row; the last error.
        case gaveUp(GatewayError, retries: Int)
        /// A long-lived client's next attempt would come after `deadline`; the last error.
        case outOfTime(GatewayError)
        /// `--wait-for-pairing` ran out of time before the approval.
        case stillUnpaired(requestId: String?)
        /// A signal or a cancellation.
        case interrupted
        /// The face closed it.
        case closed
    }

    @_spi(Engine) public enum Decision: Sendable {
        /// Connect again at `at` (nanoseconds), after the wait `why`; `seconds` is the delay.
        case retry(at: UInt64, seconds: Double, why: Wait)
        case end(Ending)
        /// Nothing to do: the event only informed the machine.
        case carryOn
        /// Send a WebSocket ping on the open connection (a link check).
        case ping
        /// The gateway has been silent too long (a link check): close the connection 4000, then tell
        /// the machine it was lost with this error.
        case closeSilentLink(GatewayError)
    }

    /// What happened, as the driver tells it: one type, so that a life is a list of events — logged,
    /// replayed, and tested as a table of events and the decisions they bring.
    @_spi(Engine) public enum Event: Sendable {
        /// An attempt starts (route, SSH, proxy, TLS, upgrade, handshake).
        case connecting
        /// The attempt failed with this error at `now`.
        case connectFailed(GatewayError, now: UInt64)
        /// The gateway let us in (hello-ok) at `now`.
        case connected(tickIntervalMs: Int, now: UInt64)
        /// A frame arrived on the open connection after hello-ok.
        case heard
        /// The driver is about to wait on the open connection at `now`; `heard`: a frame arrived (or was
        /// read ahead) since the last check. Answered with `.ping`, `.closeSilentLink`, or `.carryOn`.
        case linkCheck(now: UInt64, heard: Bool)
        /// A `shutdown` event said the gateway will be back after this many seconds (nil: not said).
        case restartAnnounced(seconds: Double?)
        /// The open connection ended with this error at `now`.
        case lost(GatewayError, now: UInt64)
        /// A signal or a cancellation.
        case interrupted
        /// The face closed it.
        case closed
    }

    /// Tells the machine what happened; what to do next (`carryOn` for an event that decides nothing).
    @_spi(Engine) public mutating func handle(_ event: Event) -> Decision {
        switch event {
        case .connecting: connecting()
        case .connectFailed(let error, let now): return connectFailed(error, now: now)
        case .connected(let tickIntervalMs, let now): connected(tickIntervalMs: tickIntervalMs, now: now)
        case .heard: heard()
        case .linkCheck(let now, let heard): return linkCheck(now: now, heard: heard)
        case .restartAnnounced(let seconds): restartAnnounced(seconds: seconds)
        case .lost(let error, let now): return lost(error, now: now)
        case .interrupted: return interrupted()
        case .closed: return closed()
        }
        return .carryOn
    }

    @_spi(Engine) public enum State: Sendable, Equatable {
        case idle
        case connecting(attempt: Int)
        case waiting(until: UInt64)
        case open(since: UInt64)
        case ended
    }

    @_spi(Engine) public private(set) var state: State = .idle
    @_spi(Engine) public private(set) var rules: Rules
    private let random: @Sendable () -> Double
    private var attempt = 0
    private var heardSinceHello = false
    private var tickIntervalMs = 30_000
    private var refusedAttempts = 0
    private var pairingAttempts = 0
    private var admissionAttempts = 0
    private var everConnected = false
    /// The open connection's link rule (nil while not open).
    private var keepAlive: KeepAlive?

    /// `random` gives 0…1 for the jitter (default: the system's CSPRNG).
    @_spi(Engine) public init(_ rules: Rules, random: @escaping @Sendable () -> Double = ConnectionLife.secureRandom) {
        self.rules = rules
        self.random = random
    }

    @_spi(Engine) public static let secureRandom: @Sendable () -> Double = { Double(SecureRandom.bytes(1)[0]) / 255 }

    /// Failed attempts in a row since the last healthy connection (long-lived).
    @_spi(Engine) public var failures: Int { rules.schedule.failures }
    /// Whether a connection was ever made.
    @_spi(Engine) public var wasConnected: Bool { everConnected }

    // MARK: Events

    /// An attempt starts (route, SSH, proxy, TLS, upgrade, handshake).
    @_spi(Engine) public mutating func connecting() {
        attempt += 1
        state = .connecting(attempt: attempt)
    }

    /// The gateway let us in (hello-ok).
    @_spi(Engine) public mutating func connected(tickIntervalMs: Int, now: UInt64) {
        self.tickIntervalMs = tickIntervalMs
        state = .open(since: now)
        attempt = 0
        everConnected = true
        heardSinceHello = false
        rules.schedule.restartDelay = nil
        keepAlive = KeepAlive(tickIntervalMs: tickIntervalMs, pingInterval: rules.pingInterval, now: now)
    }

    /// The driver is about to wait on the open connection: a ping when one is due, the link lost when
    /// the gateway has been silent for two ticks.
    @_spi(Engine) public mutating func linkCheck(now: UInt64, heard: Bool) -> Decision {
        guard case .open = state, var link = keepAlive else { return .carryOn }
        if heard { link.heardFromGateway(now: now) }
        let due = link.due(now: now)
        keepAlive = link
        switch due {
        case .nothing: return .carryOn
        case .ping: return .ping
        case .silence: return .closeSilentLink(link.silenceError)
        }
    }

    /// A frame arrived on the open connection after hello-ok: the link was healthy.
    @_spi(Engine) public mutating func heard() {
        heardSinceHello = true
    }

    /// A `shutdown` event said the gateway will be back after `seconds`: the next reconnect waits that long.
    @_spi(Engine) public mutating func restartAnnounced(seconds: Double?) {
        if let seconds { rules.schedule.restartDelay = max(0, seconds) }
    }

    /// A connect attempt failed with `error` at `now`: wait (and when), or end.
    @_spi(Engine) public mutating func connectFailed(_ error: GatewayError, now: UInt64) -> Decision {
        if rules.reconnects && !(rules.waitsForPairing && error.isPairingRequired) {
            return reconnectOrEnd(rules.schedule.connectFailed(error, random: random()), error, now: now, afterFailedConnect: true)
        }
        return oneShotWait(after: error, now: now)
    }

    /// The open connection ended with `error` at `now`.
    @_spi(Engine) public mutating func lost(_ error: GatewayError, now: UInt64) -> Decision {
        keepAlive = nil
        guard rules.reconnects, error.isRetryable else { return end(.failed(error)) }
        let healthy = heardSinceHello || wasUpLongEnough(now: now)
        return reconnectOrEnd(rules.schedule.connectionLost(error, healthy: healthy, random: random()), error, now: now,
                              afterFailedConnect: false)
    }

    /// A signal or a cancellation: ends the life in any state.
    @_spi(Engine) public mutating func interrupted() -> Decision { end(.interrupted) }

    /// The face closes it.
    @_spi(Engine) public mutating func closed() -> Decision { end(.closed) }

    /// The one moment the driver must wake for: the next attempt (while waiting), the next link check
    /// (while open: a ping due, or the silence limit); `UInt64.max`: none.
    @_spi(Engine) public var nextDeadline: UInt64 {
        switch state {
        case .waiting(let until): return until
        case .open: return keepAlive?.nextCheck ?? .max
        default: return .max
        }
    }

    // MARK: Rules

    /// How long a connection must stay up to count as healthy: two ticks, at most 30 s.
    private func wasUpLongEnough(now: UInt64) -> Bool {
        guard case .open(let since) = state else { return false }
        return now >= since && Double(now - since) / 1e9 >= ReconnectSchedule.healthyAfter(tickIntervalMs: tickIntervalMs)
    }

    private mutating func reconnectOrEnd(_ decision: ReconnectSchedule.Decision, _ error: GatewayError, now: UInt64,
                                         afterFailedConnect: Bool) -> Decision {
        guard error.isRetryable else { return end(.failed(error)) }
        switch decision {
        case .giveUp: return end(.gaveUp(error, retries: rules.schedule.maxRetries ?? 0))
        case .retry(let seconds):
            guard KeepAlive.after(seconds, from: now) < rules.deadline else { return end(.outOfTime(error)) }
            return wait(seconds, now: now, why: .reconnect(afterFailedConnect: afterFailedConnect))
        }
    }

    /// Full jitter within [½ × seconds, seconds]: clients turned away together come back apart.
    private static func spread(_ seconds: Double, _ random: Double) -> Double {
        seconds / 2 + seconds / 2 * min(max(random, 0), 1)
    }

    private mutating func oneShotWait(after error: GatewayError, now: UInt64) -> Decision {
        switch error {
        case .unavailable(let reason, _) where rules.waitsOutUnavailable:
            guard let seconds = error.retryAfterSeconds else { return end(.failed(error)) }
            return waitWithinDeadline(seconds, now: now, why: .unavailable(reason: reason), orEnd: .failed(error))
        case .admissionRefused where rules.waitsOutUnavailable:
            admissionAttempts += 1
            let seconds = Self.spread(Rules.admissionBackoff.ceiling(attempt: admissionAttempts), random())
            return waitWithinDeadline(seconds, now: now, why: .admission(first: admissionAttempts == 1), orEnd: .failed(error))
        case .connectFailed where rules.retriesRefused && error.isConnectionRefused:
            refusedAttempts += 1
            let seconds = Rules.refusedBackoff.delay(attempt: refusedAttempts, random: random())
            return waitWithinDeadline(seconds, now: now, why: .refused(first: refusedAttempts == 1), orEnd: .failed(error))
        case .authenticationFailed(.pairingRequired(let requestId, let reason), _) where rules.waitsForPairing:
            pairingAttempts += 1
            let seconds = Rules.pairingBackoff.delay(attempt: pairingAttempts, random: random())
            return waitWithinDeadline(seconds, now: now, why: .pairing(requestId: requestId, reason: reason, first: pairingAttempts == 1),
                                      orEnd: .stillUnpaired(requestId: requestId))
        default:
            return end(.failed(error))
        }
    }

    private mutating func waitWithinDeadline(_ seconds: Double, now: UInt64, why: Wait, orEnd ending: Ending) -> Decision {
        guard KeepAlive.after(seconds, from: now) < rules.deadline else { return end(ending) }
        return wait(seconds, now: now, why: why)
    }

    private mutating func wait(_ seconds: Double, now: UInt64, why: Wait) -> Decision {
        let until = KeepAlive.after(seconds, from: now)
        state = .waiting(until: until)
        return .retry(at: until, seconds: seconds, why: why)
    }

    private mutating func end(_ ending: Ending) -> Decision {
        keepAlive = nil
        state = .ended
        return .end(ending)
    }
}
