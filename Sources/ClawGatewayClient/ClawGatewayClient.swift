// ClawGatewayClient: the async, Sendable client of the OpenClaw Gateway. One import gives the whole
// API; the layers underneath are this package's own business (SPI, `@_spi(Engine)`), never part of it.
@_spi(Engine) import ClawState
@_spi(Engine) import ClawProtocol

/// A credential that never shows itself: printing, interpolating or dumping one gives `<redacted>`.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let stored: ClawState.Secret

    public init(_ value: String) { stored = ClawState.Secret(value) }
    init(_ stored: ClawState.Secret) { self.stored = stored }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: ["value": "<redacted>"]) }
}

/// Who the client says it is to the gateway (`connect.params.client`).
public struct ClientIdentity: Sendable, Hashable {
    /// The client id the gateway knows (`gateway-client`, `cli`, …).
    public var id: String
    /// `backend`, `cli`, `ui`, …
    public var mode: String
    public var displayName: String
    /// The user agent's product; the client version follows it after a slash.
    public var userAgent: String

    public init(id: String, mode: String, displayName: String, userAgent: String) {
        self.id = id
        self.mode = mode
        self.displayName = displayName
        self.userAgent = userAgent
    }

    /// A server program (a bot, a cron job): the official gateway's own client id and mode for one.
    public static let backend = ClientIdentity(ConnectRequest.Client.backend)
    /// A command-line client.
    public static let cli = ClientIdentity(ConnectRequest.Client.cli)

    init(_ client: ConnectRequest.Client) {
        self.init(id: client.id, mode: client.mode, displayName: client.displayName, userAgent: client.userAgent)
    }

    var request: ConnectRequest.Client {
        ConnectRequest.Client(id: id, mode: mode, displayName: displayName, userAgent: userAgent)
    }
}

/// The library's version, sent in the hello (`connect.params.client.version`) unless configured otherwise.
/// One number for the CLI, the library and the CHANGELOG (`ClawVersion`).
public let clawGatewayClientVersion = ClawVersion.current
