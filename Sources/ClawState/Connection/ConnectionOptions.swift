@_spi(Engine) import ClawTransport
/// The command-line flags that decide where to connect and with which credentials.
/// Every field is optional; nil means "not given on the command line".
@_spi(Engine) public struct ConnectionOptions: Sendable, Equatable {
    /// `--url`.
    @_spi(Engine) public var url: String?
    /// `--token`.
    @_spi(Engine) public var token: Secret?
    /// `--token-file PATH` (`-` = standard input); read by the resolver, trimmed.
    @_spi(Engine) public var tokenFile: String?
    /// `--password`.
    @_spi(Engine) public var password: Secret?
    /// `--state-dir`.
    @_spi(Engine) public var stateDirectory: String?
    /// `--config`.
    @_spi(Engine) public var configPath: String?
    /// `--tls-fingerprint` (SHA-256 hex, colons allowed).
    @_spi(Engine) public var tlsFingerprint: String?
    /// `--cacert`.
    @_spi(Engine) public var caBundlePath: String?
    /// `--profile NAME` (`--dev` is the profile `dev`); nil reads `OPENCLAW_PROFILE`.
    @_spi(Engine) public var profile: String?
    /// False for a URL given in code (the library's `GatewayConfiguration(url:)`): no profile and no
    /// config file are read, so the URL and the credentials given are all there is; the environment's
    /// proxies and plaintext opt-in still apply.
    @_spi(Engine) public var readsConfigFile = true
    /// Plaintext `ws://` to a private-network host, as `OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1` allows it.
    @_spi(Engine) public var allowsPlaintextOnPrivateNetwork = false

    @_spi(Engine) public init(
        url: String? = nil, token: Secret? = nil, tokenFile: String? = nil, password: Secret? = nil,
        stateDirectory: String? = nil, configPath: String? = nil, tlsFingerprint: String? = nil,
        caBundlePath: String? = nil, profile: String? = nil
    ) {
        self.profile = profile
        self.url = url
        self.token = token
        self.tokenFile = tokenFile
        self.password = password
        self.stateDirectory = stateDirectory
        self.configPath = configPath
        self.tlsFingerprint = tlsFingerprint
        self.caBundlePath = caBundlePath
    }
}

/// Where to connect and with what, plus where each piece came from (for messages to people).
@_spi(Engine) public struct ResolvedConnection: Sendable, Equatable {
    @_spi(Engine) public var url: WebSocketURL
    /// The url option, `OPENCLAW_GATEWAY_URL`, `gateway.remote.url` in the config, or the local gateway.
    @_spi(Engine) public var urlSource: SettingSource
    /// True when the URL came from `--url` or the environment rather than the config file. The official
    /// client never falls back to stored device tokens for such a URL unless credentials were given explicitly.
    @_spi(Engine) public var urlIsOverride: Bool
    /// `gateway.mode` is `remote`: the gateway is not this machine's own.
    @_spi(Engine) public var isRemoteMode: Bool
    @_spi(Engine) public var token: Secret?
    /// The token or token-file option, `OPENCLAW_GATEWAY_TOKEN`, `gateway.auth.token`, … or `.none`.
    @_spi(Engine) public var tokenSource: SettingSource
    @_spi(Engine) public var password: Secret?
    @_spi(Engine) public var passwordSource: SettingSource
    /// SHA-256 of the gateway's leaf certificate to pin, if any.
    @_spi(Engine) public var tlsFingerprint: [UInt8]?
    @_spi(Engine) public var tlsFingerprintSource: SettingSource?
    @_spi(Engine) public var caBundlePath: String?
    /// `gateway.auth.mode` from the config, if set (`token`, `password`, `none`, `trusted-proxy`).
    @_spi(Engine) public var authMode: String?
    @_spi(Engine) public var stateDirectory: String
    @_spi(Engine) public var configPath: String
    /// The profile in use (`--profile`, `--dev`, `OPENCLAW_PROFILE`), if any.
    @_spi(Engine) public var profile: String? = nil
    /// Edge-auth headers for the WebSocket upgrade (`gateway.remote.edgeAuth`), resolved; values are secrets.
    @_spi(Engine) public var upgradeHeaders: [UpgradeHeader] = []
    /// `gateway.bind` from the config, if set (how the local gateway listens; shown in messages).
    @_spi(Engine) public var bindMode: String? = nil
    /// Set when the gateway is reached through an SSH tunnel (`gateway.remote.transport`, `sshTarget`):
    /// `url` is then the configured loopback URL, whose host and path the tunnelled connection keeps.
    @_spi(Engine) public var sshRoute: SSHRoute? = nil
    /// The forward proxy to reach the gateway through (`ProxySelection`); nil to connect directly, and
    /// always nil with an SSH route (the tunnel's end is on this machine).
    @_spi(Engine) public var proxy: ProxyEndpoint? = nil
}
