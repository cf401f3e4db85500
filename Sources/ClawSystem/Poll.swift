import Glibc

/// `poll(2)` on one descriptor with a deadline, retrying on EINTR: every blocking wait in the transport goes through it.
public enum Poll {
    /// Waits until `fd` reports one of `events` (or an error/hang-up); `false` when `deadline` passes first.
    public static func wait(fd: Int32, events: Int16, deadline: Deadline) throws(TransportError) -> Bool {
        while true {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let result = Glibc.poll(&entry, 1, deadline.pollTimeout)
            if result > 0 { return true }
            if result == 0 {
                // poll rounds to milliseconds: only give up once the deadline has really passed.
                if deadline.hasPassed { return false }
                continue
            }
            let code = errno
            if code == EINTR { continue }
            throw .io("poll failed: \(systemErrorText(code))")
        }
    }

    public static let readable = Int16(POLLIN)
    public static let writable = Int16(POLLOUT)
}
