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

    /// Waits until any of `fds` reports `events` (or an error/hang-up), or `deadline` passes; returns
    /// those that did (empty on timeout). A negative descriptor is left out, as `poll(2)` does.
    public static func waitAny(_ fds: [Int32], events: Int16, deadline: Deadline) throws(TransportError) -> [Int32] {
        var entries = fds.map { pollfd(fd: $0, events: events, revents: 0) }
        while true {
            let result = entries.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), deadline.pollTimeout) }
            if result > 0 { return entries.filter { $0.revents != 0 }.map(\.fd) }
            if result == 0 {
                if deadline.hasPassed { return [] }
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
