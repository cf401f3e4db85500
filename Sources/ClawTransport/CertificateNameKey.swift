import CClawOpenSSL

/// A cheap key of a DER Name that two names OpenSSL holds equal always share, so that a bundle's lookup
/// parses (d2i_X509_NAME, the costly part) only the subjects that may match; X509_NAME_cmp still decides.
///
/// OpenSSL compares canonical encodings: the string types it canonicalises become UTF-8 with ASCII
/// lowercased and whitespace trimmed and collapsed, other types stay as they are, and the entries of
/// one RDN are sorted. The key keeps each entry's OID and, for those strings, the bytes less ASCII
/// whitespace with ASCII lowercased (which canonicalisation never changes otherwise); other types whole;
/// each RDN's entries sorted. Where that cannot be told from the bytes (BMPString, UniversalString,
/// non-ASCII in a one-byte type) or the DER is unexpected, there is no key and the name is parsed.
enum CertificateNameKey {
    /// The key of a parsed name (an X509_NAME), from its DER.
    static func key(of name: OpaquePointer) -> [UInt8]? {
        var der: UnsafePointer<UInt8>? = nil
        var length = 0
        guard X509_NAME_get0_der(name, &der, &length) == 1, let der else { return nil }
        return key(ofName: UnsafeBufferPointer(start: der, count: length))
    }

    static func key(ofName der: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let base = der.baseAddress else { return nil }
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        var cursor: UnsafePointer<UInt8>? = base
        let end = base + der.count
        var length = 0
        var tag: Int32 = 0
        var tagClass: Int32 = 0
        var isConstructed = false
        func header() -> Bool {
            guard let at = cursor, at < end else { return false }
            let flags = ASN1_get_object(&cursor, &length, &tag, &tagClass, end - at)
            isConstructed = flags & V_ASN1_CONSTRUCTED != 0
            return flags & 0x80 == 0 && tagClass == V_ASN1_UNIVERSAL
        }
        guard header(), tag == V_ASN1_SEQUENCE, let first = cursor else { return nil }
        let nameEnd = first + length
        var key: [UInt8] = []
        while let at = cursor, at < nameEnd {
            guard header(), tag == V_ASN1_SET, let contents = cursor else { return nil }
            let setEnd = contents + length
            var entries: [[UInt8]] = []
            while let entryAt = cursor, entryAt < setEnd {
                guard header(), tag == V_ASN1_SEQUENCE, let oid = cursor, header(), tag == V_ASN1_OBJECT,
                      let oidContents = cursor else { return nil }
                var entry = Array(UnsafeBufferPointer(start: oid, count: oidContents + length - oid))
                cursor = oidContents + length
                guard header(), !isConstructed, let value = cursor else { return nil }
                let bytes = UnsafeBufferPointer(start: value, count: length)
                cursor = value + length
                guard let folded = fold(bytes, tag: tag) else { return nil }
                appendLength(folded.count, to: &entry)
                entry += folded
                entries.append(entry)
            }
            guard cursor == setEnd else { return nil }
            entries.sort { $0.lexicographicallyPrecedes($1) }
            appendLength(entries.count, to: &key)
            for entry in entries {
                appendLength(entry.count, to: &key)
                key += entry
            }
        }
        return cursor == nameEnd ? key : nil
    }

    /// A string value as the key holds it; nil when canonicalisation's result cannot be told from its bytes.
    private static func fold(_ bytes: UnsafeBufferPointer<UInt8>, tag: Int32) -> [UInt8]? {
        switch tag {
        case V_ASN1_UTF8STRING, V_ASN1_PRINTABLESTRING, V_ASN1_T61STRING, V_ASN1_IA5STRING, V_ASN1_VISIBLESTRING:
            // One-byte types are converted to UTF-8 first: only pure ASCII stays byte for byte.
            if tag != V_ASN1_UTF8STRING && bytes.contains(where: { $0 >= 0x80 }) { return nil }
            var out: [UInt8] = [1]
            out.reserveCapacity(bytes.count + 1)
            for byte in bytes {
                switch byte {
                case 0x20, 0x09...0x0D: continue // ossl_isspace: trimmed and collapsed
                case 0x41...0x5A: out.append(byte + 0x20)
                default: out.append(byte)
                }
            }
            return out
        case V_ASN1_BMPSTRING, V_ASN1_UNIVERSALSTRING:
            return nil
        default:
            // Not canonicalised: compared with its type, byte for byte.
            return [2, UInt8(truncatingIfNeeded: tag)] + Array(bytes)
        }
    }

    private static func appendLength(_ count: Int, to key: inout [UInt8]) {
        key += [UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }
}
