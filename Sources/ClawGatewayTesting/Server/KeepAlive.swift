import Foundation

/// The October 2026 gateway's keepalive for one connection (`--ping-ms`, `--pong-timeout-ms`): a ping
/// after `pingMs` without a pong, and the connection dropped when no pong comes within `pongTimeoutMs`
/// of that ping being written. A pong restarts the idle clock. Runs on its own thread.
final class KeepAlive: @unchecked Sendable {
    private let pingMs: Int
    private let pongTimeoutMs: Int
    private let condition = NSCondition()
    private var stopped = false
    private var pingWritten: Date? = nil
    private var pongArrived = false

    init(pingMs: Int, pongTimeoutMs: Int) {
        self.pingMs = pingMs
        self.pongTimeoutMs = pongTimeoutMs
    }

    /// Starts the thread: `sendPing` queues a ping (the writer calls `pingWasWritten` once it is out),
    /// `drop` ends an unresponsive connection.
    func start(name: String, sendPing: @escaping @Sendable () -> Void, drop: @escaping @Sendable (_ timeoutMs: Int) -> Void) {
        let thread = Thread { [self] in run(sendPing: sendPing, drop: drop) }
        thread.name = name
        thread.start()
    }

    func pingWasWritten() { condition.withLock { if pingWritten == nil { pingWritten = Date() }; condition.broadcast() } }
    func pongReceived() { condition.withLock { pongArrived = true; condition.broadcast() } }
    func stop() { condition.withLock { stopped = true; condition.broadcast() } }

    private func run(sendPing: @Sendable () -> Void, drop: @Sendable (Int) -> Void) {
        condition.lock()
        defer { condition.unlock() }
        while true {
            // Idle: no pong awaited; the next ping is due `pingMs` after the last pong.
            let due = Date().addingTimeInterval(Double(pingMs) / 1000)
            while !stopped && Date() < due { _ = condition.wait(until: due) }
            if stopped { return }
            pingWritten = nil
            pongArrived = false
            condition.unlock()
            sendPing()
            condition.lock()
            while !stopped && pingWritten == nil && !pongArrived { condition.wait() }
            if stopped { return }
            if let written = pingWritten {
                let limit = written.addingTimeInterval(Double(pongTimeoutMs) / 1000)
                while !stopped && !pongArrived && Date() < limit { _ = condition.wait(until: limit) }
                if stopped { return }
                if !pongArrived {
                    condition.unlock()
                    drop(pongTimeoutMs)
                    condition.lock()
                    return
                }
            }
        }
    }
}
