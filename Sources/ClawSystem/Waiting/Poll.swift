import Glibc

/// `poll(2)` on one descriptor with a deadline, retrying on EINTR: every blocking wait in the transport goes through it.
@_spi(Engine) public enum Poll {
    /// Set by `interruptible`, per thread: a descriptor whose readability ends every `wait` of this
    /// thread as if its deadline had passed. A single-threaded command's signal pipe while it connects,
    /// or an async connection's wake-up while its I/O thread connects.
    private static let interruptKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// The calling thread's interrupt descriptor, stored as descriptor + 1 (no value reads as 0).
    private static var interruptDescriptor: Int32 {
        Int32(truncatingIfNeeded: Int(bitPattern: pthread_getspecific(interruptKey))) - 1
    }

    /// Runs `body` with every `wait` on this thread also ending once `descriptor` is readable (a
    /// signal's self-pipe), so that a connect, a TLS handshake or an upgrade on a dead link does not
    /// hold up Ctrl-C; the caller tells the interruption from a timeout by its own state.
    @_spi(Engine) public static func interruptible<T, E: Error>(by descriptor: Int32, _ body: () throws(E) -> T) throws(E) -> T {
        let previous = pthread_getspecific(interruptKey)
        pthread_setspecific(interruptKey, UnsafeRawPointer(bitPattern: Int(descriptor) + 1))
        defer { pthread_setspecific(interruptKey, previous) }
        return try body()
    }

    /// Waits until `fd` reports one of `events` (or an error/hang-up); `false` when `deadline` passes
    /// first (or the `interruptible` descriptor becomes readable).
    @_spi(Engine) public static func wait(fd: Int32, events: Int16, deadline: Deadline) throws(TransportError) -> Bool {
        while true {
            let interruptDescriptor = Self.interruptDescriptor
            var entries = (pollfd(fd: fd, events: events, revents: 0),
                           pollfd(fd: interruptDescriptor, events: Int16(POLLIN), revents: 0))
            let count: nfds_t = interruptDescriptor >= 0 ? 2 : 1
            // A homogeneous tuple is laid out as a C array of its elements.
            let result = withUnsafeMutableBytes(of: &entries) {
                Glibc.poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), count, deadline.pollTimeout)
            }
            if result > 0 { return entries.0.revents != 0 }
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
    @_spi(Engine) public static func waitAny(_ fds: [Int32], events: Int16, deadline: Deadline) throws(TransportError) -> [Int32] {
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

    @_spi(Engine) public static let readable = Int16(POLLIN)
    @_spi(Engine) public static let writable = Int16(POLLOUT)

    /// Which of the three descriptors of `readable(_:_:_:until:)` poll(2) reported.
    @_spi(Engine) public struct Readiness: Sendable {
        @_spi(Engine) public let first: Bool
        @_spi(Engine) public let second: Bool
        @_spi(Engine) public let third: Bool

        init(first: Bool, second: Bool, third: Bool) {
            self.first = first
            self.second = second
            self.third = third
        }
    }

    /// One poll(2) for reading on three descriptors (a negative one is left out) until `deadline`,
    /// readiness including errors and hang-ups. Not retried: an interrupted wait (EINTR) returns
    /// nothing ready, so that the caller looks at its signals first. No allocation: a command's loop
    /// runs it before every wait. Not inlined: it is a system call anyway, and inlined it made the
    /// loop's per-frame path longer.
    @_spi(Engine) public static func readable(_ first: Int32, _ second: Int32, _ third: Int32, until deadline: Deadline) throws(SystemError) -> Readiness {
        var entries = (pollfd(fd: first, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: second, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: third, events: Int16(POLLIN), revents: 0))
        let timeout = deadline.pollTimeout
        // A homogeneous tuple is laid out as a C array of its elements.
        let result = withUnsafeMutableBytes(of: &entries) { Glibc.poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), 3, timeout) }
        if result < 0 {
            let error = SystemError.last
            if error.isInterrupted { return Readiness(first: false, second: false, third: false) }
            throw error
        }
        return Readiness(first: entries.0.revents != 0, second: entries.1.revents != 0, third: entries.2.revents != 0)
    }

    /// Waits, until `deadline`, until `output` may take bytes or `input` has bytes (or an error or
    /// hang-up on either): a writer blocked by a slow reader that must keep reading a socket meanwhile.
    /// `alert` (a signal pipe) is watched too, so that an interrupt is acted on while the output is
    /// stuck. A negative descriptor is not watched. EINTR and the deadline return with none; another
    /// error returns nil.
    @_spi(Engine) public static func writableOrReadable(output: Int32, input: Int32, alert: Int32 = -1, until deadline: Deadline = .never)
        -> (writable: Bool, readable: Bool, alerted: Bool)? {
        var entries = (pollfd(fd: output, events: Int16(POLLOUT), revents: 0),
                       pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: alert, events: Int16(POLLIN), revents: 0))
        let result = withUnsafeMutableBytes(of: &entries) { Glibc.poll($0.baseAddress!.assumingMemoryBound(to: pollfd.self), 3, deadline.pollTimeout) }
        if result < 0 { return errno == EINTR ? (false, false, false) : nil }
        return (entries.0.revents != 0, entries.1.revents != 0, entries.2.revents != 0)
    }

    /// Waits, without a time limit, until `descriptor` may take bytes (or failed: the next write says how).
    @_spi(Engine) public static func waitUntilWritable(_ descriptor: Int32) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = Glibc.poll(&entry, 1, -1)
    }
}
