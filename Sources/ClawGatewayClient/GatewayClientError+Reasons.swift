@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

// The engine's typed reasons turned into the library's error: one place, so every path (init(url:),
// official(), the SSH route, a reconnect) gives the same code and the same retry rule.

extension GatewayClientError {
    /// A connection that could not be made or was lost.
    init(_ error: GatewayError) {
        self.init(describing: error)
        engineReason = error
    }

    private init(describing error: GatewayError) {
        switch error {
        case .cannotConnect(let text):
            self.init(.connectionFailed, text)
        case .connectFailed(let url, _, let reason):
            self.init(reason, url: url)
        case .upgradeRejected(let status, let line, _):
            self.init(.upgradeRejected, "the WebSocket upgrade was answered with HTTP \(status): \(line)")
            httpStatus = status
        case .certificateRejected(let host, let detail, let nameMismatch):
            self.init(.certificateRejected, "the certificate of \(host) was refused: \(detail)")
            certificateProblem = nameMismatch ? .nameMismatch : CertificateProblem(openSSLReason: detail)
        case .connectionLost(let text, let code):
            self.init(.connectionLost, text)
            closeCode = code
        case .authenticationFailed(let failure, let shape):
            self.init(failure, shape: shape)
        case .timedOut(let text):
            self.init(.timedOut, text)
        case .handshakeTimedOut(let url, let waitingFor, let limit, _):
            self.init(.timedOut, "timed out \(waitingFor.map { "waiting for \($0) from" } ?? "connecting to") \(url) after \(formatSeconds(limit)) s")
        case .handshakeStepTimedOut(let url, let waitingFor, let limit):
            self.init(.timedOut, "timed out \(waitingFor.map { "waiting for \($0) from" } ?? "waiting for the WebSocket upgrade from") \(url) after \(limit) ms")
        case .protocolError(let text):
            self.init(.protocolError, text)
        case .unavailable(let text, let retryAfterMs):
            self.init(.gatewayRestarting, text, retryAfter: retryAfterMs.map { .milliseconds(max(0, $0)) })
        case .invalidRequest(let text):
            self.init(.invalidRequest, text)
        case .admissionRefused(let refusal):
            self.init(.upgradeRejected, "the gateway answered the WebSocket upgrade with HTTP 503: \(refusal.words)")
            httpStatus = 503
        }
    }

    /// A connect that failed below the WebSocket: said once, "cannot connect to URL: why".
    private init(_ reason: TransportError, url: String) {
        switch reason {
        case .resolve(let host, let why):
            self.init(.hostUnresolvable, "cannot resolve \(host) (for \(url)): \(why)")
        case .connect(_, _, let error):
            self.init(error.isConnectionRefused ? .connectionRefused : .connectionFailed, "cannot connect to \(url): \(error)")
        case .timedOut(let what):
            self.init(.timedOut, "cannot connect to \(url): timed out \(what)")
        case .closed(let what):
            self.init(.connectionLost, "cannot connect to \(url): the connection closed: \(what)")
        case .tls(let what) where what.hasPrefix("certificate fingerprint mismatch"):
            self.init(.certificateRejected, "cannot connect to \(url): \(what)")
            certificateProblem = .pinMismatch
        case .tls(let what):
            self.init(.tlsFailed, "cannot connect to \(url): TLS: \(what)")
        case .certificateRejected(let host, let detail, let nameMismatch):
            self.init(.certificateRejected, "the certificate of \(host) was refused: \(detail)")
            certificateProblem = nameMismatch ? .nameMismatch : CertificateProblem(openSSLReason: detail)
        case .io(let what):
            self.init(.connectionFailed, "cannot connect to \(url): \(what)")
        case .proxy(let failure):
            self.init(.proxyFailed, "cannot connect to \(url): \(failure)", retryable: failure.isTransient)
            httpStatus = failure.httpStatus
        }
    }

    /// The gateway refused the connect.
    private init(_ failure: AuthFailure, shape: ErrorShape?) {
        let problem: AuthenticationProblem
        let text: String
        var requestId: String? = nil
        switch failure {
        case .rateLimited(let ms):
            self.init(.rateLimited, "too many attempts" + (ms.map { "; retry after \($0) ms" } ?? ""),
                      retryAfter: ms.map { .milliseconds(max(0, $0)) })
            gatewayError = shape.map(GatewayErrorInfo.init)
            return
        case .identityUnusable(let error): (problem, text) = (.deviceIdentityUnusable, "the device identity cannot be used: \(error)")
        case .deviceIdentityRequired: (problem, text) = (.deviceIdentityRequired, "the gateway requires a device identity")
        case .pairingRequired(let id, _):
            (problem, text) = (.pairingRequired, "this device must be paired first" + (id.map { " (request \($0))" } ?? ""))
            requestId = id
        case .pairingPending(let pending):
            (problem, text) = (.pairingRequired, "pairing is pending" + (pending.requestId.map { " (request \($0))" } ?? ""))
            requestId = pending.requestId
        case .tokenMissing: (problem, text) = (.tokenMissing, "the gateway requires a token")
        case .tokenMismatch: (problem, text) = (.tokenRefused, "the token was refused")
        case .deviceTokenMismatch: (problem, text) = (.deviceTokenRefused, "the stored device token was refused")
        case .passwordMissing: (problem, text) = (.passwordMissing, "the gateway requires a password")
        case .passwordMismatch: (problem, text) = (.passwordRefused, "the password was refused")
        case .scopeMismatch: (problem, text) = (.scopeNotGranted, "the requested scopes are not granted")
        case .accessDenied(let message): (problem, text) = (.accessDenied, "access denied: \(message)")
        case .refused(let message): (problem, text) = (.other, message)
        case .cannotSign(let detail): (problem, text) = (.deviceIdentityUnusable, "cannot sign the device proof: \(detail)")
        }
        self.init(.authenticationFailed, "authentication failed: \(text)")
        authenticationProblem = problem
        pairingRequestId = requestId
        gatewayError = shape.map(GatewayErrorInfo.init)
    }

    /// An SSH tunnel that could not be opened: a refused host key or login is an authentication
    /// failure, a missing ssh a configuration problem, the rest a tunnel failure that may pass.
    init(tunnel failure: SSHTunnelFailure, target: String) {
        let what: String
        switch failure {
        case .clientNotFound(let searched): what = "no ssh client in \(searched.joined(separator: ", "))"
        case .cannotStart(let executable, let error): what = "cannot start \(executable): \(error)"
        case .noLocalPort(let error): what = "no free local port on 127.0.0.1: \(error)"
        case .exited: what = "ssh ended before its forward was listening"
        case .notListening(let port, let limit, _): what = "the forward did not listen on 127.0.0.1:\(port) within \(formatSeconds(limit))"
        case .listenerNotOwned(let port, _): what = "another process listens on 127.0.0.1:\(port)"
        case .timedOut: what = "timed out"
        case .interrupted: what = "interrupted"
        }
        let said = failure.errorLines.last.map { "; ssh: \($0)" } ?? ""
        let text = "SSH tunnel to \(target): \(what)\(said)"
        switch failure.disposition {
        case .clientUnusable:
            self.init(configuration: .sshClient, text)
        case .refused:
            self.init(.authenticationFailed, text)
            authenticationProblem = .sshRefused
        case .timedOut:
            self.init(.timedOut, text)
            engineReason = .timedOut(text)
        case .interrupted, .transient:
            self.init(.tunnelFailed, text)
            engineReason = .cannotConnect(text)  // the reconnect schedule's kind of failure
        }
    }

    /// How the engine's driver stopped connecting; a pairing error names `deviceId`, the id an
    /// administrator sees among the pending requests.
    /// (Asked only then: the handshake has loaded the identity, so nothing is read or made for it.)
    /// `limit`: the connect's overall limit (`waits.limit`) when it has run out, which then names it: a
    /// connect cut short by it never reached its own `connectTimeout`.
    init(stop: ConnectStop, deviceId: @autoclosure () -> String?, limitRanOut limit: Duration? = nil) {
        if let limit, case .ended(.failed(.handshakeTimedOut(let url, let waitingFor, let own, _))) = stop {
            let what = waitingFor.map { "waiting for \($0) from" } ?? "connecting to"
            self.init(.timedOut, "timed out \(what) \(url): waits.limit (\(formatSeconds(limit.seconds)) s) ran out "
                + "before connectTimeout (\(formatSeconds(own)) s)")
            return
        }
        self.init(stop: stop)
        guard authenticationProblem == .pairingRequired, let deviceId = deviceId() else { return }
        // The pairing errors' fields (the auth paths above), with the device in the words too.
        var named = GatewayClientError(code, description + " (device \(deviceId))", retryAfter: retryAfter, retryable: isRetryable)
        named.authenticationProblem = authenticationProblem
        named.pairingRequestId = pairingRequestId
        named.gatewayError = gatewayError
        named.engineReason = engineReason
        named.deviceId = deviceId
        self = named
    }

    private init(stop: ConnectStop) {
        switch stop {
        case .ended(.failed(let error)), .ended(.gaveUp(let error, _)), .ended(.outOfTime(let error)):
            self.init(error)
        case .ended(.stillUnpaired(let requestId)):
            self.init(.authenticationFailed, "authentication failed: this device was still not approved when the wait ran out"
                + (requestId.map { " (request \($0))" } ?? ""))
            authenticationProblem = .pairingRequired
            pairingRequestId = requestId
        case .ended(.interrupted), .ended(.closed):
            self = .closedByThisSide
        case .tunnel(let failure, let route):
            self.init(tunnel: failure, target: "\(route.target)")
        case .pairingDecided(let decision, let requestId):
            let words: String
            switch decision {
            case .rejected: words = "was rejected"
            case .expired: words = "expired before anyone approved it"
            case .other(let word): words = "was resolved as \"\(word.prefix(40))\""
            case .superseded, .closed, .approved: words = "was superseded by a newer request of this device"
            }
            self.init(.authenticationFailed, "authentication failed: the pairing request" + (requestId.map { " \($0)" } ?? "") + " \(words)")
            authenticationProblem = .pairingRequired
            pairingRequestId = requestId
        }
    }

    init(configuration problem: ConfigurationProblem, _ text: String) {
        self.init(.invalidConfiguration, text)
        configurationProblem = problem
    }

    /// The gateway answered `method` with an error.
    static func requestFailed(_ method: String, _ shape: ErrorShape) -> GatewayClientError {
        let info = GatewayErrorInfo(shape)
        var error = GatewayClientError(.requestFailed, "\(method) failed: \(info.code): \(info.message)",
                                       retryAfter: info.retryAfterMs.map { .milliseconds(max(0, $0)) },
                                       retryable: info.isRetryable || info.retryAfterMs != nil)
        error.method = method
        error.gatewayError = info
        return error
    }

    static func noAnswer(to method: String) -> GatewayClientError {
        var error = GatewayClientError(.timedOut, "timed out waiting for the answer to \(method)")
        error.method = method
        return error
    }

    static func runFailed(_ runId: String, state: String, reason: String?) -> GatewayClientError {
        var error = GatewayClientError(.runFailed, "run \(runId) ended \(state)" + (reason.map { ": \($0)" } ?? ""))
        error.runId = runId
        error.runState = state
        return error
    }
}

extension GatewayErrorInfo {
    init(_ shape: ErrorShape) {
        code = shape.code
        message = shape.message
        details = shape.details.map(JSONValue.init)
        isRetryable = shape.retryable ?? false
        retryAfterMs = shape.waitBeforeRetryMs
    }
}

extension CertificateProblem {
    /// From the verify error OpenSSL names first in a refusal (its texts are stable across OpenSSL 3).
    init(openSSLReason detail: String) {
        let text = detail.lowercased()
        if text.hasPrefix("certificate has expired") { self = .expired }
        else if text.hasPrefix("certificate is not yet valid") { self = .notYetValid }
        else if text.hasPrefix("self-signed certificate in certificate chain") || text.hasPrefix("unable to get") { self = .untrustedIssuer }
        else if text.hasPrefix("self-signed certificate") || text.hasPrefix("self signed certificate") { self = .selfSigned }
        else if text.containsText("hostname mismatch") || text.containsText("does not match") { self = .nameMismatch }
        else { self = .other }
    }
}
