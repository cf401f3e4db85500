/// The gateway's words, defined once for the client and the simulator (docs/protocol.md §2, §7).
/// Names the protocol spells as strings stay strings here, but a typo becomes a compile error.

/// `type` of a frame.
public enum GatewayFrameType {
    public static let request = "req"
    public static let response = "res"
    public static let event = "event"
}

/// The session key every gateway has, its default `mainKey`.
public enum MainSession {
    public static let key = "main"
}

/// Method names sent in `req.method`.
public enum GatewayMethod {
    public static let connect = "connect"
    public static let health = "health"
    public static let chatHistory = "chat.history"
    public static let chatSend = "chat.send"
    public static let chatAbort = "chat.abort"
    public static let chatInject = "chat.inject"
    public static let sessionsList = "sessions.list"
    public static let agent = "agent"
    /// The gateway's presence list; third-party clients call it in their health checks.
    public static let systemPresence = "system-presence"
    /// v4 subscriptions to the targeted session events below.
    public static let sessionsSubscribe = "sessions.subscribe"
    public static let sessionsUnsubscribe = "sessions.unsubscribe"
    public static let sessionsMessagesSubscribe = "sessions.messages.subscribe"
    public static let sessionsMessagesUnsubscribe = "sessions.messages.unsubscribe"
    /// An administrator's decision on a pairing request (`operator.pairing`).
    public static let devicePairApprove = "device.pair.approve"
    public static let devicePairReject = "device.pair.reject"
}

/// Event names carried in `event.event`.
public enum GatewayEventName {
    public static let connectChallenge = "connect.challenge"
    public static let chat = "chat"
    public static let agent = "agent"
    public static let tick = "tick"
    public static let shutdown = "shutdown"
    public static let presence = "presence"
    public static let health = "health"
    public static let heartbeat = "heartbeat"
    /// Targeted (no outer `seq`): a run of any session started or ended (`sessions.subscribe`).
    public static let sessionsChanged = "sessions.changed"
    /// Targeted (no outer `seq`): a message appended to a subscribed session's transcript.
    public static let sessionMessage = "session.message"
    /// The decision on a pairing request (`approved`, `rejected`, `expired`, `superseded`); also sent to
    /// a connect kept open for it (`device-pairing-wait`).
    public static let devicePairResolved = "device.pair.resolved"
    public static let devicePairRequested = "device.pair.requested"

    /// Events that belong to one run and carry `payload.runId` and a per-run `payload.seq`.
    public static func isRunEvent(_ name: String) -> Bool { name == chat || name == agent }
    /// The subscription events that name a session in `payload.sessionKey`.
    public static func isSessionEvent(_ name: String) -> Bool { name == sessionsChanged || name == sessionMessage }
}

/// `payload.state` of a `chat` event. v4 adds `status` (progress, not text).
public enum ChatState: String, Sendable, CaseIterable {
    case delta, final, aborted, error, status

    /// The states after which a run sends nothing more.
    public var endsRun: Bool { self == .final || self == .aborted || self == .error }
}

/// Member names of a `chat` (and `agent`) event payload.
public enum ChatField {
    public static let runId = "runId"
    public static let sessionKey = "sessionKey"
    public static let seq = "seq"
    public static let state = "state"
    public static let message = "message"
    public static let deltaText = "deltaText"
    public static let replace = "replace"
    public static let errorMessage = "errorMessage"
    public static let errorKind = "errorKind"
    public static let stopReason = "stopReason"
    public static let errorDetail = "errorDetail"
}

/// `payload.status` of a `chat.send` acknowledgement.
public enum ChatSendStatus: String, Sendable {
    /// A new run; its events follow.
    case started
    /// The same idempotency key is still running; its events follow.
    case inFlight = "in_flight"
    /// The run with this key already finished (dedupe cache); no events follow.
    case ok
    case error
}
