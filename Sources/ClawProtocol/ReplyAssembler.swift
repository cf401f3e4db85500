@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
/// One run's reply, built from its `chat` event payloads (docs/protocol.md §5.1) in per-run `seq` order, with a
/// progress line from `status` and `agent` events (§5.2); each applied event returns an `Update` saying what changed.
///
/// Feed it every `chat` and `agent` payload of the run: agent events fill the seq numbers between throttled chat
/// deltas, so without them a `Gap` is reported at almost every delta.
@_spi(Engine) public struct ReplyAssembler: Sendable {
    /// How the run ended: `state` is `.final`, `.aborted` or `.error`, with the event's reasons as sent.
    @_spi(Engine) public struct End: Sendable, Equatable {
        @_spi(Engine) public var state: ChatState
        @_spi(Engine) public var stopReason: String?
        @_spi(Engine) public var errorMessage: String?
        @_spi(Engine) public var errorKind: String?
        /// `errorDetail` of a run that failed at the provider: "provider anthropic, model m, HTTP 529".
        @_spi(Engine) public var providerDetail: String?

        /// The end an event with `payload` and `state` describes.
        @_spi(Engine) public init(state: ChatState, payload: JSONValue?) {
            self.state = state
            stopReason = payload?[ChatField.stopReason]?.stringValue
            errorMessage = payload?[ChatField.errorMessage]?.stringValue
            errorKind = payload?[ChatField.errorKind]?.stringValue
            providerDetail = Self.providerDetail(payload?[ChatField.errorDetail])
        }

        static func providerDetail(_ detail: JSONValue?) -> String? {
            guard let detail, detail.objectValue != nil else { return nil }
            let parts = [detail["provider"]?.stringValue.map { "provider \($0)" },
                         detail["model"]?.stringValue.map { "model \($0)" },
                         detail["httpStatus"]?.intValue.map { "HTTP \($0)" }].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }
    }

    /// Seq numbers `expected..<received` of this run never arrived (lost, or targeted at other connections).
    /// Snapshots (`message`) survive it; `deltaText`-only text may miss a piece until the next snapshot or the final.
    @_spi(Engine) public struct Gap: Sendable, Equatable {
        @_spi(Engine) public var expected: Int64
        @_spi(Engine) public var received: Int64
    }

    /// How the text changed from the previous `Update`'s text.
    @_spi(Engine) public enum Change: Sendable, Equatable {
        case none
        /// The new text is the old one plus these characters.
        case append(String)
        /// The new text does not extend the old one: what was shown must be redrawn.
        case redraw
    }

    /// The outcome of one event. Output policy: on a TTY, write `.append` suffixes and redraw on `.redraw`;
    /// on a pipe, write `text` and a newline once `end` is set; with `--stream` on a pipe, use `AppendOnlyReply`.
    @_spi(Engine) public struct Update: Sendable, Equatable {
        /// The whole reply text so far.
        @_spi(Engine) public var text: String
        @_spi(Engine) public var change: Change
        /// A status line such as "preparing workspace…", "thinking…" or "running read…"; nil while text flows.
        @_spi(Engine) public var progress: String?
        /// Set when this event revealed missing seq numbers; the caller may warn on stderr.
        @_spi(Engine) public var gap: Gap?
        /// Set only on the event that ended the run.
        @_spi(Engine) public var end: End?
    }

    /// The whole reply text so far.
    @_spi(Engine) public private(set) var text = ""
    /// The current status line, if any.
    @_spi(Engine) public private(set) var progress: String?
    /// How the run ended; nil while it runs. Later events are ignored.
    @_spi(Engine) public private(set) var end: End?
    private var order = RunSeqOrder()

    @_spi(Engine) public init() {}

    /// Applies one `chat` event payload: `delta` and the ending states change the text, `status` the progress line.
    @_spi(Engine) public mutating func apply(chat payload: JSONValue?) -> Update {
        guard end == nil, let payload else { return unchanged() }
        let (fresh, gap) = order.admit(payload[ChatField.seq]?.int64Value, .chat)
        guard fresh else { return unchanged() }
        let before = text
        var ended: End? = nil
        switch payload[ChatField.state]?.stringValue.flatMap(ChatState.init(rawValue:)) {
        case .delta?:
            text = deltaText(payload)
            progress = nil
        case .status?:
            progress = Self.label(payload["phase"]?.stringValue ?? "working")
            if let retry = Self.retryLabel(payload["retry"]) { progress = retry }
        case let state? where state.endsRun:
            // A final without `message` was silent: keep what was streamed.
            if let message = payload[ChatField.message], !message.isNull { text = MessageText.text(of: message) }
            progress = nil
            ended = End(state: state, payload: payload)
            end = ended
        default:
            break  // an unknown state: nothing to show
        }
        return Update(text: text, change: Self.change(from: before, to: text), progress: progress, gap: gap, end: ended)
    }

    /// Applies one `agent` event payload: it never changes the text, only the progress line (thinking, tool runs).
    @_spi(Engine) public mutating func apply(agent payload: JSONValue?) -> Update {
        guard end == nil, let payload else { return unchanged() }
        let (fresh, gap) = order.admit(payload[ChatField.seq]?.int64Value, .agent)
        guard fresh else { return unchanged() }
        let data = payload["data"]
        switch (payload["stream"]?.stringValue, data?["phase"]?.stringValue) {
        case ("thinking"?, _): progress = "thinking…"
        case ("tool"?, "start"?): progress = "running \(data?["name"]?.stringValue ?? "a tool")…"  // names keep their "_"
        case ("tool"?, "result"?), ("tool"?, "end"?), ("tool"?, "error"?), ("assistant"?, _), ("lifecycle"?, _): progress = nil
        default: break
        }
        return Update(text: text, change: .none, progress: progress, gap: gap, end: nil)
    }

    private func unchanged() -> Update { Update(text: text, change: .none, progress: progress, gap: nil, end: nil) }

    /// The text after a delta: the cumulative `message` when sent (v3, v4), else `deltaText` appended or replacing (v4).
    private func deltaText(_ payload: JSONValue) -> String {
        if let message = payload[ChatField.message], !message.isNull { return MessageText.text(of: message) }
        guard let piece = payload[ChatField.deltaText]?.stringValue else { return text }
        return payload[ChatField.replace]?.boolValue == true ? piece : text + piece
    }

    /// A provider retry (`status.retry {attempt, maxAttempts, reason}`): "retrying: rate limit, 2/3".
    private static func retryLabel(_ retry: JSONValue?) -> String? {
        guard let retry, let attempt = retry["attempt"]?.intValue else { return nil }
        let reason = retry["reason"]?.stringValue.map { String($0.map { $0 == "_" ? " " : $0 }) } ?? "provider error"
        let of = retry["maxAttempts"]?.intValue.map { "/\($0)" } ?? ""
        return "retrying: \(reason), \(attempt)\(of)"
    }

    /// "preparing_workspace" → "preparing workspace…". Every phase, known or not, is progress: the
    /// gateway adds phases (October 2026: the run waits for state admission) and never ends a run with one.
    static func label(_ phase: String) -> String {
        if let known = phaseLabels[phase] { return known }
        return String(phase.map { $0 == "_" ? " " : $0 }) + "…"
    }

    /// Phases whose words alone would say little.
    static let phaseLabels = [
        "waiting_for_state": "waiting for the session's state…",
        "state_contention": "waiting: the session's state is busy…",
    ]

    /// Compared as UTF-8 bytes: `String` equality would treat canonically equal spellings as the same text.
    /// One memcmp over the old text, never a loop of our own: each delta carries the whole reply, and in a
    /// debug build (SwiftPM compiles this package unoptimised for a debug library user) a byte-by-byte
    /// comparison of a long reply cost more per update than everything else together.
    static func change(from old: String, to new: String) -> Change {
        var old = old, new = new  // withUTF8 needs a var; a native string is not copied
        return old.withUTF8 { old in
            new.withUTF8 { new in
                guard old.count <= new.count, hasPrefix(new, old) else { return .redraw }
                if old.count == new.count { return .none }
                return .append(String(decoding: UnsafeBufferPointer(rebasing: new[old.count...]), as: UTF8.self))
            }
        }
    }

    /// Whether `a` and `b` are the same UTF-8 bytes (one memcmp).
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { a in b.withUTF8 { b in a.count == b.count && hasPrefix(a, b) } }
    }

    /// Whether `bytes` starts with `prefix`, which is no longer.
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        prefix.isEmpty || Memory.equal(bytes.baseAddress!, prefix.baseAddress!, count: prefix.count)
    }
}
