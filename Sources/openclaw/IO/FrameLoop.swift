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

/// Waits on the gateway socket, the signal pipe and optionally one input descriptor with one
/// poll(2), flushing stdout before every wait so that no printed frame lingers in a buffer.
/// Frames already received come first; a signal comes before everything.
struct FrameLoop {
    let session: GatewaySession
    /// Also wake when this descriptor is readable (nil: do not watch one).
    var input: Int32? = nil

    func next(until deadline: Deadline) throws -> LoopEvent {
        while true {
            if SignalWatcher.received != 0 { return .signal(SignalWatcher.received) }
            if let frame = try session.receive(deadline: .now) { return .frame(frame) }
            try flushOutput()
            if deadline.hasPassed { return .timeout }
            var fds = [
                pollfd(fd: session.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: SignalWatcher.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: input ?? -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, nfds_t(fds.count), deadline.pollTimeout)
            if ready < 0 && errno != EINTR { throw GatewayError.connectionLost("poll failed: errno \(errno)", closeCode: nil) }
            if fds[1].revents != 0 { _ = SignalWatcher.drain() }
            if fds[2].revents != 0 && SignalWatcher.received == 0 {
                return .input
            }
        }
    }
}

/// The reader of stdout went away (`openclaw watch | head -1`): stop quietly.
struct OutputClosed: Error {}

func flushOutput() throws {
    if !Console.out.flush() { throw OutputClosed() }
}
