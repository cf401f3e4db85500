import Glibc

/// Reads a child's output pipe on a thread of its own for as long as the pipe is open, keeping only
/// its last `limit` bytes: a chatty child (ssh with `LogLevel DEBUG3`) never fills the pipe and
/// blocks, whatever the thread that owns the child is busy with. `read()` also takes what is waiting
/// in the pipe at that moment, so a line the child wrote just before an event the caller saw is there.
@_spi(Engine) public final class PipeDrain: @unchecked Sendable {
    private let lock = TransportLock()
    /// The pipe's read end (non-blocking); -1 once the thread has closed it.
    private var descriptor: Int32
    /// Written to wake the thread for `stop()`.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let limit: Int
    private var kept: [UInt8] = []
    private var total = 0
    /// The pipe reached its end (or failed); only the thread closes it, so no poll sees a reused number.
    private var ended = false
    private var thread: JoinableThread?

    /// Takes ownership of `descriptor` (a non-blocking read end) and starts reading it.
    @_spi(Engine) public init(descriptor: Int32, limit: Int) throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            let error = SystemError.last
            _ = close(descriptor)
            throw error
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        self.descriptor = descriptor
        wakeRead = fds[0]
        wakeWrite = fds[1]
        self.limit = max(1, limit)
        // The thread holds the drain while it runs; deinit (as the initializer throws) closes the descriptors.
        thread = try JoinableThread(name: "claw-pipe") { [self] in run() }
    }

    deinit {
        // The thread holds a reference while it runs, so by now it has ended (or was never started).
        if descriptor >= 0 { _ = close(descriptor) }
        _ = close(wakeRead)
        _ = close(wakeWrite)
    }

    /// The last bytes read (at most `limit`), after taking what is waiting in the pipe now, and how
    /// many were read in all: `kept` starts at offset `total - kept.count` of the whole output.
    @_spi(Engine) public func read() -> (kept: [UInt8], total: Int) {
        lock.withLock {
            readAvailable()
            return (kept, total)
        }
    }

    /// Whether the pipe has ended (every writer closed it).
    @_spi(Engine) public var hasEnded: Bool { lock.withLock { ended } }

    /// Takes what is waiting in the pipe, ends the thread and closes the pipe. Safe to repeat.
    @_spi(Engine) public func stop() {
        let thread: JoinableThread? = lock.withLock {
            defer { self.thread = nil }
            if self.thread != nil {
                var byte: UInt8 = 1
                _ = write(wakeWrite, &byte, 1)
            }
            return self.thread
        }
        thread?.join()
    }

    private func run() {
        while true {
            let (fd, done) = lock.withLock { (descriptor, ended) }
            if done { break }
            var entries = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = entries.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, 2, -1) }
            if ready < 0 && errno != EINTR { break }
            let stopping = entries[1].revents != 0
            lock.withLock { readAvailable() }
            if stopping { break }
        }
        lock.withLock {
            ended = true
            if descriptor >= 0 { _ = close(descriptor); descriptor = -1 }
        }
    }

    /// Reads until the pipe would block or ends; keeps the last `limit` bytes. Called with the lock held.
    private func readAvailable() {
        guard !ended else { return }
        defer { if kept.count > limit { kept.removeFirst(kept.count - limit) } }
        while true {
            var chunk: [UInt8] = []
            let result: Subprocess.ReadResult
            do { result = try Subprocess.readAvailable(descriptor, into: &chunk) } catch {
                ended = true
                return
            }
            switch result {
            case .read(let count):
                total += count
                kept += chunk
                // Trimmed in batches, so a steady stream costs amortised constant time per byte.
                if kept.count > 2 * limit { kept.removeFirst(kept.count - limit) }
            case .endOfStream:
                ended = true
                return
            case .wouldBlock:
                return
            }
        }
    }
}
