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
        text.withContiguousStorageIfAvailable(decode(contiguous:)) ?? Array(text).withUnsafeBufferPointer(decode(contiguous:))
    }

    private static func decode(contiguous text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: text.count / 4 * 3 + 3)
        var written = 0
        var accumulator: UInt32 = 0
        var bits = 0
        var sawPadding = false
        let complete: Bool = decodeTable.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBufferPointer { output in
                // One table look-up a character: system CA bundles are ~200 KB of base64.
                for c in text {
                    let value = table[Int(c)]
                    if value >= 64 {
                        if value == padding { sawPadding = true; continue }
                        if value == whitespace { continue }
                        return false
                    }
                    if sawPadding { return false }
                    accumulator = accumulator << 6 | UInt32(value)
                    bits += 6
                    if bits >= 8 {
                        bits -= 8
                        output[written] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                        written += 1
                    }
                }
                return true
            }
        }
        guard complete else { return nil }
        out.removeSubrange(written...)
        // A single leftover sextet cannot encode a byte.
        return bits >= 6 ? nil : out
    }

    private static let padding: UInt8 = 64
    private static let whitespace: UInt8 = 65
    /// Each byte's sextet (both alphabets), `padding`, `whitespace` (ASCII space, tab, CR, LF), or 255.
    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 255, count: 256)
        for (index, c) in standardAlphabet.enumerated() { table[Int(c)] = UInt8(index) }
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        table[Int(UInt8(ascii: "="))] = padding
        for c in [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")] { table[Int(c)] = whitespace }
        return table
    }()
}
