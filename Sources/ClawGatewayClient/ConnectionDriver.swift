@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// One gateway connection driven by a thread of its own: the same single-threaded session and poll
/// loop as the CLI (connect, keepalive, frames), with async callers handing it work through a queue
/// and a wake-up descriptor. No blocking call ever holds a thread of the cooperative pool.
///
/// Everything under `lock` is shared with callers; the session, the keepalive rule and the sequence
/// tracker belong to the I/O thread alone.
final class ConnectionDriver: @unchecked Sendable {
    private let lock = TransportLock()
    private let wake: WakeSignal
    /// Readable once the connection is to close: it alone interrupts the connect (a wake-up for other
    /// work, a consumer making room, must not).
    private let cancelled: WakeSignal
    private let requestTimeout: Double
    /// The environment ssh is started with: the configuration's own, when `official(environment:)` had one.
    private let environment: Environment
    private let pingInterval: Double
    let eventBufferLimit: Int

    // Shared state (under `lock`).
    private var outbox: [Outgoing] = []
    private var pending: [String: PendingRequest] = [:]
    private var subscribers: [ObjectIdentifier: any EventSink] = [:]
    /// A long-lived client's buffers: fed while this connection lasts, left open when it ends.
    private var borrowed: [ObjectIdentifier: any EventSink] = [:]
    /// A frame arrived after hello-ok (the reconnect rule's "healthy").
    private var heardSinceHello = false
    /// What a `shutdown` event announced: how long until the gateway is back.
    private var announcedRestart: Double?
    private var closeRequested = false
    /// Set once the connection has ended: nil error when this side closed it.
    private var ending: GatewayClientError?? = nil
    private var endWaiters: [CheckedContinuation<GatewayClientError?, Never>] = []
    private var nextRequestNumber = 0
    private var thread: JoinableThread?
    private var helloValue: GatewayHello?

    /// A request to write, queued by a caller for the I/O thread.
    private struct Outgoing {
        let id: String
        let method: String
        let params: RawJSON?
    }

    private struct PendingRequest {
        let method: String
        let continuation: CheckedContinuation<RawJSON, any Error>
        let deadline: Deadline
    }

    private init(_ configuration: GatewayConfiguration) throws(GatewayClientError) {
        do {
            wake = try WakeSignal()
            cancelled = try WakeSignal()
        } catch {
            throw GatewayClientError(.connectionFailed, "cannot make a wake-up pipe: \(error)")
        }
        requestTimeout = configuration.requestTimeout.seconds
        environment = configuration.environment ?? .current()
        pingInterval = configuration.pingInterval.seconds
        eventBufferLimit = configuration.eventBufferLimit
    }

    var hello: GatewayHello { lock.withLock { helloValue! } }

    /// Connects on a new I/O thread and returns once the gateway has let us in. Cancelling the calling
    /// task stops the attempt at once (the thread's waits watch the wake-up descriptor).
    /// `lending`: a long-lived client's buffers, fed from the first frame on.
    static func open(_ configuration: GatewayConfiguration, lending: [EventBuffer] = []) async throws -> ConnectionDriver {
        let options = try configuration.sessionOptions()
        let driver = try ConnectionDriver(configuration)
        for buffer in lending { driver.lend(buffer) }
        do {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (connected: CheckedContinuation<Void, any Error>) in
                    do {
                        let thread = try JoinableThread(name: "claw-io") { driver.run(options, connected: connected) }
                        driver.lock.withLock { driver.thread = thread }
                    } catch {
                        connected.resume(throwing: GatewayClientError(.connectionFailed, "cannot start a thread: \(error)"))
                    }
                }
            } onCancel: {
                driver.requestClose()
            }
        } catch {
            driver.joinThread()
            throw error  // a GatewayClientError, or CancellationError when the task was cancelled
        }
        return driver
    }

    // MARK: - The I/O thread

    private func run(_ options: SessionOptions, connected: CheckedContinuation<Void, any Error>) {
        // The engine's way in, as the CLI's: the SSH step when there is a route, then the connect; a
        // close request (the `cancelled` descriptor) ends every wait of both.
        let connector = GatewayConnector(options: options, environment: environment, interrupt: cancelled.descriptor)
        let session: GatewaySession
        do {
            let deadline = Deadline.after(seconds: options.connectTimeout)
            let dial: SessionOptions
            do { dial = try connector.route(deadline: deadline) } catch {
                throw GatewayClientError(tunnel: error, target: options.sshRoute.map { "\($0.target)" } ?? "")
            }
            do { session = try connector.connect(dial, deadline: deadline) } catch { throw GatewayClientError(error) }
        } catch {
            connector.stopTunnel()
            let cancelled = lock.withLock { closeRequested }
            end(with: .closedByThisSide)
            if cancelled { connected.resume(throwing: CancellationError()) } else { connected.resume(throwing: error) }
            return
        }
        let stopped: Bool = lock.withLock {
            helloValue = GatewayHello(session.hello)
            return closeRequested
        }
        if stopped {
            session.close()
            connector.stopTunnel()
            end(with: nil)
            connected.resume(throwing: CancellationError())
            return
        }
        connected.resume()
        let failure = follow(session)
        if failure == nil { session.close(code: 1000, reason: "") }
        connector.stopTunnel()
        end(with: failure)
    }

    /// Sends queued requests, routes frames and keeps the link alive (the engine's pump, as the CLI's
    /// loop) until it ends; nil when this side closed it.
    private func follow(_ session: GatewaySession) -> GatewayClientError? {
        let pump = GatewayPump(session: session, pingInterval: pingInterval)
        var outer = SequenceTracker()
        let numbersPerConnection = session.hello.protocolVersion >= 4
        while true {
            let (work, closing) = lock.withLock { () -> ([Outgoing], Bool) in
                defer { outbox.removeAll(keepingCapacity: true) }
                return (outbox, closeRequested)
            }
            // Work queued before a close still goes out first (an abort from a cancelled run).
            for item in work {
                do {
                    try session.send(method: item.method, params: item.params, id: item.id, deadline: .after(seconds: 10))
                } catch {
                    // Too large for the gateway: only this request fails.
                    if case .invalidRequest = error { fail(item.id, GatewayClientError(error)); continue }
                    return GatewayClientError(error)
                }
            }
            if closing { return nil }
            let behind = consumerIsBehind()
            if !behind {
                var taken = 0
                do {
                    while taken < 256, let frame = try pump.take() {
                        taken += 1
                        route(frame, outer: &outer, numbersPerConnection: numbersPerConnection)
                        if consumerIsBehind() { break }
                    }
                } catch {
                    return GatewayClientError(error)
                }
                if taken > 0 {
                    lock.withLock { heardSinceHello = true }
                    continue  // the queue is looked at again before any wait
                }
            }
            let nextExpiry = expireRequests()
            if !behind && session.hasBufferedInput { continue }
            if !session.isOpen && !behind { continue }  // the next receive reports how it ended
            do {
                let ready = try pump.wait(wake.descriptor, cancelled.descriptor, until: nextExpiry, consumerBehind: behind)
                if ready.first { wake.drain() }
            } catch {
                return GatewayClientError(error)
            }
        }
    }

    private func route(_ frame: GatewayFrame, outer: inout SequenceTracker, numbersPerConnection: Bool) {
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
            var gap: SequenceGap? = nil
            if let seq, numbersPerConnection, let expected = outer.record(seq) {
                gap = SequenceGap(expected: expected, received: seq)
            }
            let event = GatewayEvent(name: name, rawPayload: frame.payload ?? .null, seq: seq, gap: gap)
            let restart = name == GatewayEventName.shutdown ? ReconnectSchedule.restartDelay(announcedBy: frame.payload) : nil
            let buffers = lock.withLock {
                if let restart { announcedRestart = restart }
                return Array(subscribers.values) + Array(borrowed.values)
            }
            for buffer in buffers where buffer.accepts(event) { buffer.offer(event) }
        case .request, .unknown:
            break  // nothing this client answers; skipped for forward compatibility
        }
    }

    private func consumerIsBehind() -> Bool {
        lock.withLock { subscribers.values.contains { $0.isFull } || borrowed.values.contains { $0.isFull } }
    }

    /// Fails requests whose time is up; returns when the next one's will be.
    private func expireRequests() -> Deadline {
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

    private func fail(_ id: String, _ error: GatewayClientError) {
        lock.withLock { pending.removeValue(forKey: id) }?.continuation.resume(throwing: error)
    }

    /// The connection has ended: every waiting request and subscription learns why.
    private func end(with failure: GatewayClientError?) {
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
                    if closeRequested { return GatewayClientError.closedByThisSide }
                    pending[id] = PendingRequest(method: method, continuation: continuation, deadline: deadline)
                    outbox.append(Outgoing(id: id, method: method, params: params))
                    return nil
                }
                if let refusal { continuation.resume(throwing: refusal) } else { wake.signal() }
            }
        } onCancel: {
            fail(id, .closedByThisSide)
        }
    }

    /// Sends a request without waiting for its answer (an abort from a cancelled task).
    func post(_ method: String, params: RawJSON?) {
        let queued: Bool = lock.withLock {
            guard ending == nil, !closeRequested else { return false }
            nextRequestNumber += 1
            outbox.append(Outgoing(id: "c\(nextRequestNumber)", method: method, params: params))
            return true
        }
        if queued { wake.signal() }
    }

    /// A new subscription to the connection's events that `accepts` lets through.
    func subscribe(limit: Int? = nil, accepts: @escaping @Sendable (GatewayEvent) -> Bool) -> EventSubscription {
        subscribe(EventBuffer(limit: limit ?? eventBufferLimit, accepts: accepts))
    }

    /// Feeds `buffer` (an event buffer or a run's feed) the events it accepts while it is subscribed.
    func subscribe(_ buffer: some EventSink) -> EventSubscription {
        buffer.feed(from: { [wake] in wake.signal() })
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
            wake.signal()  // it may have been the one holding frames back
        }
    }

    /// Feeds a long-lived client's buffer while this connection lasts.
    func lend(_ buffer: EventBuffer) {
        buffer.feed(from: { [wake] in wake.signal() })
        lock.withLock { if ending == nil { borrowed[ObjectIdentifier(buffer)] = buffer } }
    }

    func stopLending(_ buffer: EventBuffer) {
        lock.withLock { _ = borrowed.removeValue(forKey: ObjectIdentifier(buffer)) }
        wake.signal()
    }

    /// For the reconnect rule: whether the gateway sent anything after hello-ok, and any restart delay it announced.
    var health: (heardSinceHello: Bool, announcedRestart: Double?) { lock.withLock { (heardSinceHello, announcedRestart) } }

    var isOpen: Bool { lock.withLock { ending == nil && !closeRequested } }

    func requestClose() {
        lock.withLock { closeRequested = true }
        cancelled.signal()
    }

    /// Closes the connection (close frame 1000), waits until its thread has ended.
    func close() async {
        requestClose()
        _ = await ended()
        joinThread()
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

    /// The thread has resumed every waiter as its last act: joining takes no time.
    func joinThread() {
        let thread = lock.withLock { self.thread }
        thread?.join()
    }
}

/// Keeps a subscription registered while any copy of its stream exists.
final class EventSubscription: Sendable {
    let sink: any EventSink
    /// The subscription's events, for an event stream.
    var buffer: EventBuffer { sink as! EventBuffer }
    private let release: @Sendable () -> Void

    init(buffer: any EventSink, release: @escaping @Sendable () -> Void) {
        sink = buffer
        self.release = release
    }

    convenience init(buffer: any EventSink, driver: ConnectionDriver) {
        self.init(buffer: buffer) { [weak driver] in driver?.unsubscribe(buffer) }
    }

    func cancel() { release() }

    deinit { release() }
}
