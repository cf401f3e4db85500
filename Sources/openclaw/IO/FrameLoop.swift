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

/// The CLI's side of following a connection: the engine's driver (`ConnectionRunner.next`: frames,
/// one poll(2) over the socket and this command's descriptors, the keepalive) with the signal pipe and
/// optionally one input descriptor, flushing stdout before each wait so that no printed frame lingers
/// in a buffer. Frames already received come first; a signal comes before everything. Without a
/// connection it waits for a signal, input or the deadline.
final class FrameLoop {
    let console: Console
    let signals: SignalWatcher
    /// Also wake when this descriptor is readable (nil: do not watch one).
    var input: Int32? = nil
    /// False while a signal is already being acted on (the abort after Ctrl-C): frames only.
    var reportsSignals = true
    private let runner: ConnectionRunner?
    /// stdout when it is a pipe, watched while no `input` is: a reader that went away shows as an error
    /// on the write end, so even an idle command (`watch | head -1`) ends at once, not at its next write.
    static let closedReaderWatch: Int32 = Pipes.isPipe(1) ? 1 : -1

    init(runner: ConnectionRunner?, console: Console, signals: SignalWatcher) {
        self.runner = runner
        self.console = console
        self.signals = signals
    }

    func next(until deadline: Deadline) throws -> LoopEvent {
        while true {
            if reportsSignals && signals.received != 0 { return .signal(signals.received) }
            // The per-frame path: a frame already received, before anything else is set up.
            if let runner, let frame = try runner.take() { return .frame(frame) }
            let signalPipe = reportsSignals ? signals.descriptor : -1
            let watched = input ?? Self.closedReaderWatch
            let wake: ConnectionRunner.Wake
            do {
                if let runner {
                    wake = try runner.next(until: deadline, alert: signalPipe, input: watched,
                                           beforeWait: { [console] in try console.flushOutput() })
                } else {
                    try console.flushOutput()
                    wake = ConnectionRunner.wait(alert: signalPipe, input: watched, until: deadline)
                }
            } catch is OutputClosed where reportsSignals && signals.received != 0 {
                // The signal's grace for a stuck reader ran out during this flush: the signal is the news.
                return .signal(signals.received)
            }
            switch consume wake {
            case .frame(let frame): return .frame(frame)
            case .timeout: if deadline.hasPassed { return .timeout }  // else a signal interrupted the wait
            case .alert: _ = signals.drain()
            case .input:
                if input == nil && watched >= 0 { throw OutputClosed() }  // the reader of stdout went away
                if !(reportsSignals && signals.received != 0) { return .input }
            }
        }
    }
}
