import Glibc

/// Owns a socket descriptor shared by a reader and a writer thread. `close` shuts the socket down at once
/// (waking any poll) but releases the number only when no operation still uses it, so it is never reused under one.
@_spi(Engine) public final class SocketHandle: @unchecked Sendable {
    let fd: Int32
    private let lock = TransportLock()
    private var users = 0
    private var closing = false
    private var released = false

    init(fd: Int32) { self.fd = fd }

    deinit { if !released { Glibc.close(fd) } }

    /// Marks the start of an operation; `false` once the socket is closed.
    @_spi(Engine) public func acquire() -> Bool {
        lock.withLock {
            if closing { return false }
            users += 1
            return true
        }
    }

    @_spi(Engine) public func release() {
        lock.withLock {
            users -= 1
            if closing && users == 0 && !released {
                released = true
                Glibc.close(fd)
            }
        }
    }

    var isClosed: Bool { lock.withLock { closing } }

    func close() {
        lock.withLock {
            if closing { return }
            closing = true
            Glibc.shutdown(fd, Int32(SHUT_RDWR))
            if users == 0 {
                released = true
                Glibc.close(fd)
            }
        }
    }
}
