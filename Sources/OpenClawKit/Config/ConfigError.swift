/// Why the gateway URL or credentials could not be worked out. Descriptions are one line, name the
/// file, key or variable at fault and the fix, and never contain a credential's value.
public enum ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    case configUnreadable(path: String, reason: String)
    /// JSON5 syntax error at `line`:`column` (1-based).
    case configSyntax(path: String, line: Int, column: Int, message: String)
    /// A key holds the wrong kind of value, e.g. `gateway.port` is a string.
    case configInvalid(path: String, key: String, expected: String)
    /// `${NAME}` in `key` names an environment variable that is unset or empty.
    case missingEnvironmentVariable(name: String, key: String, path: String)
    /// An `{source:"env"}` secret ref names an unset variable (or one its provider does not allow).
    case secretRefUnresolved(key: String, variable: String, path: String)
    /// A secret ref whose source this client cannot resolve (`file`, `exec`, `${pass:…}`, plugins).
    case unsupportedSecretRef(key: String, source: String, path: String)
    case invalidURL(url: String, source: String)
    /// `ws://` to a host that is not loopback.
    case insecureWebSocket(url: String, source: String)
    case remoteURLMissing(path: String)
    case tokenFileUnreadable(path: String, reason: String)
    case tokenFileEmpty(path: String)
    case invalidTLSFingerprint(source: String)
    case conflictingOptions(String)

    public var description: String {
        switch self {
        case .configUnreadable(let path, let reason):
            return "cannot read config file \(path): \(reason)"
        case .configSyntax(let path, let line, let column, let message):
            return "config file \(path):\(line):\(column): \(message)"
        case .configInvalid(let path, let key, let expected):
            return "config file \(path): \(key) must be \(expected)"
        case .missingEnvironmentVariable(let name, let key, let path):
            return "config file \(path): \(key) uses ${\(name)} but the environment variable \(name) is not set"
                + " (set it, or pass --token/--token-file)"
        case .secretRefUnresolved(let key, let variable, let path):
            return "config file \(path): \(key) is a secret ref to the environment variable \(variable),"
                + " which is not set (set it, or pass --token/--token-file)"
        case .unsupportedSecretRef(let key, let source, let path):
            return "config file \(path): \(key) is a \"\(source)\" secret ref, which this client cannot resolve;"
                + " pass --token or --token-file (or set OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD)"
        case .invalidURL(let url, let source):
            return "invalid gateway URL \"\(url)\" from \(source): expected ws://host[:port][/path] or wss://…"
        case .insecureWebSocket(let url, let source):
            return "refusing plaintext \(url) (from \(source)) to a non-loopback host: credentials and chat would"
                + " cross the network unencrypted; use wss://, or an SSH tunnel"
                + " (ssh -N -L 18789:127.0.0.1:18789 user@host, then ws://127.0.0.1:18789),"
                + " or on a trusted private network set OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1"
        case .remoteURLMissing(let path):
            return "config file \(path): gateway.mode is \"remote\" but gateway.remote.url is missing;"
                + " set gateway.remote.url, set gateway.mode to \"local\", or pass --url"
        case .tokenFileUnreadable(let path, let reason):
            return "cannot read --token-file \(path): \(reason)"
        case .tokenFileEmpty(let path):
            return "--token-file \(path) is empty"
        case .invalidTLSFingerprint(let source):
            return "invalid TLS fingerprint from \(source): expected 64 hex digits (SHA-256, colons allowed)"
        case .conflictingOptions(let message):
            return message
        }
    }
}
