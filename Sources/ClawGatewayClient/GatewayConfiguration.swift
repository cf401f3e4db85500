@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// Everything a connection needs: where the gateway is, how to prove who we are, how to present
/// ourselves, and the timing of keepalive and reconnects. A value: build one, copy it, change it.
///
/// ```swift
/// var configuration = GatewayConfiguration(url: "wss://gateway.example.com")
/// configuration.token = Secret("…")
/// ```
/// or read the official OpenClaw set-up (config file, profiles, environment, secret refs, SSH route):
/// ```swift
/// let configuration = try GatewayConfiguration.official()
/// ```
public struct GatewayConfiguration: Sendable {
    /// `ws://` or `wss://`; a gateway on this machine listens on `ws://127.0.0.1:18789`.
    public var url: String
    /// The gateway's shared token (`gateway.auth.token`), if it uses one.
    public var token: Secret?
    /// The gateway's password (`gateway.auth.mode` password), if it uses one.
    public var password: Secret?
    /// Which device key signs the connect, and where device tokens are kept.
    public var deviceIdentity: DeviceIdentityChoice = .none
    /// Who the client says it is; `.backend` (a server program) unless set.
    public var client: ClientIdentity = .backend
    /// The client's version, sent in `connect.params.client.version` and the user agent.
    public var clientVersion = clawGatewayClientVersion
    /// Operator scopes to ask for.
    public var scopes: [String] = ["operator.read", "operator.write"]
    /// `connect.params.caps`, e.g. `tool-events` for live tool progress in chat runs.
    public var capabilities: [String] = []
    /// How a `wss://` gateway's certificate is checked.
    public var tls: TLSTrust = .system
    /// Extra headers on the WebSocket upgrade (an identity-aware proxy's); never logged.
    public var upgradeHeaders: [(name: String, value: Secret)] = []
    /// Plaintext `ws://` to a host on a private network (RFC 1918, Tailscale's 100.64/10, link-local,
    /// `.local`, `.lan`, `.internal`, `.ts.net`, …), as the official client allows with
    /// `OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1` (which this also honours). Loopback is always allowed and
    /// a public host never: use `wss://` or an SSH tunnel there.
    public var allowsPlaintextOnPrivateNetwork = false
    /// A forward proxy between this program and the gateway: the environment's (and, from `official()`,
    /// OpenClaw's `proxy` settings) unless set.
    public var proxy: GatewayProxy = .automatic
    /// Bound on socket, TLS, upgrade and the gateway's handshake together.
    public var connectTimeout: Duration = .seconds(10)
    /// Bound on each handshake step within it (the upgrade's answer; then the gateway's challenge);
    /// nil: `OPENCLAW_HANDSHAKE_TIMEOUT_MS` when set, else 15 s.
    public var handshakeTimeout: Duration? = nil
    /// How long a request waits for its answer.
    public var requestTimeout: Duration = .seconds(30)
    /// A WebSocket ping this often keeps proxies and NATs from closing an idle link.
    public var pingInterval: Duration = .seconds(KeepAlive.defaultPingInterval)
    /// What a connect waits out before it fails: a restarting gateway, and on request a refused
    /// connect or the pairing approval.
    public var waits = ConnectWaits()
    /// When `GatewayClient.run()` connects again after a failure or a lost connection.
    public var reconnect = ReconnectPolicy()
    /// Events a consumer may fall behind by before the connection stops reading (the gateway's own
    /// slow-consumer rule applies past about 1 MiB more, read ahead so that pings are still answered).
    public var eventBufferLimit = 1024

    /// The official resolution this configuration came from, if any: it also carries the URL's origin,
    /// edge-auth headers, the SSH route and the state directory's token store.
    var resolved: ResolvedConnection?
    var environment: Environment?

    public init(url: String = "ws://127.0.0.1:18789") {
        self.url = url
    }

    /// The connection the official CLI would make: `--profile`-style `profile`, the config file
    /// (`~/.openclaw/openclaw.json` or `OPENCLAW_CONFIG_PATH`), `OPENCLAW_GATEWAY_URL`/`_TOKEN`/`_PASSWORD`,
    /// secret refs (`env`, `file`, `exec`, `store`), `gateway.remote` (URL, TLS pin, edge auth, the SSH
    /// route), and the device identity of the state directory. `url`/`token` override as the flags do.
    public static func official(profile: String? = nil, url: String? = nil, token: Secret? = nil,
                                environment: [String: String]? = nil) throws(GatewayClientError) -> GatewayConfiguration {
        let env = environment.map(Environment.init) ?? .current()
        let resolved: ResolvedConnection
        do {
            resolved = try ConnectionResolver.resolve(
                options: ConnectionOptions(url: url, token: token?.stored, profile: profile), environment: env)
        } catch {
            throw GatewayClientError(error)
        }
        var configuration = GatewayConfiguration(url: resolved.url.description)
        configuration.token = resolved.token.map(Secret.init)
        configuration.password = resolved.password.map(Secret.init)
        configuration.deviceIdentity = .stateDirectory(resolved.stateDirectory)
        if let pin = resolved.tlsFingerprint { configuration.tls = .pinned(sha256: pin) }
        else if let bundle = resolved.caBundlePath { configuration.tls = .caBundle(path: bundle) }
        configuration.resolved = resolved
        configuration.environment = env
        return configuration
    }

    /// The session layer's options, by the one road every client takes: a resolution (the official one
    /// from `official()`, or the URL given here resolved as the CLI resolves `--url`, without a config
    /// file), its one conversion (`SessionOptions(resolved:)`), then what is set here.
    func sessionOptions() throws(GatewayClientError) -> SessionOptions {
        guard let parsed = WebSocketURL(url) else {
            throw GatewayClientError(configuration: .invalidURL, "invalid gateway URL \"\(url)\": expected ws://host[:port][/path] or wss://…")
        }
        let env = environment ?? .current()
        // The official resolution is converted once, here; a URL changed after it would lose its SSH
        // route, edge-auth headers and device-token scope without a word, so it is refused instead.
        if let resolved, !(resolved.url == parsed || resolved.url.description == url) {
            throw GatewayClientError(configuration: .conflictingSettings,
                "url was changed after GatewayConfiguration.official(), which resolved \(resolved.url) with its route, TLS, "
                + "edge auth and device-token scope: pass the URL as official(url:) instead")
        }
        var resolution: ResolvedConnection
        if let resolved { resolution = resolved } else { resolution = try self.resolution(of: parsed, environment: env) }
        resolution.token = token?.stored
        resolution.password = password?.stored
        var stateDirectory: String? = nil
        if case .stateDirectory(let directory) = deviceIdentity {
            stateDirectory = directory
            resolution.stateDirectory = directory
        }
        var options = SessionOptions(resolved: resolution, clientVersion: clientVersion, environment: env,
                                     usesDeviceIdentity: stateDirectory != nil)
        // The trust as set here: what the resolution made of it, unless changed after `official()`.
        if parsed.isSecure {
            var tlsOptions = options.tls ?? TLSClientOptions(serverName: parsed.host)
            switch tls {
            case .system, .caBundle:
                tlsOptions.pinnedSHA256 = nil
                tlsOptions.caBundlePath = tls.caBundlePath
                tlsOptions.trust = tlsOptions.trust ?? SessionOptions.systemTrust(env)
            case .pinned(let sha256):
                tlsOptions.pinnedSHA256 = sha256
                tlsOptions.caBundlePath = nil
            }
            options.tls = tlsOptions
        }
        // `.automatic` keeps the resolution's choice (OpenClaw's managed proxy, then the variables);
        // anything else is decided here. An SSH route is never proxied.
        if proxy != .automatic {
            options.proxy = options.sshRoute != nil ? nil : try proxy.endpoint(for: parsed, environment: env)
        }
        options.upgradeHeaders += upgradeHeaders.map { UpgradeHeader(name: $0.name, value: $0.value.stored.value) }
        options.client = client.request
        options.scopes = scopes
        options.capabilities = capabilities
        options.connectTimeout = connectTimeout.seconds
        // Advertises the held-socket pairing wait; the machine's rules (`ReconnectPolicy.rules`) wait too.
        options.waitsForPairing = waits.pairingApproval
        if let handshakeTimeout { options.handshakeTimeout = handshakeTimeout.seconds }
        if case .ephemeral = deviceIdentity {
            do { options.identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate()) } catch {
                throw GatewayClientError(configuration: .deviceKey, "cannot make a device key: \(error)")
            }
        }
        return options
    }

    /// A URL given in code, resolved as the CLI resolves `--url`: no profile or config file, the
    /// credentials and TLS trust set here, the environment's proxies, and the plaintext rule (loopback,
    /// or a private network when allowed), in this type's words.
    private func resolution(of parsed: WebSocketURL, environment: Environment) throws(GatewayClientError) -> ResolvedConnection {
        var given = ConnectionOptions(url: url, token: token?.stored, password: password?.stored)
        if case .stateDirectory(let directory) = deviceIdentity { given.stateDirectory = directory }
        switch tls {
        case .system: break
        case .caBundle(let path): given.caBundlePath = path
        case .pinned(let sha256): given.tlsFingerprint = Hex.encode(sha256)
        }
        given.readsConfigFile = false
        given.allowsPlaintextOnPrivateNetwork = allowsPlaintextOnPrivateNetwork
        do {
            return try ConnectionResolver.resolve(options: given, environment: environment)
        } catch .insecureWebSocket {
            throw GatewayClientError(configuration: .insecureURL, Self.plaintextRefusal(parsed))
        } catch {
            throw GatewayClientError(error)
        }
    }
}

/// Which device key the client signs its connect with.
public enum DeviceIdentityChoice: Sendable, Equatable {
    /// No device identity: a shared token or password alone (a gateway may refuse it).
    case none
    /// The official identity of an OpenClaw state directory (`~/.openclaw`), created there the
    /// official way if it has none; device tokens the gateway issues are kept there too.
    case stateDirectory(String)
    /// A key made for this process only: nothing is read or written.
    case ephemeral
}

/// How a `wss://` gateway's certificate is trusted.
public enum TLSTrust: Sendable, Equatable {
    /// The system's store (and `SSL_CERT_FILE`, `SSL_CERT_DIR`, `NODE_EXTRA_CA_CERTS`).
    case system
    /// The certificate authorities in this PEM file besides the system's (the CLI's `--cacert`).
    case caBundle(path: String)
    /// Exactly the certificate whose SHA-256 fingerprint this is (any issuer, any name).
    case pinned(sha256: [UInt8])

    /// A pin written as `AA:BB:…` or plain hex; nil when it is not 32 bytes of hex.
    public static func pinned(fingerprint: String) -> TLSTrust? {
        TLSFingerprint.parseSHA256(fingerprint).map { .pinned(sha256: $0) }
    }

    var caBundlePath: String? { if case .caBundle(let path) = self { return path }; return nil }
}

/// When a long-lived client connects again: exponential backoff with jitter from `initialDelay` to
/// `maximumDelay`, starting over after a healthy connection; `maxAttempts` failed attempts in a row
/// end `run()` with the last error (nil: never give up).
public struct ReconnectPolicy: Sendable, Equatable {
    public var initialDelay: Duration = .seconds(1)
    public var maximumDelay: Duration = .seconds(30)
    public var maxAttempts: Int? = nil

    public init(initialDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(30), maxAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maxAttempts = maxAttempts
    }

    /// The engine's rules for a long-lived client: reconnect with this schedule (every failure is one
    /// more reason to reconnect), and wait for the pairing approval when `waits` says so.
    func rules(waits: ConnectWaits) -> ConnectionLife.Rules {
        var rules = ConnectionLife.Rules()
        // The schedule counts retries after a failure; `maxAttempts` counts the failed attempts themselves.
        rules.reconnect(base: initialDelay.seconds, maximum: maximumDelay.seconds, maxRetries: maxAttempts.map { max(0, $0 - 1) })
        rules.waitsForPairing = waits.pairingApproval
        return rules
    }
}

extension Duration {
    var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}

extension GatewayConfiguration {
    /// Why a `ws://` URL given in code is refused, naming the setting that would allow it for that
    /// host, or saying that none does.
    static func plaintextRefusal(_ url: WebSocketURL) -> String {
        let allowed = PlaintextWebSocketPolicy.isPrivateOrLoopback(url.host)
            ? "; on a trusted private network set allowsPlaintextOnPrivateNetwork (or OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1)"
            : "; \(url.host) is not on a private network, so no setting allows plaintext to it"
        return "refusing plaintext \(url) (GatewayConfiguration.url) to a host that is not loopback: credentials and chat"
            + " would cross the network unencrypted; use wss://, or an SSH tunnel (GatewayConfiguration.official with"
            + " gateway.remote.sshTarget)" + allowed
    }
}
