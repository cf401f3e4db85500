import CClawOpenSSL

/// Where a DER certificate's subject name lies, found by walking TLV headers with OpenSSL's own
/// ASN1_get_object: far cheaper than d2i_X509, which a bundle's lookup would pay for every CA.
enum CertificateSubjectDER {
    /// The subject's whole TLV (header included) within `der`; nil when `der` is not a certificate, or not
    /// enough of one to hold its subject.
    static func range(in der: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard let base = der.baseAddress, var headers = DERHeaders(der) else { return nil }
        // Errors a malformed block queues are dropped: verification reports its own.
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        /// Only the two outer containers may run past `der` (it may be the first part of a certificate).
        func read(container: Bool = false) -> Bool { headers.read() && (container || !headers.overruns) }
        // Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { … } … }: step into both.
        guard read(container: true), headers.tag == V_ASN1_SEQUENCE, read(container: true), headers.tag == V_ASN1_SEQUENCE
        else { return nil }
        // version [0] (optional), serialNumber, signature, issuer, validity, then subject.
        var fields = 0
        var isFirst = true
        while let start = headers.cursor {
            guard read() else { return nil }
            let isVersion = isFirst && headers.tagClass == V_ASN1_CONTEXT_SPECIFIC && headers.tag == 0
            isFirst = false
            if !isVersion { fields += 1 }
            guard let contents = headers.cursor else { return nil }
            if fields == 5 {
                guard headers.tag == V_ASN1_SEQUENCE else { return nil }
                return (start - base)..<(contents + headers.length - base)
            }
            headers.skipContents()
        }
        return nil
    }
}
