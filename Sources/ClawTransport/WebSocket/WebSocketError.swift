@_spi(Engine) import ClawSystem
/// Why a WebSocket operation failed; `description` is one line for people.
@_spi(Engine) public enum WebSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server did not answer the upgrade with a valid 101; carries its status line (or why not).
    case handshakeFailed(String)
    /// The server answered the upgrade with another HTTP status (a proxy's 302 or 403, a 404…);
    /// `body`: the start of the response's body when it came with the head (printable, ≤ 200 bytes).
    case upgradeRejected(httpStatus: Int, statusLine: String, body: String = "")
    /// The peer broke RFC 6455; `code` is the close code we sent (1002, 1007, 1009).
    case protocolViolation(code: UInt16, reason: String)
    /// The peer closed the connection with a close frame (code nil when the frame had none).
    case closed(code: UInt16?, reason: String)
    case transport(TransportError)

    @_spi(Engine) public var description: String {
        switch self {
        case .handshakeFailed(let what):
            return "WebSocket handshake failed: \(what)"
        case .upgradeRejected(_, let statusLine, _):
            return "WebSocket upgrade rejected: \(statusLine)"
        case .protocolViolation(let code, let reason):
            return "WebSocket protocol error (closed with \(code)): \(reason)"
        case .closed(let code, let reason):
            guard let code else { return "connection closed by the peer" }
            return reason.isEmpty ? "connection closed by the peer (\(code))" : "connection closed by the peer (\(code)): \(reason)"
        case .transport(let error):
            return error.description
        }
    }
}
