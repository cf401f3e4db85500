@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport
/// How a state directory keeps the device identity and device tokens.
@_spi(Engine) public enum StateLayout: Sendable, Equatable {
    /// The state database, `<state>/state/openclaw.sqlite`: rows only; nothing under `identity/` is
    /// ever created, changed or removed. Either it exists (the official CLI since July 2026), or the
    /// machine has no OpenClaw state at all and this client creates it as a native client does, the
    /// first time it needs its device identity (`DeviceIdentity.loadOrCreate`).
    case database(StateDatabase)
    /// No database, but `identity/device.json` or `identity/device-auth.json` (an install older than
    /// July 2026): those files, which the official tools import when they are upgraded.
    case files

    /// Decided by one look at the directory; nothing is opened or created. `environment`: the
    /// command's, for where the device identity lock lives.
    @_spi(Engine) public init(stateDirectory: String, environment: Environment = .current()) {
        let database = StateDatabase(path: StateDatabase.path(stateDirectory: stateDirectory),
                                     temporaryDirectory: IdentityCreationLock.temporaryDirectory(environment))
        if FileSystem.exists(database.path) {
            self = .database(database)
        } else if FileSystem.lexists(DeviceIdentity.path(stateDirectory: stateDirectory))
                    || FileSystem.lexists(DeviceAuthStore(stateDirectory: stateDirectory).path) {
            self = .files
        } else {
            self = .database(database)
        }
    }

    /// Where the device tokens for `url` are kept, or nil to neither read nor store any.
    /// `isConfiguredLocalGateway`: the URL is the local gateway the config describes (not one given on
    /// the side, not a remote one). The database files other targets' tokens by the target's scope, as
    /// the official client does (a database a native client created has no table for them: they are
    /// then neither read nor kept); the older files hold only the configured gateway's.
    @_spi(Engine) public func deviceTokenStore(stateDirectory: String, url: WebSocketURL, pinnedSHA256: [UInt8]?,
                                 isConfiguredLocalGateway: Bool, isOverride: Bool) -> (any DeviceTokenStore)? {
        switch self {
        case .files:
            return isOverride ? nil : DeviceAuthStore(stateDirectory: stateDirectory)
        case .database(let database):
            let target: DatabaseDeviceTokens.Target = isConfiguredLocalGateway
                ? .configuredGateway : .gatewayScope(DeviceTokenScope.forTarget(url, pinnedSHA256: pinnedSHA256))
            return DatabaseDeviceTokens(database: database, target: target, stateDirectory: stateDirectory)
        }
    }
}
