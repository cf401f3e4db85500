import Glibc

/// A listening TCP socket (the simulator and the integration tests accept connections on it).
@_spi(Engine) public final class TCPListener: @unchecked Sendable {
    @_spi(Engine) public let fileDescriptor: Int32
    /// The bound port (useful after binding port 0).
    @_spi(Engine) public let port: Int
    private let handle: SocketHandle

    /// Binds and listens on `host` (e.g. `127.0.0.1`, `::1`, `0.0.0.0`) and `port` (0 = any free port).
    @_spi(Engine) public init(host: String, port: Int, backlog: Int32 = 128) throws(TransportError) {
        let addresses = try SocketAddress.resolve(host: host, port: port, passive: true)
        var lastReason = "no usable address"
        for (family, address) in addresses {
            let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastReason = systemErrorText(errno); continue }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            let bound = address.withUnsafeBytes { raw in
                bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            guard bound == 0, listen(fd, backlog) == 0 else {
                lastReason = systemErrorText(errno)
                Glibc.close(fd)
                continue
            }
            guard let local = SocketAddress.of(fd: fd, peer: false) else {
                lastReason = "cannot read the bound address"
                Glibc.close(fd)
                continue
            }
            fileDescriptor = fd
            self.port = local.port
            handle = SocketHandle(fd: fd)
            return
        }
        throw .io("cannot listen on \(host):\(port): \(lastReason)")
    }

    /// Waits for the next connection until `deadline`; `nil` when it passes.
    @_spi(Engine) public func accept(deadline: Deadline) throws(TransportError) -> TCPStream? {
        guard handle.acquire() else { throw .closed("the listener was closed") }
        defer { handle.release() }
        while true {
            let fd = Glibc.accept(fileDescriptor, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                return TCPStream(acceptedDescriptor: fd)
            }
            let code = errno
            switch code {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK:
                guard try Poll.wait(fd: fileDescriptor, events: Poll.readable, deadline: deadline) else { return nil }
                if handle.isClosed { throw .closed("the listener was closed") }
            case EINVAL, EBADF: throw .closed("the listener was closed")
            default: throw .io("accept failed: \(systemErrorText(code))")
            }
        }
    }

    /// Stops listening; an `accept` waiting in another thread wakes up and throws `closed`.
    @_spi(Engine) public func close() { handle.close() }
}
