
/// The gateway's words, defined once for the client and the simulator (docs/protocol.md §2, §7).
/// Names the protocol spells as strings stay strings here, but a typo becomes a compile error.

/// `type` of a frame.
@_spi(Engine) public enum GatewayFrameType {
    @_spi(Engine) public static let request = "req"
    @_spi(Engine) public static let response = "res"
    @_spi(Engine) public static let event = "event"
}

/// The session key every gateway has, its default `mainKey`.
@_spi(Engine) public enum MainSession {
    @_spi(Engine) public static let key = "main"
}

/// Method names sent in `req.method`.
@_spi(Engine) public enum GatewayMethod {
    @_spi(Engine) public static let connect = "connect"
    @_spi(Engine) public static let health = "health"
    @_spi(Engine) public static let chatHistory = "chat.history"
    @_spi(Engine) public static let chatSend = "chat.send"
    @_spi(Engine) public static let chatAbort = "chat.abort"
    @_spi(Engine) public static let chatInject = "chat.inject"
    @_spi(Engine) public static let sessionsList = "sessions.list"
    @_spi(Engine) public static let agent = "agent"
    /// The gateway's presence list; third-party clients call it in their health checks.
    @_spi(Engine) public static let systemPresence = "system-presence"
    /// v4 subscriptions to the targeted session events below.
    @_spi(Engine) public static let sessionsSubscribe = "sessions.subscribe"
    @_spi(Engine) public static let sessionsUnsubscribe = "sessions.unsubscribe"
    @_spi(Engine) public static let sessionsMessagesSubscribe = "sessions.messages.subscribe"
    @_spi(Engine) public static let sessionsMessagesUnsubscribe = "sessions.messages.unsubscribe"
    /// An administrator's decision on a pairing request (`operator.pairing`).
    @_spi(Engine) public static let devicePairApprove = "device.pair.approve"
    @_spi(Engine) public static let devicePairReject = "device.pair.reject"
    /// The official CLI's scripting verbs: `logs`, `system event`, `cron`.
    @_spi(Engine) public static let logsTail = "logs.tail"
    @_spi(Engine) public static let wake = "wake"
    @_spi(Engine) public static let cronList = "cron.list"
    @_spi(Engine) public static let cronRun = "cron.run"
    @_spi(Engine) public static let cronRuns = "cron.runs"
}

/// Event names carried in `event.event`.
@_spi(Engine) public enum GatewayEventName {
    @_spi(Engine) public static let connectChallenge = "connect.challenge"
    @_spi(Engine) public static let chat = "chat"
    @_spi(Engine) public static let agent = "agent"
    @_spi(Engine) public static let tick = "tick"
    @_spi(Engine) public static let shutdown = "shutdown"
    @_spi(Engine) public static let presence = "presence"
    @_spi(Engine) public static let health = "health"
    @_spi(Engine) public static let heartbeat = "heartbeat"
    /// Targeted (no outer `seq`): a run of any session started or ended (`sessions.subscribe`).
    @_spi(Engine) public static let sessionsChanged = "sessions.changed"
    /// Targeted (no outer `seq`): a message appended to a subscribed session's transcript.
    @_spi(Engine) public static let sessionMessage = "session.message"
    /// The decision on a pairing request (`approved`, `rejected`, `expired`, `superseded`); also sent to
    /// a connect kept open for it (`device-pairing-wait`).
    @_spi(Engine) public static let devicePairResolved = "device.pair.resolved"
    @_spi(Engine) public static let devicePairRequested = "device.pair.requested"

    /// Events that belong to one run and carry `payload.runId` and a per-run `payload.seq`.
    @_spi(Engine) public static func isRunEvent(_ name: String) -> Bool { name == chat || name == agent }
    /// The subscription events that name a session in `payload.sessionKey`.
    @_spi(Engine) public static func isSessionEvent(_ name: String) -> Bool { name == sessionsChanged || name == sessionMessage }
}

/// `payload.state` of a `chat` event. v4 adds `status` (progress, not text).
@_spi(Engine) public enum ChatState: String, Sendable, CaseIterable {
    case delta, final, aborted, error, status

    /// The states after which a run sends nothing more.
    @_spi(Engine) public var endsRun: Bool { self == .final || self == .aborted || self == .error }
}

/// Member names of a `chat` (and `agent`) event payload.
@_spi(Engine) public enum ChatField {
    @_spi(Engine) public static let runId = "runId"
    @_spi(Engine) public static let sessionKey = "sessionKey"
    @_spi(Engine) public static let seq = "seq"
    @_spi(Engine) public static let state = "state"
    @_spi(Engine) public static let message = "message"
    @_spi(Engine) public static let deltaText = "deltaText"
    @_spi(Engine) public static let replace = "replace"
    @_spi(Engine) public static let errorMessage = "errorMessage"
    @_spi(Engine) public static let errorKind = "errorKind"
    @_spi(Engine) public static let stopReason = "stopReason"
    @_spi(Engine) public static let errorDetail = "errorDetail"
}

/// `payload.status` of a `chat.send` acknowledgement.
@_spi(Engine) public enum ChatSendStatus: String, Sendable {
    /// A new run; its events follow.
    case started
    /// The same idempotency key is still running; its events follow.
    case inFlight = "in_flight"
    /// The run with this key already finished (dedupe cache); no events follow.
    case ok
    case error
}
