
/// The Gateway protocol versions this client speaks: sent as `minProtocol`/`maxProtocol` in
/// `connect`, and printed by `openclaw version`.
@_spi(Engine) public enum GatewayProtocol {
    @_spi(Engine) public static let supported: ClosedRange<Int> = 3...4
}
