@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// A client that stays connected: `run()` connects, keeps the link alive, reconnects with backoff
/// when it is lost, subscribes again to the feeds its users asked for, and closes when its task is
/// cancelled. The shape a server registers as a long-running service.
///
/// ```swift
/// let client = GatewayClient(configuration: configuration)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await client.run() }
///     for try await event in client.events() { … }
/// }
/// ```
/// Requests made while it is between connections wait for the next one (up to the request timeout).
public final class GatewayClient: Sendable {
    public let configuration: GatewayConfiguration
    private let state: ClientState

    public init(configuration: GatewayConfiguration) {
        self.configuration = configuration
        state = ClientState()
    }

    /// Connects and stays connected until the calling task is cancelled (then it closes the
    /// connection and returns). Throws when the gateway refuses us for good (authentication, pairing,
    /// a certificate), or after `ReconnectPolicy.maxAttempts` failed attempts in a row.
    /// Call it once: a second call throws `GatewayClientError.closed`.
    public func run() async throws {
        guard state.begin() else { throw GatewayClientError.closedByThisSide }
        do {
            // The engine's driver runs the connection's whole life on the link's thread: connects, keeps
            // alive, waits and reconnects as its machine decides, and tells `state` as it goes.
            let link = try LinkThread.start(configuration, observer: state)
            let failure = await withTaskCancellationHandler {
                await link.finished()
            } onCancel: {
                link.requestClose()
            }
            link.join()
            if let failure, !Task.isCancelled { throw failure }
            state.finish(nil)
        } catch {
            // Those waiting for a connection learn why there will be none.
            state.finish(error)
            throw error
        }
    }

    /// The connection states from now on, in order: connecting, connected, waiting to reconnect, closed.
    public func states() -> AsyncStream<ConnectionState> { state.states() }

    /// What the gateway said when the current connection was made; nil between connections.
    public var hello: GatewayHello? { state.current?.hello }

    /// Sends any gateway method on the current connection, waiting for one if there is none.
    public func request(_ method: String, params: JSONValue? = nil, timeout: Duration? = nil) async throws -> JSONValue {
        let seconds = timeout?.seconds ?? configuration.requestTimeout.seconds
        let driver = try await state.waitForConnection(timeout: seconds)
        return JSONValue(try await driver.request(method, params: params?.storage, timeout: seconds))
    }

    /// Runs `body` with the current connection (waiting for one): for a chat run, history, abort. A run
    /// does not survive a reconnect: its sequence throws the error that ended the connection.
    /// The connection belongs to the client: `close()` on it does nothing.
    @discardableResult
    public func withConnection<Result: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (GatewayConnection) async throws -> Result
    ) async throws -> Result {
        let driver = try await state.waitForConnection(timeout: configuration.requestTimeout.seconds)
        let connection = GatewayConnection(driver: driver, owned: false)
        // Runs started inside are aborted the moment this task is cancelled (RunScope).
        return try await RunScope.run { try await body(connection) }
    }

    /// Every event of every connection from now on, in order; the stream outlives reconnects and
    /// ends when `run()` ends. Nothing is replayed after a reconnect: each connection numbers its
    /// events afresh, so events sent while disconnected are simply not seen (no `SequenceGap` tells).
    public func events() -> GatewayEventStream {
        let buffer = EventBuffer(limit: configuration.eventBufferLimit, accepts: { _ in true })
        return GatewayEventStream(subscription: state.adopt(buffer))
    }

    /// Sends a message on the current connection (waiting for one); see `GatewayConnection.send`.
    public func send(_ message: String, to session: SessionKey = .main, idempotencyKey: String? = nil,
                     extraParams: [String: JSONValue] = [:]) async throws -> ChatRun {
        let driver = try await state.waitForConnection(timeout: configuration.requestTimeout.seconds)
        return try await GatewayConnection(driver: driver, owned: false)
            .send(message, to: session, idempotencyKey: idempotencyKey, extraParams: extraParams)
    }

    /// Subscribes to a session feed for the duration of `body`, again after every reconnect. The stream
    /// carries what the subscription adds (`sessions.changed`, or `session.message`); `events()` has
    /// every event.
    @discardableResult
    public func withSubscription<Result: Sendable>(
        _ feed: SessionFeed,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (GatewayEventStream) async throws -> Result
    ) async throws -> Result {
        let name = feed.eventName
        let stream = GatewayEventStream(subscription: state.adopt(EventBuffer(limit: configuration.eventBufferLimit,
                                                                              accepts: { $0.name == name })))
        let driver = state.addFeed(feed)
        defer { state.removeFeed(feed) }
        // Refused now: the caller hears it (after a reconnect the feed is asked for again quietly).
        if let driver { _ = try await driver.request(feed.subscribeMethod, params: feed.params, timeout: nil) }
        let result = try await body(stream)
        if let current = state.current { _ = try? await current.request(feed.unsubscribeMethod, params: feed.params, timeout: nil) }
        return result
    }
}

/// Where a long-lived client is.
public enum ConnectionState: Sendable, Equatable {
    /// Attempt `attempt` (1 after a healthy connection was lost) is under way.
    case connecting(attempt: Int)
    case connected
    /// The last attempt or connection failed with `reason` (its `code` to decide on, its `description`
    /// to show); the next comes after `delay`.
    case waitingToReconnect(delay: Duration, reason: GatewayClientError)
    /// `run()` has ended.
    case closed

    /// Equal states; two reasons are equal when their code and their words are.
    public static func == (a: ConnectionState, b: ConnectionState) -> Bool {
        switch (a, b) {
        case (.connecting(let x), .connecting(let y)): return x == y
        case (.connected, .connected), (.closed, .closed): return true
        case (.waitingToReconnect(let d1, let r1), .waitingToReconnect(let d2, let r2)):
            return d1 == d2 && r1.code == r2.code && r1.description == r2.description
        default: return false
        }
    }
}

/// The shared, lock-protected part of a `GatewayClient`; what its link's thread tells it.
final class ClientState: LinkObserver, @unchecked Sendable {
    private let lock = TransportLock()
    private var driver: ConnectionDriver?
    private var started = false
    private var ended = false
    /// Why `run()` ended, for those who wait for a connection afterwards.
    private var endError: (any Error)?
    private var buffers: [ObjectIdentifier: EventBuffer] = [:]
    private var stateStreams: [Int: AsyncStream<ConnectionState>.Continuation] = [:]
    private var nextNumber = 0
    private var waiters: [Int: CheckedContinuation<ConnectionDriver, any Error>] = [:]
    private var feedList: [SessionFeed] = []
    var feeds: [SessionFeed] { lock.withLock { feedList } }

    var current: ConnectionDriver? { lock.withLock { driver } }
    var buffersToLend: [EventBuffer] { lock.withLock { Array(buffers.values) } }

    func publish(_ state: ConnectionState) {
        for stream in lock.withLock({ Array(stateStreams.values) }) { stream.yield(state) }
    }

    func states() -> AsyncStream<ConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(of: ConnectionState.self, bufferingPolicy: .bufferingNewest(64))
        let (number, finished): (Int, Bool) = lock.withLock {
            nextNumber += 1
            if !ended { stateStreams[nextNumber] = continuation }
            return (nextNumber, ended)
        }
        if finished { continuation.yield(.closed); continuation.finish() }
        continuation.onTermination = { [weak self] _ in self?.lock.withLock { _ = self?.stateStreams.removeValue(forKey: number) } }
        return stream
    }

    func connecting(attempt: Int) { publish(.connecting(attempt: attempt)) }

    func connected(_ driver: ConnectionDriver) {
        let (ready, lent, feeds) = lock.withLock {
            self.driver = driver
            defer { waiters = [:] }
            return (Array(waiters.values), Array(buffers.values), feedList)
        }
        for buffer in lent { driver.lend(buffer) }
        for waiter in ready { waiter.resume(returning: driver) }
        publish(.connected)
        // Subscriptions belong to a connection: made again on every new one.
        if !feeds.isEmpty {
            Task { for feed in feeds { _ = try? await driver.request(feed.subscribeMethod, params: feed.params, timeout: nil) } }
        }
    }

    func disconnected(_ driver: ConnectionDriver) {
        lock.withLock { if self.driver === driver { self.driver = nil } }
    }

    func waiting(_ seconds: Double, reason: GatewayClientError) {
        publish(.waitingToReconnect(delay: .milliseconds(Int64(seconds * 1000)), reason: reason))
    }

    /// False when `run()` was called before.
    func begin() -> Bool {
        lock.withLock {
            defer { started = true }
            return !started
        }
    }

    func finish(_ error: (any Error)?) {
        let (streams, pendingWaiters, open) = lock.withLock {
            ended = true
            endError = error
            defer { stateStreams = [:]; waiters = [:]; buffers = [:] }
            return (Array(stateStreams.values), Array(waiters.values), Array(buffers.values))
        }
        for stream in streams { stream.yield(.closed); stream.finish() }
        for waiter in pendingWaiters { waiter.resume(throwing: error ?? GatewayClientError.closedByThisSide) }
        for buffer in open { buffer.finish(nil) }
    }

    func adopt(_ buffer: EventBuffer) -> EventSubscription {
        let (driver, finished): (ConnectionDriver?, Bool) = lock.withLock {
            if !ended { buffers[ObjectIdentifier(buffer)] = buffer }
            return (self.driver, ended)
        }
        if finished { buffer.finish(nil) }
        driver?.lend(buffer)
        return EventSubscription(buffer: buffer) { [weak self] in
            guard let self else { return }
            let driver: ConnectionDriver? = self.lock.withLock {
                self.buffers.removeValue(forKey: ObjectIdentifier(buffer))
                return self.driver
            }
            driver?.stopLending(buffer)
            buffer.finish(nil)
        }
    }

    func addFeed(_ feed: SessionFeed) -> ConnectionDriver? {
        lock.withLock {
            feedList.append(feed)
            return driver
        }
    }

    func removeFeed(_ feed: SessionFeed) {
        lock.withLock { if let index = feedList.firstIndex(of: feed) { feedList.remove(at: index) } }
    }

    func waitForConnection(timeout: Double) async throws -> ConnectionDriver {
        if let driver = current { return driver }
        let number = lock.withLock { () -> Int in nextNumber += 1; return nextNumber }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
            self?.failWaiter(number, GatewayClientError(.timedOut, "timed out waiting for a connection to the gateway"))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ConnectionDriver, any Error>) in
                let outcome: Result<ConnectionDriver, any Error>? = lock.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let driver { return .success(driver) }
                    if ended { return .failure(endError ?? GatewayClientError.closedByThisSide) }
                    waiters[number] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            failWaiter(number, CancellationError())
        }
    }

    private func failWaiter(_ number: Int, _ error: any Error) {
        lock.withLock { waiters.removeValue(forKey: number) }?.resume(throwing: error)
    }
}
