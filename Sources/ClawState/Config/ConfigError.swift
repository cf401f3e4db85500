/// Why the gateway URL or credentials could not be worked out: the file, key or variable at fault,
/// never a credential's value. The caller turns it into words (the CLI: `FailureMessages`).
public enum ConfigError: Error, Sendable, Equatable {
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
    /// A `store` secret ref names a secret the state database does not hold (or an invalid name).
    case storedSecretMissing(key: String, name: String, path: String)
    /// A `store` secret ref could not be read: the state database is damaged, locked or unreadable.
    case secretStoreUnavailable(key: String, path: String, StateDatabaseError)
    case invalidURL(url: String, source: SettingSource)
    /// `ws://` to a host that is not loopback.
    case insecureWebSocket(url: String, source: SettingSource)
    case remoteURLMissing(path: String)
    case tokenFileUnreadable(path: String, reason: String)
    case tokenFileEmpty(path: String)
    case invalidTLSFingerprint(source: SettingSource)
    /// Two options that exclude each other were both given.
    case conflictingOptions(ConnectionOption, ConnectionOption)
}
