// STUB: the wire work (issue 2) fills these in. The signatures are the contract.

/// A connected, non-blocking TCP socket with `TCP_NODELAY`.
public final class TCPStream: ByteStream, @unchecked Sendable {
    public let fileDescriptor: Int32

    /// Resolves `host` (IPv4 or IPv6, `getaddrinfo`) and connects to the first address that answers.
    public static func connect(host: String, port: Int, deadline: Deadline) throws(TransportError) -> TCPStream {
        fatalError("not implemented")
    }

    /// Wraps a socket returned by `accept(2)`.
    public init(acceptedDescriptor: Int32) { fileDescriptor = acceptedDescriptor; fatalError("not implemented") }

    public var hasBufferedInput: Bool { false }
    public func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(TransportError) -> Int { fatalError() }
    public func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError) { fatalError() }
    public func close() { fatalError() }
}

/// A listening TCP socket.
public final class TCPListener: @unchecked Sendable {
    public let fileDescriptor: Int32
    /// The bound port (useful after binding port 0).
    public let port: Int

    /// Binds and listens on `host` (e.g. `127.0.0.1`, `::1`, `0.0.0.0`) and `port` (0 = any free port).
    public init(host: String, port: Int) throws(TransportError) { fatalError("not implemented") }

    /// Waits for the next connection until `deadline`; `nil` when it passes.
    public func accept(deadline: Deadline) throws(TransportError) -> TCPStream? { fatalError() }
    public func close() { fatalError() }
}
