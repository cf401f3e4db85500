@_spi(Engine) import ClawSystem

/// The events of one subscription, in the order the gateway sent them, as an async sequence with
/// back-pressure: when its consumer falls `limit` events behind, the connection stops taking frames
/// off the socket (still answering pings from what it reads ahead) until the consumer catches up.
/// One consumer: iterate it from one task. It ends when the subscription's scope ends or the
/// connection closes, and throws the error that ended the connection.
public struct GatewayEventStream: AsyncSequence, Sendable {
    public typealias Element = GatewayEvent
    let subscription: EventSubscription

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: EventSubscription
        var buffer: EventBuffer { subscription.buffer }
        public mutating func next() async throws -> GatewayEvent? { try await buffer.next() }
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> GatewayEvent? {
            try await buffer.next()
        }
    }
}

/// What a connection's I/O thread feeds its events to: an event stream's buffer or a chat run's feed.
protocol EventSink: AnyObject, Sendable {
    func accepts(_ event: GatewayEvent) -> Bool
    /// The I/O thread only; called only for events `accepts` lets through.
    func offer(_ event: GatewayEvent)
    /// No more events; `error` is why the connection ended (nil: closed by this side).
    func finish(_ error: (any Error)?)
    /// While true the connection reads no further (back-pressure).
    var isFull: Bool { get }
    /// `wake` is called when a full sink gets room.
    func feed(from wake: @escaping @Sendable () -> Void)
}

/// The queue behind a `GatewayEventStream`: filled by the connection's I/O thread, emptied by one task.
final class EventBuffer: EventSink, @unchecked Sendable {
    private let lock = TransportLock()
    private var items: [GatewayEvent] = []
    private var head = 0
    private var waiter: CheckedContinuation<GatewayEvent?, any Error>?
    private var ending: (any Error)?? = nil  // nil: open; .some(nil): ended; .some(error): failed
    let limit: Int
    private let filter: @Sendable (GatewayEvent) -> Bool
    /// Told when a full buffer gets room (the I/O thread of the connection feeding it waits for it);
    /// a long-lived client's buffer is fed by one connection after another.
    private var madeRoom: @Sendable () -> Void = {}

    init(limit: Int, accepts: @escaping @Sendable (GatewayEvent) -> Bool) {
        self.limit = max(1, limit)
        filter = accepts
    }

    func accepts(_ event: GatewayEvent) -> Bool { filter(event) }

    func feed(from wake: @escaping @Sendable () -> Void) { lock.withLock { madeRoom = wake } }

    var isFull: Bool { lock.withLock { items.count - head >= limit } }

    /// Adds an event (the I/O thread only); a waiting consumer gets it at once.
    func offer(_ event: GatewayEvent) {
        let waiting: CheckedContinuation<GatewayEvent?, any Error>? = lock.withLock {
            guard ending == nil else { return nil }
            if let waiter {
                self.waiter = nil
                return waiter
            }
            items.append(event)
            return nil
        }
        waiting?.resume(returning: event)
    }

    /// No more events: the consumer gets those queued, then nil, or `error`.
    func finish(_ error: (any Error)?) {
        let waiting: CheckedContinuation<GatewayEvent?, any Error>? = lock.withLock {
            guard ending == nil else { return nil }
            ending = .some(error)
            defer { waiter = nil }
            return waiter
        }
        if let error { waiting?.resume(throwing: error) } else { waiting?.resume(returning: nil) }
    }

    var hasEnded: Bool { lock.withLock { ending != nil } }

    /// The next event, nil at the end, the connection's error, or `CancellationError` once the calling
    /// task is cancelled, whether or not events are queued.
    func next() async throws -> GatewayEvent? {
        try Task.checkCancellation()
        if let ready = try take() { return ready.event }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<GatewayEvent?, any Error>) in
                let resumeNow: Result<GatewayEvent?, any Error>? = lock.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if head < items.count { return .success(dequeue()) }
                    if let ending { return ending.map { .failure($0) } ?? .success(nil) }
                    waiter = continuation
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let waiting: CheckedContinuation<GatewayEvent?, any Error>? = lock.withLock {
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    /// An event ready now, the end, or nil when the consumer must wait.
    private func take() throws -> (event: GatewayEvent?, Void)? {
        let result: Result<GatewayEvent?, any Error>? = lock.withLock {
            if head < items.count { return .success(dequeue()) }
            if let ending { return ending.map { .failure($0) } ?? .success(nil) }
            return nil
        }
        guard let result else { return nil }
        return (try result.get(), ())
    }

    /// Under the lock.
    private func dequeue() -> GatewayEvent {
        let wasFull = items.count - head >= limit
        let event = items[head]
        head += 1
        if head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        if wasFull { madeRoom() }
        return event
    }
}
