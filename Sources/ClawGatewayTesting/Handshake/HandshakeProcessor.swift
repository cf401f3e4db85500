@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Who a connection turned out to be once `connect` succeeded.
struct AcceptedClient: Sendable {
    var connId: String
    var protocolVersion: Int
    var role: String
    var scopes: [String]
    var clientId: String
    var clientMode: String
    var displayName: String?
    var platform: String
    var deviceFamily: String?
    var version: String
    var instanceId: String?
    var deviceId: String?
    var issuedToken: DeviceRegistry.IssuedToken?
}

/// What to do with the first frame of a connection.
enum HandshakeOutcome {
    case accepted(AcceptedClient, requestId: String)
    /// Send `response` (if any) first, then close with `closeCode`/`closeReason`.
    case rejected(response: [UInt8]?, closeCode: UInt16, closeReason: String)
    /// Send `response` (pairing required, `waitForResolution`) and keep the socket open until the
    /// decision on `requestId` (`device-pairing-wait`).
    case awaitingPairing(response: [UInt8], requestId: String)
}

/// Decides the handshake exactly as the real server's connect pipeline does (docs/protocol.md §3):
/// frame shape, params schema, protocol range, role, shared auth, device proof, device token, pairing.
struct HandshakeProcessor {
    var options: SimulatorOptions
    var registry: DeviceRegistry
    var challengeNonce: String
    /// Direct loopback peer (and not `--require-pairing`, which makes every client remote).
    var isLocal: Bool
    var connId: String
    var nowMs: Int64 = WallClock.milliseconds()
    /// True while the gateway is "starting" (`--fault starting:N`): the connect gets the 1013 row.
    var isStarting: () -> Bool = { false }
    /// Receives `device.pair.requested` / `device.pair.resolved` events for `operator.pairing` holders.
    var pairingEvent: (_ name: String, _ payload: JSONValue) -> Void = { _, _ in }
    /// Told of every new pairing request and the one it replaced (expiry, superseded waiters).
    var pairingRequested: (_ request: DeviceRegistry.PendingRequest, _ superseded: DeviceRegistry.PendingRequest?) -> Void = { _, _ in }
    /// Suspension and the access policy (`Admission`).
    var admission: Admission? = nil

    private var version: Int { options.protocolVersion }

    func process(_ message: [UInt8]) -> HandshakeOutcome {
        guard let frame = try? JSONValue.parse(message) else {
            return .rejected(response: nil, closeCode: 1000, closeReason: "")
        }
        if GatewaySchemas.requestFrame(version).violation(of: frame, at: "") != nil {
            return .rejected(response: nil, closeCode: 1008, closeReason: "invalid request frame")
        }
        let id = frame["id"]?.stringValue ?? "invalid"
        guard frame["method"]?.stringValue == "connect" else {
            return reject(id, .invalidRequest("invalid handshake: first request must be connect"))
        }
        let paramsValue = frame["params"] ?? .null
        if let problem = GatewaySchemas.connectParams(version).violation(of: paramsValue, at: "") {
            return reject(id, .invalidRequest("invalid connect params: \(problem)"))
        }
        guard let params = paramsValue.objectValue, let client = params["client"]?.objectValue else {
            return reject(id, .invalidRequest("invalid connect params: at root: must be object"))
        }
        let clientId = (client["id"]?.stringValue ?? "").lowercased()
        let clientMode = client["mode"]?.stringValue ?? ""
        let roleRaw = params["role"]?.stringValue ?? "operator"

        // Start-up admission comes before protocol and role, as in the real connect admission.
        if isStarting() {
            let error = ErrorShape(code: "UNAVAILABLE", message: "gateway starting; retry shortly",
                                   details: ["reason": "startup-sidecars"], retryable: true, retryAfterMs: 500)
            return .rejected(response: FrameEncoder.failure(id: id, error: error), closeCode: 1013, closeReason: "gateway starting")
        }
        // A suspended gateway (or one draining for a restart) refuses the connect the same way.
        if let refusal = admission?.connectRefusal() {
            return .rejected(response: FrameEncoder.failure(id: id, error: refusal.error), closeCode: 1013, closeReason: refusal.closeReason)
        }

        // Protocol negotiation.
        let minProtocol = params["minProtocol"]?.intValue ?? 0
        let maxProtocol = params["maxProtocol"]?.intValue ?? 0
        var negotiated = version
        if !(minProtocol <= version && version <= maxProtocol) {
            let legacyAllowed = version == 4 && ((roleRaw == "node" && clientMode == "node") || clientMode == "probe")
            if legacyAllowed && minProtocol <= 3 && 3 <= maxProtocol {
                negotiated = 3
            } else {
                let details: JSONValue = version == 3
                    ? ["expectedProtocol": 3]
                    : ["code": "PROTOCOL_MISMATCH", "clientMinProtocol": JSONValue(minProtocol),
                       "clientMaxProtocol": JSONValue(maxProtocol), "expectedProtocol": 4, "minimumProbeProtocol": 3]
                return .rejected(response: FrameEncoder.failure(id: id, error: .invalidRequest("protocol mismatch", details: details)),
                                 closeCode: 1002, closeReason: "protocol mismatch")
            }
        }
        guard GatewayVocabulary.roles.contains(roleRaw) else { return reject(id, .invalidRequest("invalid role")) }
        let role = roleRaw
        var scopes = (params["scopes"]?.arrayValue ?? []).compactMap(\.stringValue)
        let auth = params["auth"]?.objectValue ?? JSONObject()
        let device = params["device"]?.objectValue

        // Shared secret.
        let sharedToken = nonEmpty(auth["token"]?.stringValue)
        let shared = checkSharedSecret(auth)
        var authOk = shared.ok
        let sharedAuthOk = shared.ok && options.authMode != "none"
        var failureReason = shared.failureReason
        let unauthorized = { (reason: String) -> HandshakeOutcome in
            self.rejectUnauthorized(id, reason: reason, auth: auth, hasDevice: device != nil, clientId: clientId, clientMode: clientMode)
        }

        // No device identity.
        if device == nil {
            let isBackendSelf = clientId == "gateway-client" && clientMode == "backend" && isLocal
            if role == "node" {
                return deviceIdentityRequired(id)
            }
            if sharedAuthOk {
                let keepsScopes = version >= 4 && isLocal && ((clientId == "cli" && clientMode == "cli") || isBackendSelf)
                if !keepsScopes { scopes = [] }
            } else if !authOk {
                return unauthorized(failureReason ?? "unauthorized")
            } else if !isBackendSelf {
                return deviceIdentityRequired(id)
            }
        }

        // Device proof.
        var devicePublicKey: String? = nil
        if let device {
            let verifier = DeviceProofVerifier(protocolVersion: version, challengeNonce: challengeNonce, nowMs: nowMs)
            switch verifier.verify(device: device, params: params, role: role, scopes: scopes) {
            case .success(let key): devicePublicKey = key
            case .failure(let failure):
                let details: JSONValue = ["code": .string(failure.detailCode), "reason": .string(failure.reason)]
                return .rejected(response: FrameEncoder.failure(id: id, error: .invalidRequest(failure.message, details: details)),
                                 closeCode: 1008, closeReason: failure.message)
            }
        }
        let deviceId = device?["id"]?.stringValue

        // Device token (explicit, or `auth.token` when it did not match the shared secret).
        if !authOk, let deviceId {
            let explicit = nonEmpty(auth["deviceToken"]?.stringValue)
            if let candidate = explicit ?? sharedToken {
                switch registry.verifyToken(deviceId: deviceId, role: role, token: candidate, scopes: scopes) {
                case .ok: authOk = true
                case .scopeMismatch: failureReason = "scope_mismatch"
                case .mismatch: failureReason = explicit != nil ? "device_token_mismatch" : (failureReason ?? "device_token_mismatch")
                }
            }
        }
        if !authOk { return unauthorized(failureReason ?? "unauthorized") }

        // Pairing; a client that may wait for the decision on the open socket (`device-pairing-wait`:
        // the Control UI's, or any with --pairing-wait-any-client) is kept open for it.
        let caps = (params["caps"]?.arrayValue ?? []).compactMap(\.stringValue)
        let waitsForDecision = version >= 4 && caps.contains(ConnectRequest.pairingWaitCapability)
            && (clientId == "openclaw-control-ui" || options.pairingWaitAnyClient)
        if let deviceId, let devicePublicKey,
           let refusal = pair(id, deviceId: deviceId, publicKey: devicePublicKey, role: role, scopes: scopes, client: client,
                              waitsForDecision: waitsForDecision) {
            return refusal
        }
        // The operator access policy decides after authentication and pairing.
        if let denied = admission?.operatorAccessRefusal(role: role) {
            return .rejected(response: FrameEncoder.failure(id: id, error: denied), closeCode: 1008,
                             closeReason: AuthFailureMessages.truncatedCloseReason(denied.message))
        }
        let issued = deviceId.map { registry.ensureToken(deviceId: $0, role: role) }
        let accepted = AcceptedClient(
            connId: connId, protocolVersion: negotiated, role: role, scopes: scopes, clientId: clientId,
            clientMode: clientMode, displayName: client["displayName"]?.stringValue,
            platform: client["platform"]?.stringValue ?? "", deviceFamily: client["deviceFamily"]?.stringValue,
            version: client["version"]?.stringValue ?? "", instanceId: client["instanceId"]?.stringValue,
            deviceId: deviceId, issuedToken: issued)
        return .accepted(accepted, requestId: id)
    }

    /// The shared token or password check of the gateway's auth mode (`none` always passes).
    private func checkSharedSecret(_ auth: JSONObject) -> (ok: Bool, failureReason: String?) {
        switch options.authMode {
        case "token":
            guard let given = nonEmpty(auth["token"]?.stringValue), let expected = options.token else { return (false, "token_missing") }
            return constantTimeEqual(given, expected) ? (true, nil) : (false, "token_mismatch")
        case "password":
            guard let given = nonEmpty(auth["password"]?.stringValue), let expected = options.password else {
                return (false, "password_missing")
            }
            return constantTimeEqual(given, expected) ? (true, nil) : (false, "password_mismatch")
        default:
            return (true, nil)
        }
    }

    /// Looks the device up; approves it silently when local or pre-approved, otherwise returns the
    /// pairing-required refusal (§3.5). `nil` means the device may connect.
    private func pair(_ id: String, deviceId: String, publicKey: String, role: String, scopes: [String],
                      client: JSONObject, waitsForDecision: Bool) -> HandshakeOutcome? {
        let reason: String
        if let record = registry.pairedDevice(deviceId), record.publicKey == publicKey {
            if !record.roles.contains(role) {
                reason = "role-upgrade"
            } else if !scopes.isEmpty && !scopes.allSatisfy({ GatewayVocabulary.scopes(record.scopes, satisfy: $0) }) {
                reason = "scope-upgrade"
            } else {
                return nil
            }
        } else {
            reason = "not-paired"
        }
        let (pending, created, superseded) = registry.pairingRequest(deviceId: deviceId, publicKey: publicKey, role: role, scopes: scopes)
        let requestId = pending.requestId
        if created { pairingRequested(pending, superseded) }
        if isLocal || registry.isPreApproved(deviceId) {
            registry.approve(deviceId: deviceId, publicKey: publicKey, role: role, scopes: scopes)
            pairingEvent("device.pair.resolved", ["requestId": .string(requestId), "deviceId": .string(deviceId),
                                                  "decision": "approved", "ts": JSONValue(WallClock.milliseconds())])
            return nil
        }
        var request: JSONObject = ["requestId": .string(requestId), "deviceId": .string(deviceId), "publicKey": .string(publicKey)]
        if let name = client["displayName"]?.stringValue { request["displayName"] = .string(name) }
        request["platform"] = client["platform"] ?? ""
        request["clientId"] = client["id"] ?? ""
        request["clientMode"] = client["mode"] ?? ""
        request["role"] = .string(role)
        request["scopes"] = JSONValue(scopes)
        request["silent"] = false
        request["ts"] = JSONValue(WallClock.milliseconds())
        pairingEvent("device.pair.requested", .object(request))
        let refusal = pairingRequired(id, requestId: requestId, reason: reason, deviceId: deviceId, role: role, scopes: scopes,
                                      waitsForDecision: waitsForDecision)
        if waitsForDecision, case .rejected(let response?, _, _) = refusal {
            return .awaitingPairing(response: response, requestId: requestId)
        }
        return refusal
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingASCIIWhitespace.isEmpty else { return nil }
        return text
    }

    private func reject(_ id: String, _ error: ErrorShape) -> HandshakeOutcome {
        .rejected(response: FrameEncoder.failure(id: id, error: error), closeCode: 1008,
                  closeReason: AuthFailureMessages.truncatedCloseReason(error.message))
    }

    private func deviceIdentityRequired(_ id: String) -> HandshakeOutcome {
        let error = ErrorShape(code: "NOT_PAIRED", message: "device identity required", details: ["code": "DEVICE_IDENTITY_REQUIRED"])
        return .rejected(response: FrameEncoder.failure(id: id, error: error), closeCode: 1008, closeReason: "device identity required")
    }

    private func rejectUnauthorized(_ id: String, reason: String, auth: JSONObject, hasDevice: Bool,
                                    clientId: String, clientMode: String) -> HandshakeOutcome {
        let provided = nonEmpty(auth["password"]?.stringValue) != nil ? "password"
            : nonEmpty(auth["token"]?.stringValue) != nil ? "token"
            : nonEmpty(auth["bootstrapToken"]?.stringValue) != nil ? "bootstrap-token"
            : nonEmpty(auth["deviceToken"]?.stringValue) != nil ? "device-token" : "none"
        let canRetry = reason == "token_mismatch" && hasDevice && provided == "token" && nonEmpty(auth["deviceToken"]?.stringValue) == nil
        let message = AuthFailureMessages.message(reason: reason, clientId: clientId, clientMode: clientMode, protocolVersion: version)
        let details: JSONValue = [
            "code": .string(AuthFailureMessages.detailCode(reason: reason)), "authReason": .string(reason),
            "canRetryWithDeviceToken": .bool(canRetry),
            "recommendedNextStep": .string(AuthFailureMessages.recommendedNextStep(reason: reason, canRetryWithDeviceToken: canRetry)),
        ]
        return reject(id, .invalidRequest(message, details: details))
    }

    private func pairingRequired(_ id: String, requestId: String, reason: String, deviceId: String, role: String, scopes: [String],
                                 waitsForDecision: Bool) -> HandshakeOutcome {
        if version == 3 {
            let error = ErrorShape(code: "NOT_PAIRED", message: "pairing required",
                                   details: ["code": "PAIRING_REQUIRED", "requestId": .string(requestId), "reason": .string(reason)])
            return .rejected(response: FrameEncoder.failure(id: id, error: error), closeCode: 1008, closeReason: "pairing required")
        }
        let message = "pairing required: device is not approved yet"
        var details: JSONObject = [
            "code": "PAIRING_REQUIRED", "reason": .string(reason), "requestId": .string(requestId),
            "remediationHint": "Approve this device from the pending pairing requests.",
        ]
        if waitsForDecision { details["waitForResolution"] = true }
        details["deviceId"] = .string(deviceId)
        details["requestedRole"] = .string(role)
        details["requestedScopes"] = JSONValue(scopes)
        return .rejected(response: FrameEncoder.failure(id: id, error: ErrorShape(code: "NOT_PAIRED", message: message, details: .object(details))),
                         closeCode: 1008,
                         closeReason: AuthFailureMessages.truncatedCloseReason("\(message) (requestId: \(requestId))"))
    }
}
