@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// One gateway connection as async callers see it: they hand its I/O thread (`LinkThread`, which runs
/// the engine's driver) work through a queue and a wake-up descriptor, and wait for answers and
/// events. No blocking call ever holds a thread of the cooperative pool.
///
/// Everything under `lock` is shared between callers and the I/O thread.
final class ConnectionDriver: @unchecked Sendable {
    let lock = TransportLock()
    /// The I/O thread serving this connection (for a long-lived client, its later connections too).
    let link: LinkThread
    let hello: GatewayHello
    private let requestTimeout: Double
    let eventBufferLimit: Int

    // Shared state (under `lock`).
    var outbox: [Outgoing] = []
    var pending: [String: PendingRequest] = [:]
    var subscribers: [ObjectIdentifier: any EventSink] = [:]
    /// A long-lived client's buffers: fed while this connection lasts, left open when it ends.
    var borrowed: [ObjectIdentifier: any EventSink] = [:]
    /// Set once the connection has ended: nil error when this side closed it.
    private var ending: GatewayClientError?? = nil
    private var endWaiters: [CheckedContinuation<GatewayClientError?, Never>] = []
    private var nextRequestNumber = 0

    /// A request to write, queued by a caller for the I/O thread.
    struct Outgoing {
        let id: String
        let method: String
        let params: RawJSON?
    }

    struct PendingRequest {
        let method: String
        let continuation: CheckedContinuation<RawJSON, any Error>
        let deadline: Deadline
    }

    init(link: LinkThread, hello: GatewayHello, configuration: GatewayConfiguration) {
        self.link = link
        self.hello = hello
        requestTimeout = configuration.requestTimeout.seconds
        eventBufferLimit = configuration.eventBufferLimit
    }

    /// Connects on a new I/O thread and returns once the gateway has let us in, after the waits the
    /// configuration allows (`GatewayConfiguration.waits`). Cancelling the calling task stops the
    /// attempt at once.
    static func open(_ configuration: GatewayConfiguration) async throws -> ConnectionDriver {
        try await LinkThread.connect(configuration)
    }

    /// The connection has ended: every waiting request and subscription learns why.
    func end(with failure: GatewayClientError?) {
        let (requests, buffers, waiters) = lock.withLock {
            ending = .some(failure)
            defer { pending = [:]; subscribers = [:]; borrowed = [:]; endWaiters = [] }
            return (Array(pending.values), Array(subscribers.values), endWaiters)
        }
        for request in requests { request.continuation.resume(throwing: failure ?? .closedByThisSide) }
        for buffer in buffers { buffer.finish(failure) }
        for waiter in waiters { waiter.resume(returning: failure) }
    }

    // MARK: - Callers

    /// Sends a request and waits for its final answer: the `payload` of an `ok` answer, or the gateway's error.
    func request(_ method: String, params: RawJSON?, timeout: Double?) async throws -> RawJSON {
        let id = lock.withLock { () -> String in
            nextRequestNumber += 1
            return "c\(nextRequestNumber)"
        }
        let deadline = Deadline.after(seconds: timeout ?? requestTimeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RawJSON, any Error>) in
                let refusal: (any Error)? = lock.withLock {
                    if Task.isCancelled { return CancellationError() }
                    if let ending { return ending ?? GatewayClientError.closedByThisSide }
                    if link.isInterrupted { return GatewayClientError.closedByThisSide }
                    pending[id] = PendingRequest(method: method, continuation: continuation, deadline: deadline)
                    outbox.append(Outgoing(id: id, method: method, params: params))
                    return nil
                }
                if let refusal { continuation.resume(throwing: refusal) } else { link.wake.signal() }
            }
        } onCancel: {
            // The task awaiting the answer was cancelled (a child task of the scope, say): it gets the
            // cancellation, and the connection stays open for the rest.
            fail(id, CancellationError())
        }
    }

    /// Sends a request without waiting for its answer (an abort from a cancelled task).
    func post(_ method: String, params: RawJSON?) {
        let queued: Bool = lock.withLock {
            guard ending == nil, !link.isInterrupted else { return false }
            nextRequestNumber += 1
            outbox.append(Outgoing(id: "c\(nextRequestNumber)", method: method, params: params))
            return true
        }
        if queued { link.wake.signal() }
    }

    func fail(_ id: String, _ error: any Error) {
        lock.withLock { pending.removeValue(forKey: id) }?.continuation.resume(throwing: error)
    }

    /// A new subscription to the connection's events that `accepts` lets through.
    func subscribe(limit: Int? = nil, accepts: @escaping @Sendable (GatewayEvent) -> Bool) -> EventSubscription {
        subscribe(EventBuffer(limit: limit ?? eventBufferLimit, accepts: accepts))
    }

    /// Feeds `buffer` (an event buffer or a run's feed) the events it accepts while it is subscribed.
    func subscribe(_ buffer: some EventSink) -> EventSubscription {
        buffer.feed(from: { [wake = link.wake] in wake.signal() })
        let failure: GatewayClientError?? = lock.withLock {
            if ending == nil { subscribers[ObjectIdentifier(buffer)] = buffer }
            return ending
        }
        if let failure { buffer.finish(failure) }
        return EventSubscription(buffer: buffer, driver: self)
    }

    func unsubscribe(_ buffer: any EventSink) {
        let removed = lock.withLock { subscribers.removeValue(forKey: ObjectIdentifier(buffer)) != nil }
        if removed {
            buffer.finish(nil)
            link.wake.signal()  // it may have been the one holding frames back
        }
    }

    /// Feeds a long-lived client's buffer while this connection lasts.
    func lend(_ buffer: EventBuffer) {
        buffer.feed(from: { [wake = link.wake] in wake.signal() })
        lock.withLock { if ending == nil { borrowed[ObjectIdentifier(buffer)] = buffer } }
    }

    func stopLending(_ buffer: EventBuffer) {
        lock.withLock { _ = borrowed.removeValue(forKey: ObjectIdentifier(buffer)) }
        link.wake.signal()
    }

    var isOpen: Bool { lock.withLock { ending == nil } && !link.isInterrupted }

    /// Closes the connection (close frame 1000); its thread ends.
    func requestClose() { link.requestClose() }

    /// Closes the connection, waits until its thread has ended.
    func close() async {
        requestClose()
        _ = await ended()
        link.join()
    }

    /// Waits until the connection ends; nil when this side closed it.
    func ended() async -> GatewayClientError? {
        await withCheckedContinuation { (continuation: CheckedContinuation<GatewayClientError?, Never>) in
            let done: GatewayClientError?? = lock.withLock {
                if ending == nil { endWaiters.append(continuation) }
                return ending
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}
