import ClawSystem
import ClawProtocol
import ClawSession

/// Why a connection, a request or a run failed. `description` is one sentence for a log; the cases
/// carry what a program needs to decide (retry, re-authenticate, give up). No case holds a secret.
public enum GatewayClientError: Error, Sendable, CustomStringConvertible {
    /// The connection could not be made or was lost; `reason` is the session layer's typed reason.
    case connection(GatewayError)
    /// The gateway answered a request with an error.
    case requestFailed(method: String, error: GatewayErrorInfo)
    /// A run ended aborted or with an error instead of a final reply.
    case runFailed(runId: String, state: String, reason: String?)
    /// No answer within the request timeout.
    case timedOut(String)
    /// The connection was closed by this side before the answer came.
    case closed
    /// The configuration cannot work (a URL that is not ws:// or wss://, a bad pin, a config file error).
    case invalidConfiguration(String)

    /// Whether trying again later may succeed without anyone changing anything.
    public var isRetryable: Bool {
        switch self {
        case .connection(let error): return error.isRetryable
        case .requestFailed(_, let info): return info.isRetryable || info.retryAfterMs != nil
        case .timedOut: return true
        case .runFailed, .closed, .invalidConfiguration: return false
        }
    }

    public var description: String {
        switch self {
        case .connection(let error): return error.description
        case .requestFailed(let method, let info): return "\(method) failed: \(info.code): \(info.message)"
        case .runFailed(let runId, let state, let reason):
            return "run \(runId) ended \(state)" + (reason.map { ": \($0)" } ?? "")
        case .timedOut(let what): return "timed out \(what)"
        case .closed: return "the connection was closed"
        case .invalidConfiguration(let text): return "invalid configuration: \(text)"
        }
    }
}

/// An error the gateway sent in answer to a request (`res` with `ok: false`).
public struct GatewayErrorInfo: Sendable, Equatable {
    /// The gateway's code: `INVALID_REQUEST`, `UNAVAILABLE`, `NOT_FOUND`, …
    public var code: String
    public var message: String
    public var details: JSONValue?
    /// The gateway says the same request may succeed later.
    public var isRetryable: Bool
    /// How long the gateway asked to wait before sending it again.
    public var retryAfterMs: Int64?

    init(_ shape: ErrorShape) {
        code = shape.code
        message = shape.message
        details = shape.details
        isRetryable = shape.retryable ?? false
        retryAfterMs = shape.waitBeforeRetryMs
    }
}

extension GatewayError: CustomStringConvertible {
    /// One sentence, without the CLI's flag hints (the CLI words its own on top).
    public var description: String {
        switch self {
        case .cannotConnect(let text), .connectionLost(let text, _), .timedOut(let text), .protocolError(let text),
             .unavailable(let text, _), .invalidRequest(let text):
            return text
        case .connectFailed(let url, _, let reason):
            return "cannot connect to \(url): \(reason)"
        case .upgradeRejected(let status, let line, _):
            return "the WebSocket upgrade was answered with HTTP \(status): \(line)"
        case .certificateRejected(let host, let detail, _):
            return "TLS: certificate verify failed for \(host): \(detail)"
        case .handshakeTimedOut(let url, let waitingFor, let limit, _):
            return "timed out \(waitingFor.map { "waiting for \($0) from" } ?? "connecting to") \(url) after \(formatSeconds(limit))"
        case .handshakeStepTimedOut(let url, let waitingFor, let limit):
            return "timed out \(waitingFor.map { "waiting for \($0) from" } ?? "waiting for the WebSocket upgrade from") \(url) after \(limit) ms"
        case .authenticationFailed(let reason, let shape):
            return "authentication failed: \(reason)" + (shape.map { " (\($0.code): \($0.message))" } ?? "")
        }
    }
}

extension AuthFailure: CustomStringConvertible {
    public var description: String {
        switch self {
        case .identityUnusable(let error): return "the device identity cannot be used: \(error)"
        case .deviceIdentityRequired: return "the gateway requires a device identity"
        case .pairingRequired(let requestId, _): return "pairing required" + (requestId.map { " (request \($0))" } ?? "")
        case .pairingPending(let pending): return "pairing pending" + (pending.requestId.map { " (request \($0))" } ?? "")
        case .tokenMissing: return "the gateway requires a token"
        case .tokenMismatch: return "the token was refused"
        case .deviceTokenMismatch: return "the stored device token was refused"
        case .passwordMissing: return "the gateway requires a password"
        case .passwordMismatch: return "the password was refused"
        case .rateLimited(let ms): return "too many attempts" + (ms.map { ", retry after \($0) ms" } ?? "")
        case .scopeMismatch: return "the requested scopes are not granted"
        case .accessDenied(let message): return "access denied: \(message)"
        case .refused(let message): return message
        case .cannotSign(let text): return "cannot sign the device proof: \(text)"
        }
    }
}
