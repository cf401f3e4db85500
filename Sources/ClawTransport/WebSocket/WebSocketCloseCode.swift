
/// RFC 6455 §7.4 status codes this codec sends, and which received codes are legal.
@_spi(Engine) public enum WebSocketCloseCode {
    @_spi(Engine) public static let normal: UInt16 = 1000
    @_spi(Engine) public static let goingAway: UInt16 = 1001
    @_spi(Engine) public static let protocolError: UInt16 = 1002
    @_spi(Engine) public static let unsupportedData: UInt16 = 1003
    @_spi(Engine) public static let invalidPayload: UInt16 = 1007
    @_spi(Engine) public static let policyViolation: UInt16 = 1008
    @_spi(Engine) public static let messageTooBig: UInt16 = 1009
    @_spi(Engine) public static let internalError: UInt16 = 1011
    /// "Try again later": the gateway is suspended, restarting or starting.
    @_spi(Engine) public static let tryAgainLater: UInt16 = 1013

    /// Codes a peer may put in a close frame: 1004–1006 and 1015 are reserved for reporting, not sending.
    @_spi(Engine) public static func isValidOnTheWire(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }
}
