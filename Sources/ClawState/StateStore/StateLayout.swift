import ClawTransport
/// How a state directory keeps the device identity and device tokens.
public enum StateLayout: Sendable, Equatable {
    /// `<state>/state/openclaw.sqlite` exists (the official CLI since July 2026): rows in the
    /// database only; nothing under `identity/` is ever created, changed or removed.
    case database(StateDatabase)
    /// No database (an older install, or none at all): `identity/device.json` and
    /// `identity/device-auth.json`, which the official tools import when they are upgraded.
    case files

    /// Decided by one look at the directory; nothing is opened.
    public init(stateDirectory: String) {
        self = StateDatabase.find(stateDirectory: stateDirectory).map(StateLayout.database) ?? .files
    }

    /// Where the device tokens for `url` are kept, or nil to neither read nor store any.
    /// `isConfiguredLocalGateway`: the URL is the local gateway the config describes (not one given on
    /// the side, not a remote one). The database files other targets' tokens by the target's scope, as
    /// the official client does; the older files hold only the configured gateway's.
    public func deviceTokenStore(stateDirectory: String, url: WebSocketURL, pinnedSHA256: [UInt8]?,
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
