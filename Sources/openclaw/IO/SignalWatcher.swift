import Glibc

/// Turns SIGINT and SIGTERM into readable bytes on a pipe, so the poll loop can react to
/// them between frames (finish the line being written, abort the run, then exit).
enum SignalWatcher {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private(set) static var readEnd: Int32 = -1
    /// The first signal received, or 0.
    nonisolated(unsafe) fileprivate(set) static var received: Int32 = 0

    static func install() {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        readEnd = fds[0]
        writeEnd = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        let handler: @convention(c) (Int32) -> Void = { signalNumber in
            // Seen at once by loops that are busy with frames and not polling.
            if SignalWatcher.received == 0 { SignalWatcher.received = signalNumber }
            var byte = UInt8(truncatingIfNeeded: signalNumber)
            _ = Glibc.write(SignalWatcher.writeEnd, &byte, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A parent may hand down a mask that blocks them (signal masks survive exec).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Reads pending signal bytes; returns the first signal seen (also kept in `received`).
    static func drain() -> Int32 {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) == 1 {
            if received == 0 { received = Int32(byte) }
        }
        return received
    }
}
