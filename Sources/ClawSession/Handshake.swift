@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState

/// One attempt at the connect handshake (docs/protocol.md §3): socket and upgrade, wait for
/// `connect.challenge`, send a signed `connect`, read `hello-ok`.
struct Handshake {
    let options: SessionOptions
    /// Whether a device token from an earlier hello-ok may be sent as `auth.token` when no shared
    /// token is given.
    let mayUseStoredToken: Bool

    static let connectRequestID = "1"

    /// `sentStoredToken`: set to the stored device token this attempt sent, if it sent one.
    func run(deadline overall: Deadline, sentStoredToken: inout String?) throws(GatewayError) -> GatewaySession {
        let deadline = min(overall, .after(seconds: options.connectTimeout))
        let tracer = options.tracer
        let socket: WebSocketConnection
        let upgradeDeadline = stepDeadline(within: deadline)
        do {
            // The device key is loaded while the gateway answers the upgrade (see DeviceIdentitySource).
            socket = try WebSocketConnection.connect(url: options.url, tls: tlsOptions, headers: options.upgradeHeaders,
                                                     proxy: options.proxy, deadline: upgradeDeadline,
                                                     whileWaiting: { _ = try? options.identitySource?.identity() },
                                                     proxyReport: { exchange in
                                                         tracer?(.proxy, ["proxy": .string(exchange.proxy), "source": .string(exchange.source),
                                                                          "sent": .string(exchange.sent), "received": .string(exchange.received)])
                                                     })
        } catch {
            _ = try identity()  // an unusable identity is reported first, as if loaded before connecting
            if case .transport(.timedOut) = error {
                throw timeout(waitingFor: nil, stepDeadline: upgradeDeadline, deadline: deadline)
            }
            if case .upgradeRejected(let status, let line, let body) = error {
                if let refusal = GatewayError.admissionRefusal(httpStatus: status, body: body) { throw refusal }
                throw GatewayError.upgradeRejected(httpStatus: status, statusLine: line, sentEdgeAuth: !options.upgradeHeaders.isEmpty)
            }
            if case .transport(let reason) = error {
                switch reason {
                case .resolve, .connect, .tls, .io, .proxy:
                    throw GatewayError.connectFailed(url: "\(options.url)", origin: options.urlOrigin, reason: reason)
                case .timedOut, .closed, .certificateRejected:
                    break
                }
            }
            throw GatewaySession.map(error)
        }
        do throws(GatewayError) {
            let identity = try identity()
            let stored = try observeStoredToken(identity: identity)
            let storedDeviceToken = mayUseStoredToken && options.token == nil ? stored.observation?.entry?.token.value : nil
            sentStoredToken = storedDeviceToken
            let challenge = try waitForChallenge(socket, deadline: deadline)
            let request = try connectRequest(challenge: challenge, identity: identity, storedDeviceToken: storedDeviceToken)
            let frame: JSONValue = [
                "type": "req", "id": .string(Self.connectRequestID), "method": "connect", "params": request.params,
            ]
            try GatewaySession.write(frame, to: socket, tracer: tracer, deadline: deadline)
            let response = try waitForResponse(socket, deadline: deadline)
            if let shape = response.error {
                let failure = HandshakeFailure.error(for: shape, tokenSource: options.tokenSource, passwordSource: options.passwordSource,
                                                     urlSource: options.urlOrigin?.source, usedStoredDeviceToken: storedDeviceToken != nil)
                // Kept open for the pairing decision: the socket goes to the caller, which waits on it.
                if options.waitsForPairing, shape.details?["waitForResolution"]?.boolValue == true,
                   case .authenticationFailed(.pairingRequired(let requestId, let reason), _) = failure {
                    let pending = PendingPairing(socket: socket, requestId: requestId, reason: reason, tracer: tracer)
                    throw GatewayError.authenticationFailed(.pairingPending(pending), shape)
                }
                throw failure
            }
            let hello: HelloOk
            do { hello = try HelloOk(payload: response.payload ?? .null) } catch { throw .protocolError(error.message) }
            var warnings: [String] = []
            if let token = hello.deviceToken, let identity, let store = options.deviceAuthStore {
                if let problem = keep(token, hello: hello, identity: identity, store: store, stored: stored) {
                    warnings.append("could not store the device token: \(problem)")
                }
            }
            let session = GatewaySession(socket: socket, hello: hello, handshake: [challenge, response], warnings: warnings,
                                         tracer: tracer, nextRequestNumber: 2)
            session.isStrict = options.isStrict
            return session
        } catch {
            if case .authenticationFailed(.pairingPending, _) = error { throw error }  // the socket is the caller's now
            socket.close(code: 1000, reason: "", deadline: .after(seconds: 0.2))
            throw error
        }
    }

    /// The device identity (nil with `--no-device`); an unusable one fails the handshake (exit 4).
    private func identity() throws(GatewayError) -> DeviceIdentity? {
        guard let source = options.identitySource else { return nil }
        do { return try source.identity() } catch { throw .authenticationFailed(.identityUnusable(error), nil) }
    }

    /// What the store holds for this device's operator role, looked at before the token is needed for
    /// the connect and kept for the write after hello-ok. A store that cannot be read fails the
    /// handshake (exit 4) when its token is needed (no shared token); otherwise the failure is kept and
    /// only keeps a new token from being stored.
    private func observeStoredToken(identity: DeviceIdentity?) throws(GatewayError) -> (observation: DeviceTokenObservation?, failure: IdentityError?) {
        guard let identity, let store = options.deviceAuthStore else { return (nil, nil) }
        do {
            return (try store.observe(deviceId: identity.deviceId, role: ConnectRequest.role), nil)
        } catch {
            if options.token == nil { throw .authenticationFailed(.identityUnusable(error), nil) }
            return (nil, error)
        }
    }

    /// Keeps the device token hello-ok issued, as the official client does: one equal to the stored
    /// one is left as it is (with its scopes); otherwise it replaces only the token observed before
    /// the connect, so one another process stored meanwhile wins. The reason it was not kept, if one.
    private func keep(_ token: String, hello: HelloOk, identity: DeviceIdentity, store: any DeviceTokenStore,
                      stored: (observation: DeviceTokenObservation?, failure: IdentityError?)) -> IdentityError? {
        let role = hello.role ?? ConnectRequest.role
        do {
            let observed: DeviceTokenObservation
            if TextTrim.trimmed(role) == ConnectRequest.role {
                guard let observation = stored.observation else { return stored.failure }
                observed = observation
            } else {
                observed = try store.observe(deviceId: identity.deviceId, role: role)
            }
            if observed.storedToken == token { return nil }
            _ = try store.save(deviceId: identity.deviceId, role: role, token: Secret(token),
                               scopes: hello.grantedScopes ?? options.scopes, replacing: observed)
            return nil
        } catch {
            return error
        }
    }

    private var tlsOptions: TLSClientOptions? {
        guard options.url.isSecure else { return nil }
        return options.tls ?? TLSClientOptions(serverName: options.url.host)
    }

    /// The end of one handshake step: `handshakeTimeout` from now, within `deadline`.
    private func stepDeadline(within deadline: Deadline) -> Deadline {
        min(deadline, .after(seconds: options.handshakeTimeout))
    }

    /// The timeout error for a wait that ended at `stepDeadline`: the step's own limit when that came first.
    private func timeout(waitingFor what: String?, stepDeadline: Deadline, deadline: Deadline) -> GatewayError {
        if stepDeadline < deadline {
            let milliseconds = Int((options.handshakeTimeout * 1000).rounded())
            return .handshakeStepTimedOut(url: "\(options.url)", waitingFor: what, limitMilliseconds: milliseconds)
        }
        return .handshakeTimedOut(url: "\(options.url)", waitingFor: what, limitSeconds: options.connectTimeout,
                                  origin: options.urlOrigin)
    }

    private func waitForChallenge(_ socket: WebSocketConnection, deadline: Deadline) throws(GatewayError) -> GatewayFrame {
        let what = "connect.challenge"
        let challengeDeadline = stepDeadline(within: deadline)
        let frame: GatewayFrame
        do {
            frame = try readDuringHandshake(socket, deadline: challengeDeadline, waitingFor: what)
        } catch {
            if case .handshakeTimedOut = error { throw timeout(waitingFor: what, stepDeadline: challengeDeadline, deadline: deadline) }
            throw error
        }
        guard frame.eventName == "connect.challenge" else {
            throw .protocolError("expected connect.challenge as the gateway's first frame")
        }
        guard let nonce = frame.payload?["nonce"]?.stringValue, !nonce.isEmpty else {
            throw .protocolError("connect.challenge without a nonce")
        }
        return frame
    }

    private func waitForResponse(_ socket: WebSocketConnection, deadline: Deadline) throws(GatewayError) -> GatewayFrame {
        while true {
            let frame = try readDuringHandshake(socket, deadline: deadline, waitingFor: "hello-ok")
            if frame.responseID == Self.connectRequestID { return frame }
            // Events sent before hello-ok (none expected) are not ours to print.
        }
    }

    private func readDuringHandshake(_ socket: WebSocketConnection, deadline: Deadline, waitingFor what: String) throws(GatewayError) -> GatewayFrame {
        do throws(GatewayError) {
            guard let frame = try GatewaySession.read(from: socket, tracer: options.tracer, deadline: deadline) else {
                throw GatewayError.handshakeTimedOut(url: "\(options.url)", waitingFor: what, limitSeconds: options.connectTimeout,
                                                     origin: options.urlOrigin)
            }
            return frame
        } catch {
            // 1013 "try again later": the gateway is suspended, restarting or starting; wait it out.
            if case .connectionLost(let message, let code) = error, code == WebSocketCloseCode.tryAgainLater {
                throw .unavailable("\(message) during the handshake", retryAfterMs: 1000)
            }
            if case .connectionLost(let message, let code) = error {
                throw .connectionLost("\(message) during the handshake", closeCode: code)
            }
            throw error
        }
    }

    private func connectRequest(challenge: GatewayFrame, identity: DeviceIdentity?,
                                storedDeviceToken: String?) throws(GatewayError) -> ConnectRequest {
        let nonce = challenge.payload?["nonce"]?.stringValue ?? ""
        // The challenge's ts is the gateway's clock: signing with it avoids clock-skew rejections.
        let signedAt = challenge.payload?["ts"]?.int64Value ?? WallClock.milliseconds()
        // The shared secrets leave their `Secret` wrapping only here, for the request being built.
        let token = options.token?.value ?? storedDeviceToken
        var proof: ConnectRequest.DeviceProof? = nil
        if let identity {
            let payload = options.signsV3Payload
                ? DeviceAuthPayload.v3(deviceId: identity.deviceId, clientId: options.client.id,
                                       clientMode: options.client.mode, role: ConnectRequest.role,
                                       scopes: options.scopes, signedAtMs: signedAt, token: token ?? "", nonce: nonce,
                                       platform: Self.platform, deviceFamily: "")
                : DeviceAuthPayload.v2(deviceId: identity.deviceId, clientId: options.client.id,
                                       clientMode: options.client.mode, role: ConnectRequest.role,
                                       scopes: options.scopes, signedAtMs: signedAt, token: token ?? "", nonce: nonce)
            let signature: String
            do { signature = try identity.signature(payload: payload) } catch {
                throw .authenticationFailed(.cannotSign("\(error)"), nil)
            }
            proof = .init(id: identity.deviceId, publicKey: identity.publicKeyBase64URL, signature: signature,
                          signedAt: signedAt, nonce: nonce)
        }
        var request = ConnectRequest(clientVersion: options.clientVersion, platform: Self.platform, scopes: options.scopes,
                                     token: token, password: options.password?.value, instanceID: SecureRandom.uuid(), device: proof)
        if options.token == nil { request.deviceToken = storedDeviceToken }
        request.client = options.client
        request.capabilities = options.capabilities
        if options.waitsForPairing && !request.capabilities.contains(ConnectRequest.pairingWaitCapability) {
            request.capabilities.append(ConnectRequest.pairingWaitCapability)
        }
        return request
    }

    static let platform = "linux"
}
