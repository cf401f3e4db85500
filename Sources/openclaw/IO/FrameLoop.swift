import Glibc
import OpenClawKit

/// What the single-threaded command loop wakes up for.
enum LoopEvent {
    case frame(GatewayFrame)
    case signal(Int32)
    case timeout
}

/// Waits on the gateway socket and the signal pipe with one poll(2), flushing stdout
/// before every wait so that no printed frame lingers in a buffer.
struct FrameLoop {
    let session: GatewaySession

    func next(until deadline: Deadline) throws -> LoopEvent {
        while true {
            if SignalWatcher.received != 0 { return .signal(SignalWatcher.received) }
            if let frame = try session.receive(deadline: .now) { return .frame(frame) }
            try flushOutput()
            if deadline.hasPassed { return .timeout }
            var fds = [
                pollfd(fd: session.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: SignalWatcher.readEnd, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, nfds_t(fds.count), deadline.pollTimeout)
            if ready < 0 && errno != EINTR { throw GatewayError.connectionLost("poll failed: errno \(errno)", closeCode: nil) }
            if fds[1].revents != 0 { _ = SignalWatcher.drain() }
        }
    }
}

/// The reader of stdout went away (`openclaw watch | head -1`): stop quietly.
struct OutputClosed: Error {}

func flushOutput() throws {
    if !Console.out.flush() { throw OutputClosed() }
}
