/// Base64 (RFC 4648 §4) and base64url without padding (§5), as the protocol uses them.
@_spi(Engine) public enum Base64 {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    @_spi(Engine) public static func encode(_ bytes: some Collection<UInt8>) -> String {
        encode(Array(bytes), alphabet: standardAlphabet, pad: true)
    }

    @_spi(Engine) public static func encodeURL(_ bytes: some Collection<UInt8>) -> String {
        encode(Array(bytes), alphabet: urlAlphabet, pad: false)
    }

    private static func encode(_ input: [UInt8], alphabet: [UInt8], pad: Bool) -> String {
        var out = [UInt8]()
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)]); out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = input.count - i
        if rest > 0 {
            var n = UInt32(input[i]) << 16
            if rest == 2 { n |= UInt32(input[i + 1]) << 8 }
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            if rest == 2 { out.append(alphabet[Int(n >> 6 & 63)]) } else if pad { out.append(UInt8(ascii: "=")) }
            if pad { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes either alphabet, with or without padding; ignores ASCII whitespace (PEM bodies wrap lines).
    @_spi(Engine) public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(utf8: text.utf8)
    }

    /// The same, from bytes (a PEM block inside a file read whole, with no String made of it).
    @_spi(Engine) public static func decode(utf8 text: some Collection<UInt8>) -> [UInt8]? {
        var out = [UInt8]()
        out.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        var sawPadding = false
        for c in text {
            let value: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="): sawPadding = true; continue
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
            if sawPadding { return nil }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // A single leftover sextet cannot encode a byte.
        return bits >= 6 ? nil : out
    }
}
