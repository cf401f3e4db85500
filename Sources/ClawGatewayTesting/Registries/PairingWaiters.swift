import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON

/// A connection kept open for a pairing decision.
protocol PairingWaiter: AnyObject, Sendable {
    /// Sends the `device.pair.resolved` frame, then closes the connection.
    func pairingResolved(_ event: [UInt8])
}

/// The connects kept open for a pairing decision (`device-pairing-wait`), by request id.
///
/// The request exists from the moment the connect is processed, before its connection is added here:
/// a decision made in between is kept (the latest few) and told to the connection when it is added,
/// as the gateway, which does both in one turn of its loop, never misses one.
final class PairingWaiters: @unchecked Sendable {
    private let lock = NSLock()
    private var waiters: [String: [PairingWaiter]] = [:]
    private var unheard: [(requestId: String, event: [UInt8])] = []
    private static let unheardKept = 64

    /// Sends the connect's answer (`answer`) and adds `waiter` for `requestId` under one lock, so the
    /// decision always follows the answer; a decision already made is sent at once.
    func add(_ waiter: PairingWaiter, requestId: String, answer: () -> Void) {
        let decided: [UInt8]? = lock.withLock {
            answer()
            if let index = unheard.firstIndex(where: { $0.requestId == requestId }) { return unheard.remove(at: index).event }
            waiters[requestId, default: []].append(waiter)
            return nil
        }
        if let decided { waiter.pairingResolved(decided) }
    }

    func remove(_ waiter: PairingWaiter) {
        lock.withLock {
            for (id, list) in waiters {
                let kept = list.filter { $0 !== waiter }
                waiters[id] = kept.isEmpty ? nil : kept
            }
        }
    }

    /// Tells every waiter of `requestId` the decision (each closes afterwards); with none yet, keeps it.
    func resolve(requestId: String, deviceId: String, decision: String) {
        let payload: JSONValue = ["requestId": .string(requestId), "deviceId": .string(deviceId),
                                  "decision": .string(decision), "ts": JSONValue(WallClock.milliseconds())]
        let event = FrameEncoder.event("device.pair.resolved", payload: payload, seq: nil)
        let list: [PairingWaiter] = lock.withLock {
            guard let list = waiters.removeValue(forKey: requestId) else {
                unheard.append((requestId, event))
                if unheard.count > Self.unheardKept { unheard.removeFirst() }
                return []
            }
            return list
        }
        for waiter in list { waiter.pairingResolved(event) }
    }
}
