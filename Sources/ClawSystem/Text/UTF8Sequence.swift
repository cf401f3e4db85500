/// The shape of a multi-byte UTF-8 sequence, read from its lead byte (RFC 3629): how long it is and
/// the range its second byte must fall in, which rules out overlong forms, surrogates and code points
/// above U+10FFFF. Shared by the strict parser, the frame scanner and the WebSocket text check, so they
/// accept the same text (a byte rule every layer may use, so it lives at the bottom).
@frozen
@_spi(Engine) public struct UTF8Sequence {
    @_spi(Engine) public let length: Int
    @_spi(Engine) public let low: UInt8
    @_spi(Engine) public let high: UInt8

    @usableFromInline
    init(length: Int, low: UInt8, high: UInt8) {
        self.length = length
        self.low = low
        self.high = high
    }

    /// nil for an ASCII byte, a continuation byte, or a lead no valid sequence starts with.
    @inlinable @inline(__always)
    @_spi(Engine) public static func starting(with lead: UInt8) -> UTF8Sequence? {
        switch lead {
        case 0xC2...0xDF: return UTF8Sequence(length: 2, low: 0x80, high: 0xBF)
        case 0xE0: return UTF8Sequence(length: 3, low: 0xA0, high: 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return UTF8Sequence(length: 3, low: 0x80, high: 0xBF)
        case 0xED: return UTF8Sequence(length: 3, low: 0x80, high: 0x9F)
        case 0xF0: return UTF8Sequence(length: 4, low: 0x90, high: 0xBF)
        case 0xF1...0xF3: return UTF8Sequence(length: 4, low: 0x80, high: 0xBF)
        case 0xF4: return UTF8Sequence(length: 4, low: 0x80, high: 0x8F)
        default: return nil
        }
    }
}
