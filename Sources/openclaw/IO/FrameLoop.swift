import Glibc
import OpenClawKit

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
/// Frames already received come first; a signal comes before everything. Without a session it
/// is the pause between reconnects, which a signal still ends.
struct FrameLoop {
    let session: GatewaySession?
    let console: Console
    let signals: SignalWatcher
    /// Also wake when this descriptor is readable (nil: do not watch one).
    var input: Int32? = nil
    /// False while a signal is already being acted on (the abort after Ctrl-C): frames only.
    var reportsSignals = true

    func next(until deadline: Deadline) throws -> LoopEvent {
        while true {
            if reportsSignals && signals.received != 0 { return .signal(signals.received) }
            if let session, let frame = try session.receive(deadline: .now) { return .frame(frame) }
            try console.flushOutput()
            if deadline.hasPassed { return .timeout }
            var fds = [
                pollfd(fd: session?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: reportsSignals ? signals.descriptor : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: input ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, nfds_t(fds.count), deadline.pollTimeout)
            if ready < 0 && errno != EINTR { throw GatewayError.connectionLost("poll failed: errno \(errno)", closeCode: nil) }
            if fds[1].revents != 0 { _ = signals.drain() }
            if fds[2].revents != 0 && !(reportsSignals && signals.received != 0) {
                return .input
            }
        }
    }
}
