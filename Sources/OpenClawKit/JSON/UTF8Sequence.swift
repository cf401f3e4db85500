/// The shape of a multi-byte UTF-8 sequence, read from its lead byte (RFC 3629): how long it is and
/// the range its second byte must fall in, which rules out overlong forms, surrogates and code points
/// above U+10FFFF. Shared by the strict parser and the frame scanner so they accept the same text.
struct UTF8Sequence {
    let length: Int
    let low: UInt8
    let high: UInt8

    /// nil for an ASCII byte, a continuation byte, or a lead no valid sequence starts with.
    @inline(__always)
    static func starting(with lead: UInt8) -> UTF8Sequence? {
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
