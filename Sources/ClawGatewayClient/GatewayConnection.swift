@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// One authenticated connection to a gateway, for a job that connects, does its work and leaves (a
/// cron job, a script). It does not reconnect: for a program that stays connected, use `GatewayClient`.
///
/// ```swift
/// let reply = try await GatewayConnection.withConnection(configuration) { gateway in
///     try await gateway.send("What is on my calendar today?").reply()
/// }
/// ```
/// All methods may be called from any task, concurrently. The connection runs on a thread of its
/// own, so it never blocks the cooperative thread pool.
public final class GatewayConnection: Sendable {
    let driver: ConnectionDriver
    /// A connection made by `connect` is closed when the last reference goes; one lent by a
    /// `GatewayClient` belongs to the client.
    private let ownsDriver: Bool

    /// What the gateway said about itself when it let us in.
    public let hello: GatewayHello

    init(driver: ConnectionDriver, owned: Bool) {
        self.driver = driver
        ownsDriver = owned
        hello = driver.hello
    }

    deinit {
        // Forgotten without close(): the thread still ends (and detaches), with close frame 1000.
        if ownsDriver { driver.requestClose() }
    }

    /// Connects and authenticates. Throws `GatewayClientError`, or `CancellationError` when the
    /// calling task is cancelled meanwhile. Call `close()` when done, or use `withConnection`.
    public static func connect(_ configuration: GatewayConfiguration) async throws -> GatewayConnection {
        GatewayConnection(driver: try await ConnectionDriver.open(configuration), owned: true)
    }

    /// Connects, runs `body`, and closes the connection (close frame 1000) however `body` ends.
    /// (`Result` is `Sendable`: Swift 6.0, which Debian ships, cannot return another across the isolation
    /// boundary.)
    @discardableResult
    public static func withConnection<Result: Sendable>(
        _ configuration: GatewayConfiguration,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (GatewayConnection) async throws -> Result
    ) async throws -> Result {
        let connection = try await connect(configuration)
        do {
            // Runs started inside are aborted the moment this task is cancelled (RunScope).
            let result = try await RunScope.run { try await body(connection) }
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Sends any gateway method and returns the `payload` of its answer. A refusal throws
    /// `GatewayClientError.requestFailed` with the gateway's code and message; cancelling the task
    /// stops waiting (the gateway may still act on a request already sent).
    public func request(_ method: String, params: JSONValue? = nil, timeout: Duration? = nil) async throws -> JSONValue {
        JSONValue(try await driver.request(method, params: params?.storage, timeout: timeout?.seconds))
    }

    /// Sends a message to a session (`chat.send`) and returns its run, which streams the reply.
    /// `idempotencyKey` (default: a new UUID) is also the run id: sending again with the same key
    /// never starts a second run. Cancelling the task that started the run aborts it (`chat.abort`, once):
    /// at once inside `withConnection`, whatever the task is doing; otherwise when the run's `next()` or
    /// `reply()` sees the cancellation, or when the cancelled task drops the run unfinished.
    public func send(_ message: String, to session: SessionKey = .main, idempotencyKey: String? = nil,
                     extraParams: [String: JSONValue] = [:]) async throws -> ChatRun {
        let runId = idempotencyKey ?? SecureRandom.uuid()
        // Subscribed before sending: events of the run may overtake the answer to chat.send. A run's
        // feed merges what its reader has not taken, so it never holds the connection back: a run left
        // unread must not stall the connection's other requests.
        let feed = RunFeed(runId: runId, sessionKey: session.rawValue)
        RunScope.current?.adopt(feed, driver: driver)
        let subscription = driver.subscribe(feed)
        var params: JSONObject = [ChatField.sessionKey: .string(session.rawValue), ChatField.message: .string(message),
                                  "idempotencyKey": .string(runId)]
        for member in extraParams.sortedMembers { params[member.key] = member.value }
        let ack: RawJSON
        do {
            ack = try await driver.request(GatewayMethod.chatSend, params: .object(params), timeout: nil)
        } catch {
            // Cancelled before the answer: the request may have gone out and started the run, which
            // would go on for no one. Its id is ours (the idempotency key): abort it, once.
            if error is CancellationError || Task.isCancelled { driver.abort(feed) }
            subscription.cancel()
            throw error
        }
        return ChatRun(runId: runId, sessionKey: session, acknowledgement: ack, subscription: subscription, driver: driver)
    }

    /// The session's transcript (`chat.history`): its last `limit` messages (the gateway's default when
    /// nil), oldest first.
    public func history(of session: SessionKey = .main, limit: Int? = nil) async throws -> [ChatMessage] {
        var params: JSONObject = [ChatField.sessionKey: .string(session.rawValue)]
        if let limit { params["limit"] = RawJSON(limit) }
        let payload = try await driver.request(GatewayMethod.chatHistory, params: .object(params), timeout: nil)
        return (payload["messages"]?.arrayValue ?? []).map { ChatMessage(JSONValue($0)) }
    }

    /// Aborts a session's active run, or only `runId` (`chat.abort`); returns the ids of the runs aborted.
    @discardableResult
    public func abort(session: SessionKey = .main, runId: String? = nil) async throws -> [String] {
        var params: JSONObject = [ChatField.sessionKey: .string(session.rawValue)]
        if let runId { params[ChatField.runId] = .string(runId) }
        let payload = try await driver.request(GatewayMethod.chatAbort, params: .object(params), timeout: nil)
        return payload["runIds"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Every event this connection receives from now on, in order, until the connection ends. While
    /// the stream exists and its consumer lags `GatewayConfiguration.eventBufferLimit` events, the
    /// connection reads no further (back-pressure); drop the stream to stop receiving.
    public func events() -> GatewayEventStream {
        GatewayEventStream(subscription: driver.subscribe { _ in true })
    }

    /// Subscribes to a session feed for the duration of `body`: `sessions.subscribe` (runs of any
    /// session starting and ending) or `sessions.messages.subscribe` (a session's new messages), then
    /// the matching unsubscribe when `body` returns or throws. The stream carries what the
    /// subscription adds (`sessions.changed`, or `session.message`); `events()` has every event.
    @discardableResult
    public func withSubscription<Result: Sendable>(
        _ feed: SessionFeed,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (GatewayEventStream) async throws -> Result
    ) async throws -> Result {
        let name = feed.eventName
        let stream = GatewayEventStream(subscription: driver.subscribe { $0.name == name })
        _ = try await driver.request(feed.subscribeMethod, params: feed.params, timeout: nil)
        do {
            let result = try await body(stream)
            _ = try? await driver.request(feed.unsubscribeMethod, params: feed.params, timeout: nil)
            return result
        } catch {
            _ = try? await driver.request(feed.unsubscribeMethod, params: feed.params, timeout: nil)
            throw error
        }
    }

    /// False once the connection has ended or is closing.
    public var isOpen: Bool { driver.isOpen }

    /// Waits until the connection ends: nil when `close()` ended it, else the reason it was lost.
    public func closed() async -> GatewayClientError? { await driver.ended() }

    /// Closes the connection (close frame 1000) and waits until its thread has ended. Requests still
    /// waiting fail with `GatewayClientError.closed`; event streams end. Safe to repeat. A connection
    /// lent by `GatewayClient.withConnection` belongs to the client: closing it does nothing.
    public func close() async {
        if ownsDriver { await driver.close() }
    }
}

/// A session feed a connection can subscribe to.
public enum SessionFeed: Sendable, Hashable {
    /// `sessions.changed`: runs of any session starting and ending.
    case sessions
    /// `session.message`: messages appended to one session's transcript.
    case messages(session: SessionKey)

    var subscribeMethod: String {
        switch self {
        case .sessions: return GatewayMethod.sessionsSubscribe
        case .messages: return GatewayMethod.sessionsMessagesSubscribe
        }
    }

    var unsubscribeMethod: String {
        switch self {
        case .sessions: return GatewayMethod.sessionsUnsubscribe
        case .messages: return GatewayMethod.sessionsMessagesUnsubscribe
        }
    }

    var params: RawJSON {
        switch self {
        case .sessions: return [:]
        case .messages(let session): return ["key": .string(session.rawValue)]
        }
    }

    /// The event the subscription adds: what its stream carries (`events()` has the rest).
    var eventName: String {
        switch self {
        case .sessions: return GatewayEventName.sessionsChanged
        case .messages: return GatewayEventName.sessionMessage
        }
    }
}
