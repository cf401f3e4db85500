import Foundation
import Testing
@testable import ClawGatewayTesting

/// The simulator's held pairing sockets: a decision made between the connect's processing (which
/// creates the request) and its connection being added is still told to it, after the answer.
@Suite struct PairingWaitersTests {
    /// A held connection as the waiters see it: what it was sent, in order.
    final class Recorder: PairingWaiter, @unchecked Sendable {
        private let lock = NSLock()
        private var sent: [String] = []
        func record(_ line: String) { lock.withLock { sent.append(line) } }
        var lines: [String] { lock.withLock { sent } }
        func pairingResolved(_ event: [UInt8]) { record(String(decoding: event, as: UTF8.self)) }
    }

    @Test func aDecisionBeforeTheConnectionIsAddedIsToldAfterTheAnswer() {
        let waiters = PairingWaiters()
        let held = Recorder()
        waiters.resolve(requestId: "r1", deviceId: "d1", decision: "rejected")
        waiters.add(held, requestId: "r1") { held.record("answer") }
        #expect(held.lines.count == 2)
        #expect(held.lines.first == "answer")
        #expect(held.lines.last?.contains("\"decision\":\"rejected\"") == true)
    }

    @Test func aDecisionAfterTheConnectionIsAddedIsToldOnce() {
        let waiters = PairingWaiters()
        let held = Recorder()
        waiters.add(held, requestId: "r1") { held.record("answer") }
        waiters.resolve(requestId: "r1", deviceId: "d1", decision: "approved")
        waiters.resolve(requestId: "r1", deviceId: "d1", decision: "approved")
        #expect(held.lines.count == 2)
        #expect(held.lines.last?.contains("\"decision\":\"approved\"") == true)
    }

    @Test func anotherRequestsDecisionIsNotTold() {
        let waiters = PairingWaiters()
        let held = Recorder()
        waiters.resolve(requestId: "r0", deviceId: "d0", decision: "rejected")
        waiters.add(held, requestId: "r1") { held.record("answer") }
        #expect(held.lines == ["answer"])
    }
}
