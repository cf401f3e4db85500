@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// The I/O thread's side of a connection: the work callers queued, answers and events routed to
/// them, requests whose time is up.
extension ConnectionDriver {
    /// The queued requests, taken.
    func takeWork() -> [Outgoing] {
        lock.withLock {
            defer { outbox.removeAll(keepingCapacity: true) }
            return outbox
        }
    }

    func consumerIsBehind() -> Bool {
        lock.withLock { subscribers.values.contains { $0.isFull } || borrowed.values.contains { $0.isFull } }
    }

    /// Fails requests whose time is up; returns when the next one's will be.
    func expireRequests() -> Deadline {
        let now = Deadline.now
        let (expired, next) = lock.withLock { () -> ([PendingRequest], Deadline) in
            var expired: [PendingRequest] = []
            var next = Deadline.never
            for (id, request) in pending {
                if request.deadline <= now { expired.append(pending.removeValue(forKey: id)!) }
                else { next = min(next, request.deadline) }
            }
            return (expired, next)
        }
        for request in expired {
            request.continuation.resume(throwing: GatewayClientError.noAnswer(to: request.method))
        }
        return next
    }

    /// An answer to its request; an event to the buffers that accept it.
    /// `eventGap`: the engine's event-gap rule for this frame (the number it should have had).
    func route(_ frame: GatewayFrame, eventGap: Int64?) {
        switch frame.kind {
        case .response(let id, let ok):
            if frame.isAcceptedAck { return }  // a two-stage method: its final answer follows
            guard let request = lock.withLock({ pending.removeValue(forKey: id) }) else { return }
            if !ok, let error = frame.error {
                request.continuation.resume(throwing: GatewayClientError.requestFailed(request.method, error))
            } else {
                request.continuation.resume(returning: frame.payload ?? .null)
            }
        case .event(let name, let seq):
            let gap = eventGap.flatMap { expected in seq.map { SequenceGap(expected: expected, received: $0) } }
            let event = GatewayEvent(name: name, rawPayload: frame.payload ?? .null, seq: seq, gap: gap)
            let buffers = lock.withLock { Array(subscribers.values) + Array(borrowed.values) }
            for buffer in buffers where buffer.accepts(event) { buffer.offer(event) }
        case .request, .unknown:
            break  // nothing this client answers; skipped for forward compatibility
        }
    }
}
