@_spi(Engine) import ClawState
/// Where a session's gateway URL came from, for the message of a connect that fails: the setting
/// that chose it and the config file that was read (where another URL or port could go). The
/// caller words it; the library only carries it from the resolver to the error.
@_spi(Engine) public struct URLOrigin: Sendable, Equatable {
    /// `--url`, `OPENCLAW_GATEWAY_URL`, `gateway.remote.url`, or the local gateway with its port's source.
    @_spi(Engine) public var source: SettingSource
    /// The config file the URL was resolved with, whether or not it exists.
    @_spi(Engine) public var configPath: String?

    @_spi(Engine) public init(source: SettingSource, configPath: String? = nil) {
        self.source = source
        self.configPath = configPath
    }
}
