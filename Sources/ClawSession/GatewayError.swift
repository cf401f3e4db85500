@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
/// Every way a gateway command can fail, grouped as the CLI's exit statuses are. Cases carry
/// reasons, not sentences: the caller words them (the CLI: `FailureMessages`). Text carried in a
/// case describes what happened and never contains a secret.
@_spi(Engine) public enum GatewayError: Error, Sendable {
    /// The WebSocket upgrade failed, or a connection around the session (an SSH tunnel) could not be made (exit 3).
    case cannotConnect(String)
    /// No TCP or TLS connection to `url` (exit 3): `reason` is the transport's (the name did not resolve,
    /// the connect was refused with its errno, TLS failed), `origin` where the URL came from.
    case connectFailed(url: String, origin: URLOrigin?, reason: TransportError)
    /// The upgrade was answered with another HTTP status (exit 3, retryable): a 30x, 401 or 403 is an
    /// identity-aware proxy in front of the gateway; `sentEdgeAuth` when edge-auth headers went with it.
    case upgradeRejected(httpStatus: Int, statusLine: String, sentEdgeAuth: Bool)
    /// The gateway's TLS certificate was not trusted (exit 3); `nameMismatch` when it is for another host.
    case certificateRejected(host: String, detail: String, nameMismatch: Bool)
    /// An established connection ended (exit 3).
    case connectionLost(String, closeCode: UInt16?)
    /// Authentication or pairing failed; retrying will not help until someone acts (exit 4).
    case authenticationFailed(AuthFailure, ErrorShape?)
    /// A deadline passed (exit 5); the text says what was being waited for.
    case timedOut(String)
    /// The connect limit passed during the socket, TLS or protocol handshake (exit 5); `origin` is
    /// where the URL came from (named when nothing answered, `waitingFor` nil).
    case handshakeTimedOut(url: String, waitingFor: String?, limitSeconds: Double, origin: URLOrigin? = nil)
    /// One handshake step (the upgrade's answer, or `connect.challenge` after it) took longer than
    /// `SessionOptions.handshakeTimeout` (exit 5); `waitingFor` is nil for the upgrade.
    case handshakeStepTimedOut(url: String, waitingFor: String?, limitMilliseconds: Int)
    /// The gateway broke the protocol or speaks an unsupported version (exit 6).
    case protocolError(String)
    /// The gateway is starting or asked us to come back later (exit 3, retryable).
    case unavailable(String, retryAfterMs: Int64?)
    /// A request the gateway would refuse before reading it, e.g. larger than `policy.maxPayload` (exit 2).
    case invalidRequest(String)
    /// The gateway itself refused the upgrade for now (HTTP 503 with its own words): past its cap of
    /// unauthenticated sockets per client address, or not ready for WebSockets yet (exit 3, retryable).
    case admissionRefused(AdmissionRefusal)

    /// Whether a reconnecting client (`watch`) should try again. An operator the access policy grants
    /// nothing yet is worth asking again later (access granted meanwhile applies without anyone acting
    /// on this side), though a one-shot command reports it as someone having to act.
    @_spi(Engine) public var isRetryable: Bool {
        switch self {
        // A proxy that refused the tunnel or the credentials waits for someone, as a gateway's refusal does.
        case .connectFailed(_, _, .proxy(let failure)): return failure.isTransient
        case .cannotConnect, .connectFailed, .upgradeRejected, .connectionLost, .timedOut, .handshakeTimedOut, .handshakeStepTimedOut, .unavailable,
             .admissionRefused: return true
        case .authenticationFailed(.accessDenied, _): return true
        case .certificateRejected, .authenticationFailed, .protocolError, .invalidRequest: return false
        }
    }

    /// The gateway wants this device paired first (`--wait-for-pairing` waits for the approval).
    @_spi(Engine) public var isPairingRequired: Bool {
        if case .authenticationFailed(.pairingRequired, _) = self { return true }
        return false
    }

    /// The TCP connect was refused: nothing listens at the address (yet). The socket's errno, kept
    /// from the connect to here.
    @_spi(Engine) public var isConnectionRefused: Bool {
        guard case .connectFailed(_, _, .connect(_, _, let error)) = self else { return false }
        return error.isConnectionRefused
    }
}

/// Why the gateway refused to let us in, as its error codes say (docs/protocol.md §3.5).
@_spi(Engine) public enum AuthFailure: Sendable, Equatable {
    /// This client's own device identity cannot be read or made (nothing was sent).
    case identityUnusable(IdentityError)
    case deviceIdentityRequired
    case pairingRequired(requestId: String?, reason: String?)
    /// `urlSource` is where the URL came from: with the url option no other credentials were looked up.
    case tokenMissing(urlSource: SettingSource?)
    /// `source` is where the refused token came from; nil when it was the stored device token.
    case tokenMismatch(source: SettingSource?)
    case deviceTokenMismatch
    case passwordMissing(urlSource: SettingSource?)
    case passwordMismatch(source: SettingSource?)
    case rateLimited(retryAfterMs: Int64?)
    case scopeMismatch
    /// Authenticated, but the gateway's access policy grants this operator nothing (yet)
    /// (`OPERATOR_ACCESS_DENIED`): not a credential problem, stored tokens stay; with the gateway's message.
    case accessDenied(message: String)
    /// The gateway keeps this connect open until an administrator decides on the pairing request
    /// (`device-pairing-wait`, asked for with `SessionOptions.waitsForPairing`): wait on it.
    case pairingPending(PendingPairing)
    /// Any other refusal, with the gateway's message.
    case refused(message: String)
    /// Our own device key could not sign the proof.
    case cannotSign(String)
}

extension GatewayError {
    /// How long a starting, suspended or restarting gateway asked us to wait before trying again
    /// (nil for an `UNAVAILABLE` that is not worth waiting out).
    @_spi(Engine) public var retryAfterSeconds: Double? {
        guard case .unavailable(_, let retryAfterMs?) = self else { return nil }
        return Double(max(retryAfterMs, 0)) / 1000
    }
}

/// Why the gateway itself answered an upgrade with HTTP 503 (its words in the response's body).
@_spi(Engine) public enum AdmissionRefusal: Sendable, Equatable {
    /// "Too many unauthenticated sockets": this address has as many connections between upgrade and
    /// hello-ok as the gateway allows (128 by default); one of them will be done soon.
    case tooManyUnauthenticatedSockets
    /// "… websocket handlers unavailable" or "… websocket admission closed": starting or restarting.
    case notReady(String)

    /// What the gateway said, for messages.
    @_spi(Engine) public var words: String {
        switch self {
        case .tooManyUnauthenticatedSockets: return "Too many unauthenticated sockets"
        case .notReady(let words): return words
        }
    }
}

extension GatewayError {
    /// The gateway's own 503 answers to an upgrade (its body names the cause); nil for any other answer,
    /// a proxy's 503 among them.
    @_spi(Engine) public static func admissionRefusal(httpStatus: Int, body: String) -> GatewayError? {
        guard httpStatus == 503 else { return nil }
        let words = body.trimmingPrefixAndSuffixWhitespace
        if words == AdmissionRefusal.tooManyUnauthenticatedSockets.words { return .admissionRefused(.tooManyUnauthenticatedSockets) }
        if words.hasSuffix("websocket handlers unavailable") || words.hasSuffix("websocket admission closed") {
            return .admissionRefused(.notReady(words))
        }
        return nil
    }
}

private extension String {
    var trimmingPrefixAndSuffixWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
