import CClawOpenSSL

/// One-shot message digests from OpenSSL.
@_spi(Engine) public enum Digest {
    @_spi(Engine) public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        digest(bytes, EVP_sha256(), length: 32)
    }

    /// SHA-1 is only used where RFC 6455 requires it (the `Sec-WebSocket-Accept` key).
    @_spi(Engine) public static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] {
        digest(bytes, EVP_sha1(), length: 20)
    }

    private static func digest(_ bytes: some Collection<UInt8>, _ md: OpaquePointer?, length: Int) -> [UInt8] {
        let input = Array(bytes)
        var output = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        let ok = input.withUnsafeBytes { inputBuffer in
            EVP_Digest(inputBuffer.baseAddress, inputBuffer.count, &output, &written, md, nil)
        }
        // EVP_Digest only fails on allocation failure; there is no sensible recovery.
        precondition(ok == 1 && Int(written) == length, "EVP_Digest failed")
        return output
    }
}

/// Lowercase hexadecimal text of bytes, and back.
@_spi(Engine) public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    @_spi(Engine) public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Accepts upper- or lowercase digits and optional `:` separators (as in certificate fingerprints).
    @_spi(Engine) public static func decode(_ text: String) -> [UInt8]? {
        var out = [UInt8]()
        var high: UInt8? = nil
        for c in text.utf8 {
            if c == UInt8(ascii: ":") && high == nil { continue }
            let value: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let h = high { out.append(h << 4 | value); high = nil } else { high = value }
        }
        return high == nil ? out : nil
    }
}
