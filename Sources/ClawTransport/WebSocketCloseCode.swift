/// RFC 6455 §7.4 status codes this codec sends, and which received codes are legal.
package enum WebSocketCloseCode {
    package static let normal: UInt16 = 1000
    package static let goingAway: UInt16 = 1001
    package static let protocolError: UInt16 = 1002
    package static let unsupportedData: UInt16 = 1003
    package static let invalidPayload: UInt16 = 1007
    package static let policyViolation: UInt16 = 1008
    package static let messageTooBig: UInt16 = 1009
    package static let internalError: UInt16 = 1011
    /// "Try again later": the gateway is suspended, restarting or starting.
    package static let tryAgainLater: UInt16 = 1013

    /// Codes a peer may put in a close frame: 1004–1006 and 1015 are reserved for reporting, not sending.
    package static func isValidOnTheWire(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }
}
