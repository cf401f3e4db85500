@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// One run of the agent, started by `GatewayConnection.send`: an async sequence of the reply as it
/// grows, in the run's own order (`seq`), ending after the final reply. A run that ends aborted or
/// with an error throws a `GatewayClientError` with code `.runFailed`. Cancelling the task that started
/// it sends `chat.abort` for the run once (see `GatewayConnection.send`), and its next step throws
/// `CancellationError`, updates waiting or not. Updates the reader has not taken yet are merged into one (see `ChatUpdate`), so a slow reader
/// holds the reply about twice, never every update. Iterate it once, from one task.
public struct ChatRun: AsyncSequence, Sendable {
    public typealias Element = ChatUpdate

    /// The run id (the idempotency key).
    public let runId: String
    public let sessionKey: SessionKey
    /// The gateway's answer to `chat.send` (`{"runId":…,"status":"started"}`).
    public var acknowledgement: JSONValue { JSONValue(ack) }
    let ack: RawJSON
    let driver: ConnectionDriver
    /// Holds the run's subscription; aborts the run when a cancelled task drops it unfinished.
    let abandonment: RunAbandonment
    var subscription: EventSubscription { abandonment.subscription }
    var feed: RunFeed { abandonment.feed }

    init(runId: String, sessionKey: SessionKey, acknowledgement: RawJSON, subscription: EventSubscription,
         driver: ConnectionDriver) {
        self.runId = runId
        self.sessionKey = sessionKey
        ack = acknowledgement
        self.driver = driver
        abandonment = RunAbandonment(subscription: subscription, driver: driver)
    }

    /// Whether the gateway started no run for this message: a stop command (`/stop`), or the same
    /// idempotency key already ran to its end (`status: "ok"`). Such a run's sequence is empty.
    public var startedNoRun: Bool {
        let status = ack["status"]?.stringValue
        return status == nil || status == ChatSendStatus.ok.rawValue
    }

    public func makeAsyncIterator() -> Iterator { Iterator(run: self) }

    /// Waits for the end of the run and returns the final reply's text. For a key that already ran
    /// to its end (`status: "ok"`), the reply is looked up in the session's transcript.
    public func reply() async throws -> String {
        if ack["status"]?.stringValue == ChatSendStatus.ok.rawValue { return try await replyFromHistory() }
        // The abort goes out when the task is cancelled, not when the next update arrives.
        return try await withTaskCancellationHandler {
            var text = ""
            for try await update in self { text = update.text }
            return text
        } onCancel: { [driver, feed] in driver.abort(feed) }
    }

    /// The transcript's assistant message of this run, as the CLI finds it.
    private func replyFromHistory() async throws -> String {
        let params: RawJSON = [ChatField.sessionKey: .string(sessionKey.rawValue), "limit": 50]
        let payload = try await driver.request(GatewayMethod.chatHistory, params: params, timeout: nil)
        let messages = (payload["messages"]?.arrayValue ?? []).map { ChatMessage(JSONValue($0)) }
        guard let ours = messages.last(where: { $0.isFromAssistant && $0.mentions(run: runId) }) else {
            throw GatewayClientError.runFailed(runId, state: "ok",
                                               reason: "it already ran and its reply is no longer in the transcript's last 50 messages")
        }
        return ours.text
    }

    public struct Iterator: AsyncIteratorProtocol {
        let run: ChatRun
        private var ended = false

        init(run: ChatRun) {
            self.run = run
            ended = run.startedNoRun
            if ended { run.subscription.cancel() }
        }

        /// The next update; nil after the final one. Once the iterating task is cancelled it sends
        /// `chat.abort` for the run and throws `CancellationError`, even with updates waiting.
        public mutating func next() async throws -> ChatUpdate? {
            guard !ended else { return nil }
            let step: RunFeed.Step
            do {
                step = try await run.feed.next()
            } catch {
                ended = true
                run.driver.abort(run.feed)
                run.subscription.cancel()
                throw error
            }
            switch step {
            case .update(let update):
                if update.isFinal {
                    ended = true
                    run.subscription.cancel()
                }
                return update
            case .failed(let end):
                ended = true
                run.subscription.cancel()
                throw GatewayClientError.runFailed(run.runId, state: end.state.rawValue,
                                                   reason: end.errorMessage ?? end.stopReason ?? end.errorKind)
            case .closed(let error):
                ended = true
                throw error ?? GatewayClientError.closedByThisSide
            }
        }
    }
}

/// The reply of a run as it grows. When the reader falls behind, the updates it missed arrive merged:
/// `change` then spans them all (suffixes joined, `.rewritten` if any rewrote), `progress` is the
/// latest and `gap` covers the first to the last missing number.
public struct ChatUpdate: Sendable, Equatable {
    /// How the text differs from the previous update's.
    public enum Change: Sendable, Equatable {
        case unchanged
        /// The new text is the old one plus this.
        case appended(String)
        /// The new text does not extend the old one: show `text` again.
        case rewritten
    }

    /// The whole reply so far.
    public let text: String
    public let change: Change
    /// What this update added to the end of the previous text (`change` is `.appended`), else nil.
    public var appended: String? { if case .appended(let suffix) = change { return suffix }; return nil }
    /// A status line while the agent works ("thinking…", "running read…"); nil while text flows.
    public let progress: String?
    /// Run events that never arrived before this one (the text catches up at the next snapshot).
    public let gap: SequenceGap?
    /// The last update: `text` is the final reply.
    public let isFinal: Bool

    init(text: String, change: Change, progress: String?, gap: SequenceGap?, isFinal: Bool) {
        self.text = text
        self.change = change
        self.progress = progress
        self.gap = gap
        self.isFinal = isFinal
    }

    init(_ update: ReplyAssembler.Update, isFinal: Bool) {
        text = update.text
        switch update.change {
        case .none: change = .unchanged
        case .append(let suffix): change = .appended(suffix)
        case .redraw: change = .rewritten
        }
        progress = update.progress
        gap = update.gap.map { SequenceGap(expected: $0.expected, received: $0.received) }
        self.isFinal = isFinal
    }
}
