import CClawOpenSSL

/// A cheap key of a DER Name that two names OpenSSL holds equal always share, so that a bundle's lookup
/// parses (d2i_X509_NAME, the costly part) only the subjects that may match; X509_NAME_cmp still decides,
/// so two different names that share a key (a hash collision) only cost one more parse.
///
/// OpenSSL compares canonical encodings: the string types it canonicalises become UTF-8 with ASCII
/// lowercased and whitespace trimmed and collapsed, other types stay as they are, and the entries of
/// one RDN are sorted. The key hashes each entry's OID and, for those strings, the bytes less ASCII
/// whitespace with ASCII lowercased (which canonicalisation never changes otherwise); other types whole;
/// each RDN's entries in any order. Where that cannot be told from the bytes (BMPString, UniversalString,
/// non-ASCII in a one-byte type) or the DER is unexpected, there is no key and the name is parsed.
enum CertificateNameKey {
    /// The key of a parsed name (an X509_NAME), from its DER.
    static func key(of name: OpaquePointer) -> UInt64? {
        var der: UnsafePointer<UInt8>? = nil
        var length = 0
        guard X509_NAME_get0_der(name, &der, &length) == 1, let der else { return nil }
        return key(ofName: UnsafeBufferPointer(start: der, count: length))
    }

    static func key(ofName der: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard var headers = DERHeaders(der) else { return nil }
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        /// A whole universal header of this tag.
        func read(_ tag: Int32) -> Bool {
            headers.read() && !headers.overruns && headers.tagClass == V_ASN1_UNIVERSAL && headers.tag == tag
        }
        guard read(V_ASN1_SEQUENCE), let first = headers.cursor else { return nil }
        let nameEnd = first + headers.length
        var key = Hash()
        while let at = headers.cursor, at < nameEnd {
            guard read(V_ASN1_SET), let contents = headers.cursor else { return nil }
            let setEnd = contents + headers.length
            // Entries summed: the same RDN in any order has the same key.
            var rdn: UInt64 = 0
            while let entryAt = headers.cursor, entryAt < setEnd {
                guard read(V_ASN1_SEQUENCE), let oid = headers.cursor, read(V_ASN1_OBJECT), let oidContents = headers.cursor
                else { return nil }
                var entry = Hash()
                entry.add(UnsafeBufferPointer(start: oid, count: oidContents + headers.length - oid))
                headers.skipContents()
                guard headers.read(), !headers.overruns, headers.tagClass == V_ASN1_UNIVERSAL, !headers.isConstructed,
                      let value = headers.cursor else { return nil }
                headers.skipContents()
                guard fold(UnsafeBufferPointer(start: value, count: headers.length), tag: headers.tag, into: &entry) else { return nil }
                rdn &+= entry.value
            }
            guard headers.cursor == setEnd else { return nil }
            key.add(word: rdn)
        }
        return headers.cursor == nameEnd ? key.value : nil
    }

    /// Adds a string value as canonicalisation would leave it; false when that cannot be told from its bytes.
    private static func fold(_ bytes: UnsafeBufferPointer<UInt8>, tag: Int32, into hash: inout Hash) -> Bool {
        switch tag {
        case V_ASN1_UTF8STRING, V_ASN1_PRINTABLESTRING, V_ASN1_T61STRING, V_ASN1_IA5STRING, V_ASN1_VISIBLESTRING:
            // One-byte types are converted to UTF-8 first: only pure ASCII stays byte for byte.
            if tag != V_ASN1_UTF8STRING && bytes.contains(where: { $0 >= 0x80 }) { return false }
            hash.add(UInt8(1))
            for byte in bytes {
                switch byte {
                case 0x20, 0x09...0x0D: continue // ossl_isspace: trimmed and collapsed
                case 0x41...0x5A: hash.add(byte + 0x20)
                default: hash.add(byte)
                }
            }
            return true
        case V_ASN1_BMPSTRING, V_ASN1_UNIVERSALSTRING:
            return false
        default:
            // Not canonicalised: compared with its type, byte for byte.
            hash.add(UInt8(2))
            hash.add(UInt8(truncatingIfNeeded: tag))
            hash.add(bytes)
            return true
        }
    }

    /// FNV-1a, 64 bits: a filter, not a defence (bundles are trusted files).
    private struct Hash {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
        }

        mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes { add(byte) }
        }

        mutating func add(word: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { add(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
    }
}
