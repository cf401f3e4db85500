/// Every way a gateway command can fail, grouped as the exit statuses of cli.md are.
/// Descriptions are one line for people and never contain a secret.
public enum GatewayError: Error, Sendable, CustomStringConvertible {
    /// The socket, TLS or WebSocket upgrade failed (exit 3).
    case cannotConnect(String)
    /// An established connection ended (exit 3).
    case connectionLost(String, closeCode: UInt16?)
    /// Authentication or pairing failed; retrying will not help until someone acts (exit 4).
    case authenticationFailed(String, ErrorShape?)
    /// A deadline passed (exit 5).
    case timedOut(String)
    /// The gateway broke the protocol or speaks an unsupported version (exit 6).
    case protocolError(String)
    /// The gateway is starting or asked us to come back later (exit 3, retryable).
    case unavailable(String, retryAfterMs: Int64?)
    /// A request the gateway would refuse before reading it, e.g. larger than `policy.maxPayload` (exit 2).
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .cannotConnect(let m), .authenticationFailed(let m, _), .timedOut(let m), .protocolError(let m),
             .invalidRequest(let m):
            return m
        case .connectionLost(let m, _), .unavailable(let m, _):
            return m
        }
    }

    /// Whether a reconnecting client (`watch`) should try again.
    public var isRetryable: Bool {
        switch self {
        case .cannotConnect, .connectionLost, .timedOut, .unavailable: return true
        case .authenticationFailed, .protocolError, .invalidRequest: return false
        }
    }
}
