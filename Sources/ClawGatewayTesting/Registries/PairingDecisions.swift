import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Decisions on pairing requests: `device.pair.approve` and `device.pair.reject`, a replaced request
/// and an expired one. Each is told to the `operator.pairing` holders (`device.pair.resolved`, as the
/// gateway broadcasts it) and to the connects kept open for it.
extension Gateway {
    /// A new pairing request was made: the one it replaced is superseded; with `--pairing-ttl-ms` it expires.
    func pairingRequested(_ request: DeviceRegistry.PendingRequest, superseded: DeviceRegistry.PendingRequest?) {
        if let superseded {
            // Approval UIs drop the old prompt (the gateway says "rejected" to them); its waiters hear "superseded".
            broadcastResolved(superseded, decision: "rejected")
            pairingWaiters.resolve(requestId: superseded.requestId, deviceId: superseded.deviceId, decision: "superseded")
        }
        // --auto-approve-ms: an administrator who approves every request after a while.
        if let after = options.autoApproveMs {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(after)) { [self] in
                _ = decidePairing(requestId: request.requestId, approve: true)
            }
        }
        if let ttl = options.pairingTTLMs {
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ttl)) { [self] in
                guard let expired = registry.takePending(requestId: request.requestId) else { return }
                broadcastResolved(expired, decision: "expired")
                pairingWaiters.resolve(requestId: expired.requestId, deviceId: expired.deviceId, decision: "expired")
            }
        }
    }

    /// Approves (or rejects) every open request, as an administrator would one by one; their device ids.
    func decideAllPairings(approve: Bool) -> [String] {
        registry.pendingRequestIds().compactMap { decidePairing(requestId: $0, approve: approve)?.deviceId }
    }

    /// Approves or rejects the open request `requestId`; nil when there is no such request.
    func decidePairing(requestId: String, approve: Bool) -> DeviceRegistry.PendingRequest? {
        guard let request = registry.takePending(requestId: requestId) else { return nil }
        if approve {
            registry.approve(deviceId: request.deviceId, publicKey: request.publicKey, role: request.role, scopes: request.scopes)
        }
        let decision = approve ? "approved" : "rejected"
        broadcastResolved(request, decision: decision)
        pairingWaiters.resolve(requestId: request.requestId, deviceId: request.deviceId, decision: decision)
        return request
    }

    private func broadcastResolved(_ request: DeviceRegistry.PendingRequest, decision: String) {
        hub.broadcast(GatewayEventName.devicePairResolved,
                      payload: ["requestId": .string(request.requestId), "deviceId": .string(request.deviceId),
                                "decision": .string(decision), "ts": JSONValue(WallClock.milliseconds())],
                      requiredScope: "operator.pairing")
    }
}
