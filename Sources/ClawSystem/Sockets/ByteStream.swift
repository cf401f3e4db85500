/// Why a byte stream failed. Descriptions are one line, for people, and never carry secrets.
@_spi(Engine) public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Host name resolution failed.
    case resolve(host: String, reason: String)
    /// The TCP connection could not be made (refused, unreachable…); `error` is the socket's errno.
    case connect(host: String, port: Int, error: SystemError)
    /// The deadline passed; the string says what was being waited for.
    case timedOut(String)
    /// The peer closed the stream (EOF where more was needed, reset, EPIPE).
    case closed(String)
    /// TLS failed: handshake, hostname or fingerprint mismatch.
    case tls(String)
    /// The certificate chain did not verify; `nameMismatch` when it is valid but for another name.
    case certificateRejected(host: String, detail: String, nameMismatch: Bool)
    /// Any other system call failure.
    case io(String)
    /// A forward proxy between the client and the gateway failed (its own sentence).
    case proxy(ProxyFailure)

    @_spi(Engine) public var description: String {
        switch self {
        case .resolve(let host, let reason): return "cannot resolve \(host): \(reason)"
        case .connect(let host, let port, let error): return "cannot connect to \(host):\(port): \(error)"
        case .timedOut(let what): return "timed out \(what)"
        case .closed(let what): return "connection closed: \(what)"
        case .tls(let what): return "TLS: \(what)"
        case .certificateRejected(let host, let detail, _): return "TLS: certificate verify failed for \(host): \(detail)"
        case .io(let what): return what
        case .proxy(let failure): return failure.description
        }
    }
}

/// A bidirectional stream of bytes (TCP or TLS) with deadlines on every wait.
/// One reader thread and one writer thread may use a stream at the same time.
@_spi(Engine) public protocol ByteStream: AnyObject {
    /// The socket, for `poll(2)` in an event loop.
    var fileDescriptor: Int32 { get }
    /// Input already read from the socket and buffered (TLS records): poll would not report it.
    var hasBufferedInput: Bool { get }
    /// Reads at least one byte, waiting until `deadline`; returns 0 at end of stream.
    /// With `Deadline.now` it returns what is available without waiting (throwing `timedOut` if nothing is).
    func read(into buffer: UnsafeMutableRawBufferPointer, deadline: Deadline) throws(TransportError) -> Int
    /// Writes every byte, waiting for socket space until `deadline`.
    func write(_ bytes: UnsafeRawBufferPointer, deadline: Deadline) throws(TransportError)
    /// Shuts the stream down; later calls fail with `closed`. Safe to call twice.
    func close()
}
