import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

/// Paired devices, their device tokens and pending pairing requests (in memory, like a fresh gateway).
final class DeviceRegistry: @unchecked Sendable {
    struct PairedDevice {
        var publicKey: String
        var roles: Set<String>
        var scopes: [String]
    }

    struct IssuedToken {
        var token: String
        var role: String
        var scopes: [String]
        var issuedAtMs: Int64
    }

    enum TokenCheck: Equatable { case ok, mismatch, scopeMismatch }

    /// A device's open pairing request: what it asked for, to approve it by id later.
    struct PendingRequest: Equatable {
        var requestId: String
        var deviceId: String
        var publicKey: String
        var role: String
        var scopes: [String]
    }

    private let lock = NSLock()
    private var paired: [String: PairedDevice] = [:]
    private var tokens: [String: IssuedToken] = [:]  // key: deviceId + "|" + role
    private var pending: [String: PendingRequest] = [:]  // deviceId -> its one open request
    private let preApproved: Set<String>

    init(preApproved: [String]) { self.preApproved = Set(preApproved) }

    func isPreApproved(_ deviceId: String) -> Bool { preApproved.contains(deviceId) }

    func pairedDevice(_ deviceId: String) -> PairedDevice? { lock.withLock { paired[deviceId] } }

    /// Records approval of `role` and `scopes` (added to what was approved before).
    func approve(deviceId: String, publicKey: String, role: String, scopes: [String]) {
        lock.withLock {
            var device = paired[deviceId] ?? PairedDevice(publicKey: publicKey, roles: [], scopes: [])
            device.publicKey = publicKey
            device.roles.insert(role)
            for scope in scopes where !device.scopes.contains(scope) { device.scopes.append(scope) }
            paired[deviceId] = device
            pending[deviceId] = nil
        }
    }

    /// The (one) open pairing request of a device, created on first need. A request for another role
    /// or other scopes replaces the open one, which is returned as `superseded`; `created` says whether
    /// the request is new.
    func pairingRequest(deviceId: String, publicKey: String, role: String, scopes: [String])
        -> (request: PendingRequest, created: Bool, superseded: PendingRequest?) {
        lock.withLock {
            let existing = pending[deviceId]
            if let existing, existing.role == role, Set(existing.scopes) == Set(scopes) { return (existing, false, nil) }
            let request = PendingRequest(requestId: SecureRandom.uuid(), deviceId: deviceId, publicKey: publicKey, role: role, scopes: scopes)
            pending[deviceId] = request
            return (request, true, existing)
        }
    }

    /// The ids of the open requests.
    func pendingRequestIds() -> [String] {
        lock.withLock { pending.values.map(\.requestId) }
    }

    /// Takes the open request with this id off the list (approved, rejected, expired); nil when there is none.
    func takePending(requestId: String) -> PendingRequest? {
        lock.withLock {
            guard let request = pending.values.first(where: { $0.requestId == requestId }) else { return nil }
            pending[request.deviceId] = nil
            return request
        }
    }

    /// The device's token for `role`, issued on first use; its scopes follow the approved scopes.
    func ensureToken(deviceId: String, role: String) -> IssuedToken {
        lock.withLock {
            let key = deviceId + "|" + role
            let approved = paired[deviceId]?.scopes ?? []
            if var existing = tokens[key] {
                existing.scopes = approved
                tokens[key] = existing
                return existing
            }
            let token = IssuedToken(token: "dt_" + Base64.encodeURL(SecureRandom.bytes(24)), role: role,
                                    scopes: approved, issuedAtMs: WallClock.milliseconds())
            tokens[key] = token
            return token
        }
    }

    func verifyToken(deviceId: String, role: String, token: String, scopes: [String]) -> TokenCheck {
        lock.withLock {
            guard let issued = tokens[deviceId + "|" + role], constantTimeEqual(issued.token, token) else { return .mismatch }
            for scope in scopes where !GatewayVocabulary.scopes(issued.scopes, satisfy: scope) { return .scopeMismatch }
            return .ok
        }
    }
}

/// Compares secrets without an early exit on the first differing byte.
func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    var difference = UInt8(x.count == y.count ? 0 : 1)
    for i in 0..<min(x.count, y.count) { difference |= x[i] ^ y[i] }
    return difference == 0
}
