@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// What the single-threaded command loop wakes up for.
enum LoopEvent {
    case frame(GatewayFrame)
    case signal(Int32)
    /// The extra input descriptor (`call --batch`'s stdin) is readable.
    case input
    case timeout
}

/// Every wait of a command: the engine's pump (`GatewayPump`: one poll(2) over the gateway socket and
/// this command's own descriptors, the keepalive rule) with the signal pipe and optionally one input
/// descriptor, flushing stdout before it so that no printed frame lingers in a buffer. Frames already
/// received come first; a signal comes before everything. Without a session it is the pause between
/// reconnects, which a signal still ends.
final class FrameLoop {
    let session: GatewaySession?
    let console: Console
    let signals: SignalWatcher
    /// Also wake when this descriptor is readable (nil: do not watch one).
    var input: Int32? = nil
    /// False while a signal is already being acted on (the abort after Ctrl-C): frames only.
    var reportsSignals = true
    private let pump: GatewayPump?

    init(session: GatewaySession?, console: Console, signals: SignalWatcher) {
        self.session = session
        self.console = console
        self.signals = signals
        pump = session.map { GatewayPump(session: $0) }
    }

    func next(until deadline: Deadline) throws -> LoopEvent {
        while true {
            if reportsSignals && signals.received != 0 { return .signal(signals.received) }
            if let pump, let frame = try pump.take() { return .frame(frame) }
            do { try console.flushOutput() } catch is OutputClosed where reportsSignals && signals.received != 0 {
                // The signal's grace for a stuck reader ran out during this flush: the signal is the news.
                return .signal(signals.received)
            }
            // Frames read while stdout was blocked (pings answered meanwhile) are taken before waiting.
            if session?.hasBufferedInput == true { continue }
            if deadline.hasPassed { return .timeout }
            let signalPipe = reportsSignals ? signals.descriptor : -1
            let ready: (first: Bool, second: Bool)
            if let pump {
                ready = try pump.wait(signalPipe, input ?? -1, until: deadline)
            } else {
                do {
                    let pause = try Poll.readable(-1, signalPipe, input ?? -1, until: deadline)
                    ready = (pause.second, pause.third)
                } catch {
                    throw GatewayError.connectionLost("poll failed: errno \(error.code)", closeCode: nil)
                }
            }
            if ready.first { _ = signals.drain() }
            if ready.second && !(reportsSignals && signals.received != 0) {
                return .input
            }
        }
    }
}
