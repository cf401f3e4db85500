/// Validates UTF-8 fed in pieces, so a text message split across fragments (even inside a character) is checked
/// as one; rejects overlongs, surrogates and code points above U+10FFFF.
@_spi(Engine) public struct UTF8StreamValidator {
    private var remaining: UInt8 = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// True when no character is left half-finished.
    @_spi(Engine) public init() {}

    @_spi(Engine) public var isComplete: Bool { remaining == 0 }

    /// Feeds more bytes; `false` as soon as they cannot be UTF-8.
    @_spi(Engine) public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        while i < count {
            if remaining == 0 {
                // ASCII fast path, 32 then eight bytes at a time.
                while i + 32 <= count {
                    let any = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        | base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                        | base.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
                        | base.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
                    if any & 0x8080_8080_8080_8080 != 0 { break }
                    i += 32
                }
                while i + 8 <= count, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                }
                if i >= count { break }
                let byte = base.load(fromByteOffset: i, as: UInt8.self)
                i += 1
                if byte < 0x80 { continue }
                // The same table as the JSON parser and frame scanner, so all three accept the same text.
                guard let sequence = UTF8Sequence.starting(with: byte) else { return false }
                remaining = UInt8(truncatingIfNeeded: sequence.length - 1); lower = sequence.low; upper = sequence.high
            } else {
                let byte = base.load(fromByteOffset: i, as: UInt8.self)
                i += 1
                guard byte >= lower && byte <= upper else { return false }
                remaining -= 1
                lower = 0x80; upper = 0xBF
            }
        }
        return true
    }

    /// Whole-buffer validation.
    @_spi(Engine) public static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var validator = UTF8StreamValidator()
        return validator.feed(bytes) && validator.isComplete
    }

    @_spi(Engine) public static func isValid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { isValid($0) } }
}
