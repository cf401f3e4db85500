import CClawOpenSSL

/// Where a DER certificate's subject name lies, found by walking TLV headers with OpenSSL's own
/// ASN1_get_object: far cheaper than d2i_X509, which a bundle's lookup would pay for every CA.
enum CertificateSubjectDER {
    /// The subject's whole TLV (header included) within `der`; nil when `der` is not a certificate, or not
    /// enough of one to hold its subject.
    static func range(in der: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = der.baseAddress else { return nil }
        // Errors a malformed block queues are dropped: verification reports its own.
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        var cursor: UnsafePointer<UInt8>? = base
        let end = base + der.count
        var length = 0
        var tag: Int32 = 0
        var tagClass: Int32 = 0
        /// Reads one header; false when it is malformed or its contents overrun `end`, which only the two
        /// outer containers may do (`der` may be the first part of a certificate: the subject is early).
        func header(container: Bool = false) -> Bool {
            guard let at = cursor, at < end else { return false }
            let flags = ASN1_get_object(&cursor, &length, &tag, &tagClass, end - at)
            // 0x80 with the cursor moved: the header was read, its contents are longer than what is here.
            return flags & 0x80 == 0 || (container && cursor != at)
        }
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { … } … }: step into both.
        guard header(container: true), tag == V_ASN1_SEQUENCE, header(container: true), tag == V_ASN1_SEQUENCE else { return nil }
        // version [0] (optional), serialNumber, signature, issuer, validity, then subject.
        var fields = 0
        var isFirst = true
        while let start = cursor {
            guard header() else { return nil }
            let isVersion = isFirst && tagClass == V_ASN1_CONTEXT_SPECIFIC && tag == 0
            isFirst = false
            if !isVersion { fields += 1 }
            guard let contents = cursor else { return nil }
            if fields == 5 {
                guard tag == V_ASN1_SEQUENCE else { return nil }
                return (start - base)..<(contents + length - base)
            }
            cursor = contents + length
        }
        return nil
    }
}
