import ClawTransport
/// The command-line flags that decide where to connect and with which credentials.
/// Every field is optional; nil means "not given on the command line".
package struct ConnectionOptions: Sendable, Equatable {
    /// `--url`.
    package var url: String?
    /// `--token`.
    package var token: Secret?
    /// `--token-file PATH` (`-` = standard input); read by the resolver, trimmed.
    package var tokenFile: String?
    /// `--password`.
    package var password: Secret?
    /// `--state-dir`.
    package var stateDirectory: String?
    /// `--config`.
    package var configPath: String?
    /// `--tls-fingerprint` (SHA-256 hex, colons allowed).
    package var tlsFingerprint: String?
    /// `--cacert`.
    package var caBundlePath: String?
    /// `--profile NAME` (`--dev` is the profile `dev`); nil reads `OPENCLAW_PROFILE`.
    package var profile: String?

    package init(
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
package struct ResolvedConnection: Sendable, Equatable {
    package var url: WebSocketURL
    /// The url option, `OPENCLAW_GATEWAY_URL`, `gateway.remote.url` in the config, or the local gateway.
    package var urlSource: SettingSource
    /// True when the URL came from `--url` or the environment rather than the config file. The official
    /// client never falls back to stored device tokens for such a URL unless credentials were given explicitly.
    package var urlIsOverride: Bool
    /// `gateway.mode` is `remote`: the gateway is not this machine's own.
    package var isRemoteMode: Bool
    package var token: Secret?
    /// The token or token-file option, `OPENCLAW_GATEWAY_TOKEN`, `gateway.auth.token`, … or `.none`.
    package var tokenSource: SettingSource
    package var password: Secret?
    package var passwordSource: SettingSource
    /// SHA-256 of the gateway's leaf certificate to pin, if any.
    package var tlsFingerprint: [UInt8]?
    package var tlsFingerprintSource: SettingSource?
    package var caBundlePath: String?
    /// `gateway.auth.mode` from the config, if set (`token`, `password`, `none`, `trusted-proxy`).
    package var authMode: String?
    package var stateDirectory: String
    package var configPath: String
    /// The profile in use (`--profile`, `--dev`, `OPENCLAW_PROFILE`), if any.
    package var profile: String? = nil
    /// Edge-auth headers for the WebSocket upgrade (`gateway.remote.edgeAuth`), resolved; values are secrets.
    package var upgradeHeaders: [UpgradeHeader] = []
    /// `gateway.bind` from the config, if set (how the local gateway listens; shown in messages).
    package var bindMode: String? = nil
    /// Set when the gateway is reached through an SSH tunnel (`gateway.remote.transport`, `sshTarget`):
    /// `url` is then the configured loopback URL, whose host and path the tunnelled connection keeps.
    package var sshRoute: SSHRoute? = nil
}
