import ClawJSON
import ClawTransport
import ClawProtocol
import ClawState
/// Everything needed to open an authenticated gateway session.
public struct SessionOptions: Sendable {
    public var url: WebSocketURL
    /// Where `url` came from, named when the connect fails; nil to name nothing (through an SSH
    /// tunnel, whose own messages say where the connection went).
    public var urlOrigin: URLOrigin?
    /// TLS settings for `wss://` (server name defaults to the URL's host).
    public var tls: TLSClientOptions?
    /// Extra headers on the WebSocket upgrade (edge auth); their values never reach a trace or a message.
    public var upgradeHeaders: [UpgradeHeader] = []
    public var token: Secret?
    /// Where the token came from, for error messages (`--token`, `OPENCLAW_GATEWAY_TOKEN`, …).
    public var tokenSource: SettingSource?
    public var password: Secret?
    public var passwordSource: SettingSource?
    /// nil connects without a device identity (`--no-device`). Loaded during the handshake.
    public var identitySource: DeviceIdentitySource?
    /// An identity already loaded (sets `identitySource`).
    public var identity: DeviceIdentity? {
        get { try? identitySource?.identity() }
        set { identitySource = newValue.map(DeviceIdentitySource.init) }
    }
    /// Where device tokens are kept; nil to neither read nor store them.
    public var deviceAuthStore: (any DeviceTokenStore)?
    public var scopes: [String] = ConnectRequest.defaultScopes
    /// Who the client says it is: the CLI unless set.
    public var client: ConnectRequest.Client = .cli
    public var clientVersion: String
    /// Bound on socket, TLS, upgrade, challenge and hello-ok together.
    public var connectTimeout: Double = 10
    /// Bound, in seconds, on each of two steps within it: socket, TLS and the WebSocket upgrade's
    /// answer; then, from there, the gateway's `connect.challenge` (the official client's handshake
    /// timeout, `OPENCLAW_HANDSHAKE_TIMEOUT_MS`, 15 s unless set).
    public var handshakeTimeout: Double = 15
    /// `connect.params.caps`: e.g. `tool-events`, without which the gateway sends no tool events.
    public var capabilities: [String] = []
    /// Advertise `device-pairing-wait`: a gateway that honours it keeps an unpaired device's connect
    /// open until an administrator decides, reported as `AuthFailure.pairingPending`.
    public var waitsForPairing = false
    /// Fail on frames the client does not understand instead of skipping them.
    public var isStrict = false
    /// Sign the v3 payload instead of v2 (v2 is accepted by every gateway generation).
    public var signsV3Payload = false
    /// Reach the gateway through this SSH tunnel route. `GatewaySession.open` dials `url` as it is: the
    /// caller opens the tunnel first (`SSHTunnel.open`) and connects with `tunnel.sessionOptions(self)`.
    public var sshRoute: SSHRoute?
    /// Receives every frame sent and received, already redacted (`--trace`).
    public var tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?

    public init(url: WebSocketURL, clientVersion: String) {
        self.url = url
        self.clientVersion = clientVersion
    }
}

public enum TraceDirection: String, Sendable { case send, recv }
