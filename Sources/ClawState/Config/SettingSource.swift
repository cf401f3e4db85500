
/// Where a connection setting came from, for messages to people. The library names the place; the
/// caller words its own options (the CLI says `--token`, another front end may say something else).
@_spi(Engine) public indirect enum SettingSource: Sendable, Equatable {
    /// One of the caller's `ConnectionOptions`.
    case option(ConnectionOption)
    /// The token-file option, naming the file as given.
    case tokenFile(path: String)
    case environment(String)
    /// A key of the config file at `path`.
    case configKey(String, path: String)
    /// The loopback gateway; its port came from `port`.
    case localGateway(port: SettingSource)
    case builtInDefault
    /// An older default location that exists (`~/.clawdbot`, …).
    case legacyDefault
    /// A file inside the state directory.
    case stateDirectory
    /// The profile of that name (`~/.openclaw-NAME`, the `dev` profile's port 19001).
    case profile(String)
    /// Nothing supplied it.
    case none
}

/// The fields of `ConnectionOptions`, for `SettingSource.option`.
@_spi(Engine) public enum ConnectionOption: Sendable, Equatable, CaseIterable {
    case url, token, tokenFile, password, stateDirectory, configPath, tlsFingerprint, caBundle, profile
}

extension SettingSource {
    /// Words for messages (`gateway.auth.token in PATH`, `OPENCLAW_GATEWAY_TOKEN`, …); `option` names
    /// the caller's own options, which only the caller knows how to spell.
    @_spi(Engine) public func label(option: (ConnectionOption) -> String) -> String {
        switch self {
        case .option(let which): return option(which)
        case .tokenFile(let path): return "\(option(.tokenFile)) \(path)"
        case .environment(let variable): return variable
        case .configKey(let key, let path): return "\(key) in \(path)"
        case .localGateway(let port): return "local gateway (port from \(port.label(option: option)))"
        case .builtInDefault: return "default"
        case .legacyDefault: return "legacy default"
        case .stateDirectory: return "state dir"
        case .profile(let name): return "profile \(name)"
        case .none: return "none"
        }
    }
}
