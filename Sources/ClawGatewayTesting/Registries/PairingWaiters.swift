import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// A connection kept open for a pairing decision.
protocol PairingWaiter: AnyObject, Sendable {
    /// Sends the `device.pair.resolved` frame, then closes the connection.
    func pairingResolved(_ event: [UInt8])
}

/// The connects kept open for a pairing decision (`device-pairing-wait`), by request id.
final class PairingWaiters: @unchecked Sendable {
    private let lock = NSLock()
    private var waiters: [String: [PairingWaiter]] = [:]

    func add(_ waiter: PairingWaiter, requestId: String) {
        lock.withLock { waiters[requestId, default: []].append(waiter) }
    }

    func remove(_ waiter: PairingWaiter) {
        lock.withLock {
            for (id, list) in waiters {
                let kept = list.filter { $0 !== waiter }
                waiters[id] = kept.isEmpty ? nil : kept
            }
        }
    }

    /// Tells every waiter of `requestId` the decision (each closes afterwards).
    func resolve(requestId: String, deviceId: String, decision: String) {
        let list = lock.withLock { waiters.removeValue(forKey: requestId) ?? [] }
        guard !list.isEmpty else { return }
        let payload: JSONValue = ["requestId": .string(requestId), "deviceId": .string(deviceId),
                                  "decision": .string(decision), "ts": JSONValue(WallClock.milliseconds())]
        let event = FrameEncoder.event("device.pair.resolved", payload: payload, seq: nil)
        for waiter in list { waiter.pairingResolved(event) }
    }
}
