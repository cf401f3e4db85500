@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// One event the gateway pushed (`{"type":"event",…}`): `chat` deltas, `agent` progress, `tick`,
/// `presence`, `sessions.changed`, `shutdown`, and any name this library has never heard of.
public struct GatewayEvent: Sendable {
    /// The event's name, as sent.
    public let name: String
    /// Its payload (`null` when it had none).
    public var payload: JSONValue { JSONValue(rawPayload) }
    let rawPayload: ClawJSON.JSONValue
    /// The outer sequence number of a broadcast event; nil for targeted events.
    public let seq: Int64?
    /// Set when this event's `seq` skipped ahead: the events `expected..<seq` never reached this
    /// connection (v4 gateways number each connection's broadcasts; under v3 skips are normal).
    public let gap: SequenceGap?

    /// The run a `chat` or `agent` event belongs to.
    public var runId: String? { rawPayload[ChatField.runId]?.stringValue }
    /// The session a run or session event names.
    public var sessionKey: String? { rawPayload[ChatField.sessionKey]?.stringValue }
}

/// Sequence numbers that never arrived: `expected` up to, not including, `received`.
public struct SequenceGap: Sendable, Equatable {
    public let expected: Int64
    public let received: Int64

    init(expected: Int64, received: Int64) {
        self.expected = expected
        self.received = received
    }
}

/// What the gateway said about itself when it let us in (`hello-ok`).
public struct GatewayHello: Sendable {
    /// The protocol version both sides speak (3 or 4).
    public let protocolVersion: Int
    public let serverVersion: String?
    /// The connection's id on the gateway.
    public let connectionId: String?
    /// How often the gateway ticks; two ticks of silence mean the link is lost.
    public let tickIntervalMs: Int
    /// The largest message the gateway accepts.
    public let maxPayload: Int
    /// The operator's main session (`agent:main:main` unless the gateway says otherwise).
    public let mainSessionKey: String?
    /// The scopes the gateway granted, when it says.
    public let grantedScopes: [String]?

    init(_ hello: HelloOk) {
        protocolVersion = hello.protocolVersion
        serverVersion = hello.serverVersion
        connectionId = hello.connectionID
        tickIntervalMs = hello.tickIntervalMs
        maxPayload = hello.maxPayload
        mainSessionKey = hello.mainSessionKey
        grantedScopes = hello.grantedScopes
    }
}
