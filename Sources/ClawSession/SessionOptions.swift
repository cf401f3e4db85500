import ClawJSON
import ClawTransport
import ClawProtocol
import ClawState
/// Everything needed to open an authenticated gateway session.
package struct SessionOptions: Sendable {
    package var url: WebSocketURL
    /// Where `url` came from, named when the connect fails; nil to name nothing (through an SSH
    /// tunnel, whose own messages say where the connection went).
    package var urlOrigin: URLOrigin?
    /// TLS settings for `wss://` (server name defaults to the URL's host).
    package var tls: TLSClientOptions?
    /// Extra headers on the WebSocket upgrade (edge auth); their values never reach a trace or a message.
    package var upgradeHeaders: [UpgradeHeader] = []
    package var token: Secret?
    /// Where the token came from, for error messages (`--token`, `OPENCLAW_GATEWAY_TOKEN`, …).
    package var tokenSource: SettingSource?
    package var password: Secret?
    package var passwordSource: SettingSource?
    /// nil connects without a device identity (`--no-device`). Loaded during the handshake.
    package var identitySource: DeviceIdentitySource?
    /// An identity already loaded (sets `identitySource`).
    package var identity: DeviceIdentity? {
        get { try? identitySource?.identity() }
        set { identitySource = newValue.map(DeviceIdentitySource.init) }
    }
    /// Where device tokens are kept; nil to neither read nor store them.
    package var deviceAuthStore: (any DeviceTokenStore)?
    package var scopes: [String] = ConnectRequest.defaultScopes
    /// Who the client says it is: the CLI unless set.
    package var client: ConnectRequest.Client = .cli
    package var clientVersion: String
    /// Bound on socket, TLS, upgrade, challenge and hello-ok together.
    package var connectTimeout: Double = 10
    /// Bound, in seconds, on each of two steps within it: socket, TLS and the WebSocket upgrade's
    /// answer; then, from there, the gateway's `connect.challenge` (the official client's handshake
    /// timeout, `OPENCLAW_HANDSHAKE_TIMEOUT_MS`, 15 s unless set).
    package var handshakeTimeout: Double = 15
    /// `connect.params.caps`: e.g. `tool-events`, without which the gateway sends no tool events.
    package var capabilities: [String] = []
    /// Advertise `device-pairing-wait`: a gateway that honours it keeps an unpaired device's connect
    /// open until an administrator decides, reported as `AuthFailure.pairingPending`.
    package var waitsForPairing = false
    /// Fail on frames the client does not understand instead of skipping them.
    package var isStrict = false
    /// Sign the v3 payload instead of v2 (v2 is accepted by every gateway generation).
    package var signsV3Payload = false
    /// Reach the gateway through this SSH tunnel route. `GatewaySession.open` dials `url` as it is: the
    /// caller opens the tunnel first (`SSHTunnel.open`) and connects with `tunnel.sessionOptions(self)`.
    package var sshRoute: SSHRoute?
    /// Receives every frame sent and received, already redacted (`--trace`).
    package var tracer: (@Sendable (TraceDirection, JSONValue) -> Void)?

    package init(url: WebSocketURL, clientVersion: String) {
        self.url = url
        self.clientVersion = clientVersion
    }
}

package enum TraceDirection: String, Sendable { case send, recv }
