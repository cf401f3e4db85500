@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawJSON

/// Cancelling the task that started a run aborts the run at once (`chat.abort`, once), whichever await
/// sees the cancellation, even while the reader is blocked writing its output.
///
/// A scope (`withConnection`, `GatewayClient.withConnection`) registers a cancellation handler for its
/// whole life and collects the runs started inside it (by its task or the task's children, through a
/// task-local value): the handler posts their aborts from the cancelling thread, so nothing waits for
/// the reader's next call. Outside a scope a run is aborted by the first of: its `next()` or `reply()`
/// seeing the cancellation, or the run being dropped unfinished by a cancelled task.
final class RunScope: Sendable {
    @TaskLocal static var current: RunScope?

    private let lock = TransportLock()
    private nonisolated(unsafe) var runs: [(feed: RunFeed, driver: ConnectionDriver)] = []

    /// A run started inside this scope; ended runs are forgotten as new ones come.
    func adopt(_ feed: RunFeed, driver: ConnectionDriver) {
        lock.withLock {
            runs.removeAll { $0.feed.hasEnded }
            runs.append((feed, driver))
        }
    }

    /// The scope's task was cancelled: every run of it still going is aborted.
    func abortUnfinished() {
        let started = lock.withLock { runs }
        for run in started { run.driver.abort(run.feed) }
    }

    /// Runs `body` as a scope whose runs are aborted the moment its task is cancelled.
    static func run<Result>(isolation: isolated (any Actor)? = #isolation,
                            _ body: () async throws -> Result) async throws -> Result {
        let scope = RunScope()
        return try await $current.withValue(scope) {
            try await withTaskCancellationHandler(operation: body, onCancel: { scope.abortUnfinished() })
        }
    }
}

/// Held by every copy of a `ChatRun`: when the last one goes while its task is cancelled (a loop left
/// by a `Task.sleep` that threw) and the run has not ended, the run is aborted.
/// It owns the run's subscription, so the abort is decided before the subscription ends the feed.
final class RunAbandonment: Sendable {
    let subscription: EventSubscription
    let feed: RunFeed
    let driver: ConnectionDriver

    init(subscription: EventSubscription, driver: ConnectionDriver) {
        self.subscription = subscription
        feed = subscription.sink as! RunFeed
        self.driver = driver
    }

    deinit {
        if Task.isCancelled { driver.abort(feed) }
    }
}

extension ConnectionDriver {
    /// Posts the run's `chat.abort` unless it was posted already or the run has ended.
    func abort(_ feed: RunFeed) {
        guard feed.claimAbort() else { return }
        post(GatewayMethod.chatAbort, params: [ChatField.sessionKey: .string(feed.sessionKey), ChatField.runId: .string(feed.runId)])
    }
}
