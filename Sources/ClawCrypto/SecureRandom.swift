import CClawOpenSSL

/// Cryptographically secure random bytes: the kernel's CSPRNG (getrandom(2)), or OpenSSL's when that
/// call is unavailable. (A process needs a few dozen random bytes; seeding OpenSSL's DRBG for them
/// cost more than a third of a one-shot command's own work.)
@_spi(Engine) public enum SecureRandom {
    @_spi(Engine) public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        let ok = out.withUnsafeMutableBytes { buffer in
            openclaw_getrandom(buffer.baseAddress!, count) == 1
                || RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(count)) == 1
        }
        // Both fail only when no CSPRNG can be seeded; continuing would be unsafe.
        precondition(ok, "the system random source is unavailable")
        return out
    }

    /// A random (version 4) UUID in its lowercase 8-4-4-4-12 text form.
    @_spi(Engine) public static func uuid() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        let hex = Array(Hex.encode(b).utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (i, c) in hex.enumerated() {
            if i == 8 || i == 12 || i == 16 || i == 20 { out.append(UInt8(ascii: "-")) }
            out.append(c)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
