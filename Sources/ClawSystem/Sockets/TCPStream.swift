import Glibc

/// A connected, non-blocking TCP socket with `TCP_NODELAY`; every wait is a `poll(2)` bounded by a deadline.
@_spi(Engine) public final class TCPStream: ByteStream, @unchecked Sendable {
    @_spi(Engine) public let fileDescriptor: Int32
    @_spi(Engine) public let handle: SocketHandle

    /// Resolves `host` (IPv4 or IPv6, `getaddrinfo`) and connects to the first address that answers.
    /// A failure keeps the last address's errno (`TransportError.connect`), so callers tell a refusal
    /// from an unreachable network by its number, not by the C library's words.
    @_spi(Engine) public static func connect(host: String, port: Int, deadline: Deadline) throws(TransportError) -> TCPStream {
        let addresses = try SocketAddress.resolve(host: host, port: port, passive: false)
        var lastError: SystemError? = nil
        for (family, address) in addresses {
            if deadline.hasPassed { break }
            let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastError = .last; continue }
            let outcome: SystemError??
            do { outcome = try attemptConnect(fd: fd, address: address, deadline: deadline) } catch {
                Glibc.close(fd)
                throw error
            }
            switch outcome {
            case nil:
                return TCPStream(connectedDescriptor: fd)
            case .some(let failure):
                Glibc.close(fd)
                guard let failure else { throw .timedOut("connecting to \(host):\(port)") }
                lastError = failure
            }
        }
        guard let lastError, !deadline.hasPassed else { throw .timedOut("connecting to \(host):\(port)") }
        throw .connect(host: host, port: port, error: lastError)
    }

    /// `nil` on success; `.some(nil)` when the deadline passed; `.some(error)` when the connect failed.
    private static func attemptConnect(fd: Int32, address: [UInt8], deadline: Deadline) throws(TransportError) -> SystemError?? {
        let status = address.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if status == 0 { return .none }
        var code = errno
        if code != EINPROGRESS && code != EINTR { return .some(SystemError(code: code)) }
        guard try Poll.wait(fd: fd, events: Poll.writable, deadline: deadline) else { return .some(nil) }
        var length = socklen_t(MemoryLayout<Int32>.size)
        code = 0
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) != 0 { code = errno }
        return code == 0 ? .none : .some(SystemError(code: code))
    }

    private let afterClose: (@Sendable () -> Void)?

    private init(connectedDescriptor fd: Int32) {
        fileDescriptor = fd
        handle = SocketHandle(fd: fd)
        afterClose = nil
        SocketAddress.setNoDelay(fd)
    }

    /// Wraps a socket returned by `accept(2)` (or one end of a socket pair); makes it non-blocking and
    /// sets `TCP_NODELAY`. `afterClose` runs after each `close()`: what serves the other end ends with it.
    @_spi(Engine) public init(acceptedDescriptor: Int32, afterClose: (@Sendable () -> Void)? = nil) {
        fileDescriptor = acceptedDescriptor
        handle = SocketHandle(fd: acceptedDescriptor)
        self.afterClose = afterClose
        SocketAddress.setNonBlocking(acceptedDescriptor)
        SocketAddress.setNoDelay(acceptedDescriptor)
    }

    /// The peer's numeric address and port (e.g. `127.0.0.1`, `::1`), for logs and loopback checks.
    @_spi(Engine) public var remoteAddress: (host: String, port: Int)? { SocketAddress.of(fd: fileDescriptor, peer: true) }

    /// True when the peer is on this machine (127.0.0.0/8, ::1 or IPv4-mapped loopback).
    @_spi(Engine) public var isLoopbackPeer: Bool {
        guard let host = remoteAddress?.host else { return false }
        return host == "::1" || host.hasPrefix("127.") || host.hasPrefix("::ffff:127.")
    }

    @_spi(Engine) public var hasBufferedInput: Bool { false }

    @_spi(Engine) public func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(TransportError) -> Int {
        guard handle.acquire() else { throw .closed("the stream was closed") }
        defer { handle.release() }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = recv(fileDescriptor, base, buffer.count, 0)
            if n > 0 { return n }
            if n == 0 {
                // A local close() from another thread shows up here as end of stream.
                if handle.isClosed { throw .closed("the stream was closed") }
                return 0
            }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                guard try Poll.wait(fd: fileDescriptor, events: Poll.readable, deadline: deadline) else {
                    throw .timedOut("waiting for data")
                }
            case ECONNRESET, EPIPE, ENOTCONN, ESHUTDOWN: throw .closed(systemErrorText(code))
            default: throw .io("read failed: \(systemErrorText(code))")
            }
        }
    }

    @_spi(Engine) public func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError) {
        guard handle.acquire() else { throw .closed("the stream was closed") }
        defer { handle.release() }
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = send(fileDescriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n >= 0 { offset += n; continue }
            let code = errno
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                guard try Poll.wait(fd: fileDescriptor, events: Poll.writable, deadline: deadline) else {
                    throw .timedOut("waiting to send data")
                }
            case ECONNRESET, EPIPE, ENOTCONN, ESHUTDOWN: throw .closed(systemErrorText(code))
            default: throw .io("write failed: \(systemErrorText(code))")
            }
        }
    }

    @_spi(Engine) public func close() {
        handle.close()
        afterClose?()
    }
}
