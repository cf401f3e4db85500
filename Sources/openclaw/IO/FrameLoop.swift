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

    /// The ping and silence rule (the library's, shared with every long-lived client). Unchecked: a
    /// mutating call on a class's struct property otherwise pays a runtime exclusivity check before
    /// every wait (65 instructions per `watch` event, measured), and nothing holds it across a call.
    @exclusivity(unchecked) private var keepAliveRule: KeepAlive
    private var sawFrame = false

    init(session: GatewaySession?, console: Console, signals: SignalWatcher) {
        self.session = session
        self.console = console
        self.signals = signals
        keepAliveRule = session.map { KeepAlive(tickIntervalMs: $0.hello.tickIntervalMs) } ?? .off
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
            if sawFrame { keepAliveRule.heardFromGateway(); sawFrame = false }
            try keepAlive()
            let ready: Poll.Readiness
            do {
                ready = try Poll.readable(session?.fileDescriptor ?? -1, reportsSignals ? signals.descriptor : -1, input ?? -1,
                                          until: min(deadline, keepAliveRule.nextCheck))
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
        switch keepAliveRule.due() {
        case .nothing: break
        case .ping: try session.ping(deadline: .after(seconds: 5))
        case .silence:
            session.close(code: 4000, reason: "tick timeout")
            throw keepAliveRule.silenceError
        }
    }
}
