/// The gateway's words, defined once for the client and the simulator (docs/protocol.md §2, §7).
/// Names the protocol spells as strings stay strings here, but a typo becomes a compile error.

/// `type` of a frame.
package enum GatewayFrameType {
    package static let request = "req"
    package static let response = "res"
    package static let event = "event"
}

/// The session key every gateway has, its default `mainKey`.
package enum MainSession {
    package static let key = "main"
}

/// Method names sent in `req.method`.
package enum GatewayMethod {
    package static let connect = "connect"
    package static let health = "health"
    package static let chatHistory = "chat.history"
    package static let chatSend = "chat.send"
    package static let chatAbort = "chat.abort"
    package static let chatInject = "chat.inject"
    package static let sessionsList = "sessions.list"
    package static let agent = "agent"
    /// The gateway's presence list; third-party clients call it in their health checks.
    package static let systemPresence = "system-presence"
    /// v4 subscriptions to the targeted session events below.
    package static let sessionsSubscribe = "sessions.subscribe"
    package static let sessionsUnsubscribe = "sessions.unsubscribe"
    package static let sessionsMessagesSubscribe = "sessions.messages.subscribe"
    package static let sessionsMessagesUnsubscribe = "sessions.messages.unsubscribe"
    /// An administrator's decision on a pairing request (`operator.pairing`).
    package static let devicePairApprove = "device.pair.approve"
    package static let devicePairReject = "device.pair.reject"
}

/// Event names carried in `event.event`.
package enum GatewayEventName {
    package static let connectChallenge = "connect.challenge"
    package static let chat = "chat"
    package static let agent = "agent"
    package static let tick = "tick"
    package static let shutdown = "shutdown"
    package static let presence = "presence"
    package static let health = "health"
    package static let heartbeat = "heartbeat"
    /// Targeted (no outer `seq`): a run of any session started or ended (`sessions.subscribe`).
    package static let sessionsChanged = "sessions.changed"
    /// Targeted (no outer `seq`): a message appended to a subscribed session's transcript.
    package static let sessionMessage = "session.message"
    /// The decision on a pairing request (`approved`, `rejected`, `expired`, `superseded`); also sent to
    /// a connect kept open for it (`device-pairing-wait`).
    package static let devicePairResolved = "device.pair.resolved"
    package static let devicePairRequested = "device.pair.requested"

    /// Events that belong to one run and carry `payload.runId` and a per-run `payload.seq`.
    package static func isRunEvent(_ name: String) -> Bool { name == chat || name == agent }
    /// The subscription events that name a session in `payload.sessionKey`.
    package static func isSessionEvent(_ name: String) -> Bool { name == sessionsChanged || name == sessionMessage }
}

/// `payload.state` of a `chat` event. v4 adds `status` (progress, not text).
package enum ChatState: String, Sendable, CaseIterable {
    case delta, final, aborted, error, status

    /// The states after which a run sends nothing more.
    package var endsRun: Bool { self == .final || self == .aborted || self == .error }
}

/// Member names of a `chat` (and `agent`) event payload.
package enum ChatField {
    package static let runId = "runId"
    package static let sessionKey = "sessionKey"
    package static let seq = "seq"
    package static let state = "state"
    package static let message = "message"
    package static let deltaText = "deltaText"
    package static let replace = "replace"
    package static let errorMessage = "errorMessage"
    package static let errorKind = "errorKind"
    package static let stopReason = "stopReason"
    package static let errorDetail = "errorDetail"
}

/// `payload.status` of a `chat.send` acknowledgement.
package enum ChatSendStatus: String, Sendable {
    /// A new run; its events follow.
    case started
    /// The same idempotency key is still running; its events follow.
    case inFlight = "in_flight"
    /// The run with this key already finished (dedupe cache); no events follow.
    case ok
    case error
}
