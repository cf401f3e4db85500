/// The Gateway protocol versions this client speaks: sent as `minProtocol`/`maxProtocol` in
/// `connect`, and printed by `openclaw version`.
public enum GatewayProtocol {
    public static let supported: ClosedRange<Int> = 3...4
}
