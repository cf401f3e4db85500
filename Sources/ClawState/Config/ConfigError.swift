
/// Why the gateway URL or credentials could not be worked out: the file, key or variable at fault,
/// never a credential's value. The caller turns it into words (the CLI: `FailureMessages`).
@_spi(Engine) public enum ConfigError: Error, Sendable, Equatable {
    case configUnreadable(path: String, reason: String)
    /// JSON5 syntax error at `line`:`column` (1-based).
    case configSyntax(path: String, line: Int, column: Int, message: String)
    /// A key holds the wrong kind of value, e.g. `gateway.port` is a string.
    case configInvalid(path: String, key: String, expected: String)
    /// `${NAME}` in `key` names an environment variable that is unset or empty.
    case missingEnvironmentVariable(name: String, key: String, path: String)
    /// A `${pass:…}` / `${gopass:…}` lookup in `key`, which this client does not run.
    case unsupportedSecretRef(key: String, source: String, path: String)
    /// The secret ref at `key` (the credential that wins) could not be resolved through its provider.
    case secretUnavailable(key: String, path: String, ref: SecretRef, problem: SecretProblem)
    /// A signal arrived while a secret provider command ran; the command was stopped.
    case secretResolutionInterrupted(key: String, path: String, ref: SecretRef)
    /// `--profile`, `OPENCLAW_PROFILE`: not 1 to 64 letters, digits, `_` or `-` starting with a letter or digit.
    case invalidProfile(name: String, source: SettingSource)
    case invalidURL(url: String, source: SettingSource)
    /// `ws://` to a host that is not loopback.
    case insecureWebSocket(url: String, source: SettingSource)
    /// A `ws://` URL that would be refused as plaintext names a host that does not resolve: the typo is
    /// the news, not the plaintext. `reason` is the resolver's (getaddrinfo's) own.
    case unresolvableHost(host: String, reason: String)
    case remoteURLMissing(path: String)
    case tokenFileUnreadable(path: String, reason: String)
    case tokenFileEmpty(path: String)
    case invalidTLSFingerprint(source: SettingSource)
    /// A TLS pin for a `ws://` URL: there is no certificate to pin.
    case tlsPinRequiresWSS(source: SettingSource)
    /// `gateway.remote.edgeAuth` applies to a `ws://` target: the headers would cross in clear text.
    case edgeAuthRequiresWSS(path: String)
    /// A `gateway.remote.edgeAuth` header resolved to nothing usable.
    case edgeAuthHeaderEmpty(path: String, name: String)
    /// Two options that exclude each other were both given.
    case conflictingOptions(ConnectionOption, ConnectionOption)
    /// A proxy URL (`HTTPS_PROXY`, `proxy.proxyUrl`, …) that cannot be used; `problem` never repeats it.
    case invalidProxyURL(source: SettingSource, problem: String)
    /// `proxy.enabled` is true but neither `proxy.proxyUrl` nor `OPENCLAW_PROXY_URL` names a proxy:
    /// the official runtime fails closed rather than connect directly, and so does this client.
    case proxyURLMissing(path: String)
    /// `proxy.loopbackMode` is `block` and the gateway URL is loopback: refused before any socket.
    case proxyBlocksLoopback(url: String, path: String)
}
