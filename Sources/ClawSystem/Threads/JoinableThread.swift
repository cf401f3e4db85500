import Glibc

/// A thread of its own for one blocking loop (an async connection's I/O), so that no blocking call
/// ever holds a thread of Swift's cooperative pool. `join()` waits for the body to return.
@_spi(Engine) public final class JoinableThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let lock = TransportLock()
    private var joined = false

    /// Starts `body` on a new thread called `name` (at most 15 bytes, shown by `ps -L` and `top -H`).
    @_spi(Engine) public init(name: String, _ body: @escaping @Sendable () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(Body(body, name: name)).toOpaque()
        let result = pthread_create(&thread, nil, { context in
            let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
            nameCallingThread(body.name)
            body.run()
            return nil
        }, box)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            joined = true
            throw SystemError(code: result)
        }
    }

    deinit {
        if !joined { pthread_detach(thread) }
    }

    /// Waits until the body has returned. Safe to repeat; never call it from the thread itself.
    @_spi(Engine) public func join() {
        let first: Bool = lock.withLock {
            defer { joined = true }
            return !joined
        }
        if first { pthread_join(thread, nil) }
    }


    private final class Body {
        let run: @Sendable () -> Void
        let name: String
        init(_ run: @escaping @Sendable () -> Void, name: String) { self.run = run; self.name = name }
    }
}

/// Linux names a thread through procfs (glibc's pthread_setname_np is not visible to Swift).
private func nameCallingThread(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    _ = close(fd)
}

/// A descriptor that becomes readable when another thread calls `signal()`: wakes a thread waiting in
/// poll(2) on its socket (new work to send, a consumer that made room, a close). Level-triggered until
/// `drain()`.
@_spi(Engine) public final class WakeSignal: @unchecked Sendable {
    @_spi(Engine) public let descriptor: Int32
    private let writeEnd: Int32

    @_spi(Engine) public init() throws(SystemError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SystemError.last }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        descriptor = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        _ = close(descriptor)
        _ = close(writeEnd)
    }

    /// Makes `descriptor` readable (a full pipe already is).
    @_spi(Engine) public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes every pending wake-up.
    @_spi(Engine) public func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &buffer, { read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
