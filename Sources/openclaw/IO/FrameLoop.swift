import ClawSystem
import ClawProtocol
import ClawSession

/// What the single-threaded command loop wakes up for.
enum LoopEvent {
    case frame(GatewayFrame)
    case signal(Int32)
    /// The extra input descriptor (`call --batch`'s stdin) is readable.
    case input
    case timeout
}

/// Every wait of a command: one poll(2) on the gateway socket, the signal pipe and optionally one
/// input descriptor, flushing stdout before it so that no printed frame lingers in a buffer.
/// Frames already received come first; a signal comes before everything. With a session it also
/// keeps the link honest for every command: a WebSocket ping every 15 s, and no frame for
/// 2 × `tickIntervalMs` closes the connection (4000) as lost. Without a session it is the pause
/// between reconnects, which a signal still ends.
final class FrameLoop {
    let session: GatewaySession?
    let console: Console
    let signals: SignalWatcher
    /// Also wake when this descriptor is readable (nil: do not watch one).
    var input: Int32? = nil
    /// False while a signal is already being acted on (the abort after Ctrl-C): frames only.
    var reportsSignals = true

    static let pingInterval = 15.0
    /// How long the gateway may stay silent: two ticks.
    let silenceLimit: Double
    private var watchdog: Deadline
    private var sawFrame = false
    private var nextPing: Deadline

    init(session: GatewaySession?, console: Console, signals: SignalWatcher) {
        self.session = session
        self.console = console
        self.signals = signals
        silenceLimit = 2 * Double(session?.hello.tickIntervalMs ?? 30_000) / 1000
        watchdog = session == nil ? .never : .after(seconds: silenceLimit)
        nextPing = session == nil ? .never : .after(seconds: Self.pingInterval)
    }

    func next(until deadline: Deadline) throws -> LoopEvent {
        while true {
            if reportsSignals && signals.received != 0 { return .signal(signals.received) }
            // A deadline long passed is `.now` without a clock read per frame: either way only what is
            // already readable is taken (the read, when one is needed, polls with a zero timeout).
            if let session, let frame = try session.receive(deadline: Deadline(nanoseconds: 0)) {
                sawFrame = true  // the watchdog restarts before the next wait, not per frame (no clock read)
                return .frame(frame)
            }
            try console.flushOutput()
            // Frames read while stdout was blocked (pings answered meanwhile) are taken before waiting.
            if session?.hasBufferedInput == true { continue }
            if deadline.hasPassed { return .timeout }
            if sawFrame { watchdog = .after(seconds: silenceLimit); sawFrame = false }
            try keepAlive()
            let ready: Poll.Readiness
            do {
                ready = try Poll.readable(session?.fileDescriptor ?? -1, reportsSignals ? signals.descriptor : -1, input ?? -1,
                                          until: min(deadline, watchdog, nextPing))
            } catch {
                throw GatewayError.connectionLost("poll failed: errno \(error.code)", closeCode: nil)
            }
            if ready.second { _ = signals.drain() }
            if ready.third && !(reportsSignals && signals.received != 0) {
                return .input
            }
        }
    }

    /// Pings when one is due; declares the link dead when the gateway has been silent too long.
    private func keepAlive() throws {
        guard let session else { return }
        if watchdog.hasPassed {
            session.close(code: 4000, reason: "tick timeout")
            throw GatewayError.connectionLost(
                "no frame from the gateway for \(formatDelay(silenceLimit)) (2 × tickIntervalMs)", closeCode: 4000)
        }
        if nextPing.hasPassed {
            try session.ping(deadline: .after(seconds: 5))
            nextPing = .after(seconds: Self.pingInterval)
        }
    }
}

/// A delay as people read it: `0.4 s`, `12 s`.
func formatDelay(_ seconds: Double) -> String {
    seconds >= 10 ? "\(Int(seconds.rounded())) s" : "\(Double(Int(seconds * 10)) / 10) s"
}
