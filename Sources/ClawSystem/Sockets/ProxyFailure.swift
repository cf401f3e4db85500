/// Why a forward proxy did not open the way to the gateway: one sentence that names the proxy (its
/// host and port, and where it was configured), never its credentials.
@_spi(Engine) public struct ProxyFailure: Error, Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public enum Kind: Sendable, Equatable {
        /// The proxy itself could not be reached (refused, unreachable, a name that does not resolve).
        case unreachable
        /// HTTP 407: the proxy wants credentials, or refused the ones sent.
        case authentication
        /// The proxy answered CONNECT with another HTTP status (403, …), or a SOCKS5 reply code refused it.
        case refused(status: Int)
        /// The proxy could not reach the gateway (HTTP 502, 503, 504; SOCKS5 unreachable or refused):
        /// the gateway behind it is down or restarting.
        case gatewayUnreachable
        /// The proxy closed the connection, or answered something that is not its protocol.
        case broken
    }

    @_spi(Engine) public let kind: Kind
    @_spi(Engine) public let description: String
    /// The HTTP status of an HTTP proxy's answer to CONNECT, when it refused.
    @_spi(Engine) public let httpStatus: Int?

    @_spi(Engine) public init(_ kind: Kind, _ description: String, httpStatus: Int? = nil) {
        self.kind = kind
        self.description = description
        self.httpStatus = httpStatus
    }

    /// Worth another attempt later: the proxy was away or cut the tunnel; a refusal needs someone to act.
    @_spi(Engine) public var isTransient: Bool {
        switch kind {
        case .unreachable, .broken, .gatewayUnreachable: return true
        case .authentication, .refused: return false
        }
    }
}
