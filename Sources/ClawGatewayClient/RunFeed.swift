@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// The queue behind a `ChatRun`: the I/O thread applies each of the run's events to the reply as it
/// arrives, and keeps at most one update the reader has not taken yet, merging the next ones into it.
/// Every `chat` delta carries the whole text so far, so queuing events (or updates) for a slow reader
/// held memory in the square of the reply; merged, it holds the reply about twice, whatever the pace.
final class RunFeed: EventSink, @unchecked Sendable {
    let runId: String
    let sessionKey: String
    private let lock = TransportLock()
    private var assembler = ReplyAssembler()
    /// What the reader has not seen yet, merged into one update.
    private var pending: ChatUpdate?
    /// Set once the run ended (its last update may still be pending).
    private var runEnd: ReplyAssembler.End?
    private var ending: (any Error)?? = nil  // nil: open; .some(nil): ended; .some(error): failed
    private var waiter: CheckedContinuation<Step, any Error>?
    /// Set once the run's abort was posted: it goes out once, whoever asks first.
    private var abortClaimed = false
    /// Set once `next()` handed out the final update or the run's failure.
    private var readerSawEnd = false

    /// What `next()` hands the iterator.
    enum Step {
        case update(ChatUpdate)
        /// The run ended aborted or with an error (its updates before that were all delivered).
        case failed(ReplyAssembler.End)
        /// The connection ended before the run did.
        case closed((any Error)?)
    }

    init(runId: String, sessionKey: String) {
        self.runId = runId
        self.sessionKey = sessionKey
    }

    /// Whether the reader was handed the run's end, or the connection ended.
    var hasEnded: Bool { lock.withLock { readerSawEnd || ending != nil } }

    /// True the first time only, and only while the reader has not been handed the run's end (a run
    /// whose final event is queued but not taken is still the reader's to abort): the caller then posts
    /// the abort.
    func claimAbort() -> Bool {
        lock.withLock {
            guard !abortClaimed, !readerSawEnd, ending == nil else { return false }
            abortClaimed = true
            return true
        }
    }

    func accepts(_ event: GatewayEvent) -> Bool {
        (event.name == GatewayEventName.chat || event.name == GatewayEventName.agent) && event.runId == runId
    }

    /// A run is bounded by the gateway and merged here: it never holds the connection back.
    var isFull: Bool { false }
    func feed(from wake: @escaping @Sendable () -> Void) {}

    /// The I/O thread's side: one event of the run.
    func offer(_ event: GatewayEvent) {
        let ready: (CheckedContinuation<Step, any Error>, Step)? = lock.withLock {
            guard ending == nil, runEnd == nil else { return nil }
            let applied = event.name == GatewayEventName.agent
                ? assembler.apply(agent: event.rawPayload) : assembler.apply(chat: event.rawPayload)
            if let end = applied.end {
                runEnd = end
                if end.state == .final { pending = ChatUpdate(applied, isFinal: true).merged(after: pending) }
            } else {
                guard applied.change != .none || applied.gap != nil || applied.progress != nil else { return nil }
                pending = ChatUpdate(applied, isFinal: false).merged(after: pending)
            }
            guard let waiter, let step = takeStep() else { return nil }
            self.waiter = nil
            return (waiter, step)
        }
        if let (waiter, step) = ready { waiter.resume(returning: step) }
    }

    func finish(_ error: (any Error)?) {
        let waiting: (CheckedContinuation<Step, any Error>, Step)? = lock.withLock {
            guard ending == nil else { return nil }
            ending = .some(error)
            guard let waiter, let step = takeStep() else { return nil }
            self.waiter = nil
            return (waiter, step)
        }
        if let (waiter, step) = waiting { waiter.resume(returning: step) }
    }

    /// Under the lock: what the reader gets now, or nil when it must wait.
    private func takeStep() -> Step? {
        if let update = pending {
            pending = nil
            if update.isFinal { readerSawEnd = true }
            return .update(update)
        }
        if let runEnd, runEnd.state != .final {
            readerSawEnd = true
            return .failed(runEnd)
        }
        if runEnd != nil { return nil }  // the final update was taken: the iterator ends by itself
        if let ending { return .closed(ending) }
        return nil
    }

    /// The reader's side: the next step, or `CancellationError` when its task is cancelled, whether or
    /// not an update is waiting.
    func next() async throws -> Step {
        try Task.checkCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Step, any Error>) in
                let now: Result<Step, any Error>? = lock.withLock {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let step = takeStep() { return .success(step) }
                    waiter = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiting = lock.withLock { () -> CheckedContinuation<Step, any Error>? in
                defer { waiter = nil }
                return waiter
            }
            waiting?.resume(throwing: CancellationError())
        }
    }
}

extension ChatUpdate {
    /// This update as the reader sees it when `earlier` was never taken: one change from the text
    /// before `earlier` to this text, the latest progress, the first gap.
    func merged(after earlier: ChatUpdate?) -> ChatUpdate {
        guard let earlier else { return self }
        let change: Change
        switch (earlier.change, self.change) {
        case (.unchanged, let later): change = later
        case (let first, .unchanged): change = first
        case (.appended(let first), .appended(let later)): change = .appended(first + later)
        default: change = .rewritten
        }
        return ChatUpdate(text: text, change: change, progress: progress, gap: earlier.gap.map { first in
            SequenceGap(expected: first.expected, received: gap?.received ?? first.received)
        } ?? gap, isFinal: isFinal)
    }
}
