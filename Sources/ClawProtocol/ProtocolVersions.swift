/// The Gateway protocol versions this client speaks: sent as `minProtocol`/`maxProtocol` in
/// `connect`, and printed by `openclaw version`.
package enum GatewayProtocol {
    package static let supported: ClosedRange<Int> = 3...4
}
