import CClawOpenSSL

/// Why a server's certificate chain was refused, in words that say what to fix: OpenSSL's reason, the
/// certificate it concerns and, for the usual deployment mistakes, what the server or client should do.
enum CertificateRefusal {
    static func explain(verifyResult result: Int, ssl: OpaquePointer) -> String {
        let reason = X509_verify_cert_error_string(result).map { String(cString: $0) } ?? "error \(result)"
        let chain = (0..<Int(openclaw_peer_chain_count(ssl))).compactMap { openclaw_peer_chain_at(ssl, Int32($0)) }
        let leaf = chain.first
        switch Int32(result) {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            guard let expired = chain.first(where: { X509_cmp_current_time(X509_get0_notAfter($0)) < 0 }) else { return reason }
            return "\(reason): \(name(of: expired)) was valid until \(time(X509_get0_notAfter(expired)))"
        case X509_V_ERR_CERT_NOT_YET_VALID:
            guard let early = chain.first(where: { X509_cmp_current_time(X509_get0_notBefore($0)) > 0 }) else { return reason }
            return "\(reason): \(name(of: early)) is valid from \(time(X509_get0_notBefore(early))) (is this machine's clock right?)"
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
            guard let last = chain.last else { return reason }
            let issuer = describe(X509_get_issuer_name(last))
            if chain.count == 1 {
                return "\(reason): the server sent only its own certificate, issued by \(issuer), which is not a trusted root;"
                    + " a server must send its intermediate certificates too (the full chain, e.g. fullchain.pem), or that issuer must be trusted"
            }
            return "\(reason): the chain ends at \(issuer), an authority this machine does not trust"
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
            return "\(reason): \(leaf.map(name(of:)) ?? "the certificate") signs itself and is not trusted"
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
            guard let root = chain.last else { return reason }
            return "\(reason): the chain ends at root \(name(of: root)), which this machine does not trust"
        default:
            return reason
        }
    }

    /// `"CN"` of the certificate's subject, or its whole subject when it has no common name.
    private static func name(of certificate: OpaquePointer) -> String {
        "\"\(describe(X509_get_subject_name(certificate)))\""
    }

    private static func describe(_ name: OpaquePointer?) -> String {
        guard let name else { return "an unnamed authority" }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        if index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry),
           let bytes = ASN1_STRING_get0_data(data) {
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))), as: UTF8.self)
        }
        var buffer = [CChar](repeating: 0, count: 256)
        guard X509_NAME_oneline(name, &buffer, 256) != nil else { return "an unnamed authority" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func time(_ value: UnsafePointer<ASN1_TIME>?) -> String {
        guard let value, let bio = BIO_new(BIO_s_mem()) else { return "?" }
        defer { BIO_free(bio) }
        guard ASN1_TIME_print(bio, value) == 1 else { return "?" }
        var data: UnsafeMutablePointer<CChar>? = nil
        let length = openclaw_BIO_get_mem_data(bio, &data)
        guard let data, length > 0 else { return "?" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }
}
