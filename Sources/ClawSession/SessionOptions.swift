@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
/// Everything needed to open an authenticated gateway session.
@_spi(Engine) public struct SessionOptions: Sendable {
    @_spi(Engine) public var url: WebSocketURL
    /// Where `url` came from, named when the connect fails; nil to name nothing (through an SSH
    /// tunnel, whose own messages say where the connection went).
    @_spi(Engine) public var urlOrigin: URLOrigin?
    /// TLS settings for `wss://` (server name defaults to the URL's host).
    @_spi(Engine) public var tls: TLSClientOptions?
    /// Extra headers on the WebSocket upgrade (edge auth); their values never reach a trace or a message.
    @_spi(Engine) public var upgradeHeaders: [UpgradeHeader] = []
    @_spi(Engine) public var token: Secret?
    /// Where the token came from, for error messages (`--token`, `OPENCLAW_GATEWAY_TOKEN`, …).
    @_spi(Engine) public var tokenSource: SettingSource?
    @_spi(Engine) public var password: Secret?
    @_spi(Engine) public var passwordSource: SettingSource?
    /// nil connects without a device identity (`--no-device`). Loaded during the handshake.
    @_spi(Engine) public var identitySource: DeviceIdentitySource?
    /// An identity already loaded (sets `identitySource`).
    @_spi(Engine) public var identity: DeviceIdentity? {
        get { try? identitySource?.identity() }
        set { identitySource = newValue.map(DeviceIdentitySource.init) }
    }
    /// Where device tokens are kept; nil to neither read nor store them.
    @_spi(Engine) public var deviceAuthStore: (any DeviceTokenStore)?
    @_spi(Engine) public var scopes: [String] = ConnectRequest.defaultScopes
    /// Who the client says it is: the CLI unless set.
    @_spi(Engine) public var client: ConnectRequest.Client = .cli
    @_spi(Engine) public var clientVersion: String
    /// Bound on socket, TLS, upgrade, challenge and hello-ok together.
    @_spi(Engine) public var connectTimeout: Double = 10
    /// Bound, in seconds, on each of two steps within it: socket, TLS and the WebSocket upgrade's
    /// answer; then, from there, the gateway's `connect.challenge` (the official client's handshake
    /// timeout, `OPENCLAW_HANDSHAKE_TIMEOUT_MS`, 15 s unless set).
    @_spi(Engine) public var handshakeTimeout: Double = 15
    /// `connect.params.caps`: e.g. `tool-events`, without which the gateway sends no tool events.
    @_spi(Engine) public var capabilities: [String] = []
    /// Advertise `device-pairing-wait`: a gateway that honours it keeps an unpaired device's connect
    /// open until an administrator decides, reported as `AuthFailure.pairingPending`.
    @_spi(Engine) public var waitsForPairing = false
    /// Fail on frames the client does not understand instead of skipping them.
    @_spi(Engine) public var isStrict = false
    /// Sign the v3 payload instead of v2 (v2 is accepted by every gateway generation).
    @_spi(Engine) public var signsV3Payload = false
    /// Reach the gateway through this SSH tunnel route. `GatewaySession.open` dials `url` as it is: the
    /// caller opens the tunnel first (`SSHTunnel.open`) and connects with `tunnel.sessionOptions(self)`.
    @_spi(Engine) public var sshRoute: SSHRoute?
    /// Reach the gateway through this forward proxy (its tunnel to the URL's host and port); nil to dial
    /// directly. Chosen by `ProxySelection` from OpenClaw's `proxy` settings or the usual variables.
    @_spi(Engine) public var proxy: ProxyEndpoint?
    /// Receives every frame sent and received, already redacted (`--trace`).
    @_spi(Engine) public var tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?

    @_spi(Engine) public init(url: WebSocketURL, clientVersion: String) {
        self.url = url
        self.clientVersion = clientVersion
    }
}

/// `proxy`: the exchange with a forward proxy before the gateway's socket is open.
@_spi(Engine) public enum TraceDirection: String, Sendable { case send, recv, proxy }
