/// A strict reader for the one PEM layout `device.json` holds: an Ed25519 key as PKCS#8 v1
/// (`-----BEGIN PRIVATE KEY-----`, RFC 8410 §7) or SPKI (`-----BEGIN PUBLIC KEY-----`, RFC 8410 §4).
///
/// Both are fixed byte strings around the 32-byte key, so reading them is a comparison, not ASN.1 parsing.
/// OpenSSL's generic decoder enumerates every provider's decoders for each key, thousands of times what
/// this comparison costs (bench/README.md). Anything that is not exactly this layout gives nil and the caller falls
/// back to OpenSSL's decoder, so an unusual but valid file (e.g. PKCS#8 v2 with the public key attached)
/// still loads. The key bytes are handed to OpenSSL (`EVP_PKEY_new_raw_*`); no cryptography happens here.
enum Ed25519PEM {
    /// `SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.112 }, OCTET STRING { OCTET STRING (32) } }`.
    static let pkcs8Prefix: [UInt8] = [
        0x30, 0x2E, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
    ]
    /// `SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING (0 unused bits, 32 bytes) }`.
    static let spkiPrefix: [UInt8] = [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00]

    /// The 32-byte private key (seed) of a PKCS#8 v1 Ed25519 PEM, or nil when `pem` is anything else.
    static func rawPrivateKey(pem: some StringProtocol) -> [UInt8]? {
        guard let der = body(of: Array(pem.utf8), label: "PRIVATE KEY") else { return nil }
        return rawKey(der: der, prefix: pkcs8Prefix)
    }

    /// The 32-byte public key of an SPKI Ed25519 PEM, or nil when `pem` is anything else.
    static func rawPublicKey(pem: some StringProtocol) -> [UInt8]? {
        guard let der = body(of: Array(pem.utf8), label: "PUBLIC KEY") else { return nil }
        return rawKey(der: der, prefix: spkiPrefix)
    }

    /// The key after `prefix` when `der` is exactly `prefix` + 32 bytes.
    static func rawKey(der: [UInt8], prefix: [UInt8]) -> [UInt8]? {
        guard der.count == prefix.count + 32, der.starts(with: prefix) else { return nil }
        return Array(der[prefix.count...])
    }

    /// The DER inside `-----BEGIN <label>-----` … `-----END <label>-----`: optional surrounding ASCII
    /// whitespace (the header still at the start of a line), LF or CRLF line ends, body lines of at most 64 canonical base64 characters, padding only
    /// at the very end. Headers (`Proc-Type:`), other labels and anything after the footer give nil.
    static func body(of text: [UInt8], label: String) -> [UInt8]? {
        let begin = Array("-----BEGIN \(label)-----".utf8)
        let end = Array("-----END \(label)-----".utf8)
        var start = 0
        var stop = text.count
        while start < stop, isSpace(text[start]) { start += 1 }
        while stop > start, isSpace(text[stop - 1]) { stop -= 1 }
        // The header must start a line, as OpenSSL reads it: "\r-----BEGIN" or " -----BEGIN" is not one.
        guard start == 0 || text[start - 1] == 0x0A,
              stop - start >= begin.count + end.count,
              text[start..<start + begin.count].elementsEqual(begin),
              text[stop - end.count..<stop].elementsEqual(end)
        else { return nil }
        var i = start + begin.count
        let bodyEnd = stop - end.count
        guard let afterBegin = lineBreak(text, at: i, limit: bodyEnd) else { return nil }
        i = afterBegin
        var base64 = [UInt8]()
        base64.reserveCapacity(bodyEnd - i)
        while i < bodyEnd {
            let lineStart = i
            while i < bodyEnd, text[i] != 0x0A, text[i] != 0x0D { i += 1 }
            let length = i - lineStart
            guard length > 0, length <= 64 else { return nil }
            base64.append(contentsOf: text[lineStart..<i])
            guard let next = lineBreak(text, at: i, limit: bodyEnd) else { return nil }
            i = next
        }
        return decodeBase64(base64)
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 }

    /// The index after an LF or CRLF at `i` (which must lie before `limit`), else nil.
    private static func lineBreak(_ text: [UInt8], at i: Int, limit: Int) -> Int? {
        if i < limit, text[i] == 0x0A { return i + 1 }
        if i + 1 < limit, text[i] == 0x0D, text[i + 1] == 0x0A { return i + 2 }
        return nil
    }

    /// Standard-alphabet base64 with padding, strictly: a multiple of 4 characters, `=` only in the last
    /// two places, and zero bits where padding leaves them unused (one byte string has one encoding).
    static func decodeBase64(_ chars: [UInt8]) -> [UInt8]? {
        guard !chars.isEmpty, chars.count % 4 == 0 else { return nil }
        var padding = 0
        if chars[chars.count - 1] == UInt8(ascii: "=") { padding = 1 }
        if padding == 1, chars[chars.count - 2] == UInt8(ascii: "=") { padding = 2 }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 4 * 3)
        var n: UInt32 = 0
        for index in 0..<(chars.count - padding) {
            guard let value = sextet(chars[index]) else { return nil }
            n = n << 6 | value
            if index % 4 == 3 {
                out.append(UInt8(truncatingIfNeeded: n >> 16))
                out.append(UInt8(truncatingIfNeeded: n >> 8))
                out.append(UInt8(truncatingIfNeeded: n))
                n = 0
            }
        }
        switch padding {
        case 1:  // 3 sextets = 18 bits: two bytes, 2 unused bits
            guard n & 0x3 == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: n >> 10))
            out.append(UInt8(truncatingIfNeeded: n >> 2))
        case 2:  // 2 sextets = 12 bits: one byte, 4 unused bits
            guard n & 0xF == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: n >> 4))
        default:
            break
        }
        return out
    }

    private static func sextet(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(c - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        default: return nil
        }
    }
}
