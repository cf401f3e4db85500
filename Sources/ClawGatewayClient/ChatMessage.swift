@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawState

/// A session's key. The operator's main session has two spellings, `main` and `agent:main:main`:
/// keys compare equal (and hash alike) when they name the same session.
public struct SessionKey: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key as given, sent to the gateway as is.
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.init(value) }

    /// The operator's main session.
    public static let main = SessionKey("main")

    /// Whether this is the main session, in either spelling.
    public var isMain: Bool { ClawProtocol.SessionKey.isMain(rawValue, mainSessionKey: nil, mainKey: nil) }

    /// One spelling per session: the main session's full key, any other key as it is.
    public var canonical: String { isMain ? "agent:main:main" : rawValue }

    public static func == (a: SessionKey, b: SessionKey) -> Bool { a.canonical == b.canonical }
    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }
    public var description: String { rawValue }
}

/// One message of a session's transcript, as `history` returns it.
public struct ChatMessage: Sendable, Hashable {
    /// Who wrote it: `user`, `assistant`, `toolResult`, or a role this library has not heard of.
    public let role: String
    /// Its printable text: text parts joined, tool calls as `[tool NAME]`, images as `[image]`, thinking
    /// left out; the string itself when `content` is a string.
    public let text: String
    /// When it was written (milliseconds since 1970), when the gateway says.
    public let timestamp: Int64?
    /// The gateway's id for the message (newer gateways), when it says.
    public let id: String?
    /// The run that wrote it, when the transcript names one.
    public let runId: String?
    /// Why an assistant turn stopped: `stop`, `length`, `toolUse`, `error`, `aborted`.
    public let stopReason: String?
    /// The message as the gateway sent it, for everything else (tool calls, model, usage, …).
    public let json: JSONValue

    public var isFromUser: Bool { role == "user" }

    /// Whether the transcript names `runId` for this message (its idempotency key, run id, or either
    /// in the gateway's own metadata), as a retried send finds its earlier reply.
    func mentions(run runId: String) -> Bool {
        let raw = json.storage
        return [raw["idempotencyKey"], raw[ChatField.runId], raw["__openclaw"]?[ChatField.runId]].contains { $0?.stringValue == runId }
    }
    public var isFromAssistant: Bool { role == "assistant" }

    init(_ message: JSONValue) {
        let raw = message.storage
        role = raw["role"]?.stringValue ?? ""
        text = MessageText.text(of: raw)
        timestamp = raw["timestamp"]?.int64Value
        id = raw["__openclaw"]?["id"]?.stringValue ?? raw["id"]?.stringValue
        runId = raw[ChatField.runId]?.stringValue ?? raw["__openclaw"]?[ChatField.runId]?.stringValue
            ?? raw["idempotencyKey"]?.stringValue
        stopReason = raw[ChatField.stopReason]?.stringValue
        json = message
    }
}
