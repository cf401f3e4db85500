@_spi(Engine) import ClawSystem

/// A process-wide bound on connects in flight. A burst of one-shot connections (a cron job's fan-out,
/// 200 tasks at once) otherwise starts every handshake together: each spends its connect limit waiting
/// for CPU (a debug build times out) and the gateway's cap on sockets still authenticating refuses the
/// rest. Here an attempt waits its turn first, so its limit starts when its handshake does; the wait
/// ends with the overall deadline or an interrupt, and the turns go in arrival order.
final class HandshakeGate: @unchecked Sendable {
    static let shared = HandshakeGate(slots: 8)

    private let lock = TransportLock()
    private var free: Int
    /// Waiting attempts, oldest first; a turn handed over is marked before its signal.
    private var queue: [Waiter] = []

    private final class Waiter {
        let signal: WakeSignal
        var granted = false
        init(_ signal: WakeSignal) { self.signal = signal }
    }

    init(slots: Int) { free = slots }

    /// Takes a turn: at once when one is free, else waits for one until `deadline` or until
    /// `interrupt` is readable. True when a turn is held (give it back with `leave()`); either way
    /// the caller goes on, and a late attempt fails by its own limit.
    func enter(until deadline: Deadline, interrupt: Int32) -> Bool {
        enum Entry { case taken, waiting(Waiter), without }
        let entry: Entry = lock.withLock {
            if free > 0 { free -= 1; return .taken }
            guard let signal = try? WakeSignal() else { return .without }
            let waiter = Waiter(signal)
            queue.append(waiter)
            return .waiting(waiter)
        }
        guard case .waiting(let waiter) = entry else {
            if case .taken = entry { return true }
            return false
        }
        while true {
            if lock.withLock({ waiter.granted }) { return true }
            let ready = try? Poll.readable(waiter.signal.descriptor, interrupt, -1, until: deadline)
            if lock.withLock({ waiter.granted }) { return true }
            if deadline.hasPassed || ready?.second == true || ready == nil {
                // Gone from the queue unless a turn was handed to it meanwhile (then it is taken).
                let taken: Bool = lock.withLock {
                    if waiter.granted { return true }
                    queue.removeAll { $0 === waiter }
                    return false
                }
                return taken
            }
        }
    }

    /// Gives a turn back: to the oldest waiter, or to the pool.
    func leave() {
        let next: Waiter? = lock.withLock {
            guard !queue.isEmpty else { free += 1; return nil }
            let next = queue.removeFirst()
            next.granted = true
            return next
        }
        next?.signal.signal()
    }
}
