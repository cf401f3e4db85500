import CClawOpenSSL

/// An OpenSSL lookup method over PEM bundles: as with a hashed directory (OpenSSL's by_dir), a certificate
/// is parsed only when verification asks for an issuer by subject, then added to the store, every one
/// with that subject (cross-signed and renewed roots share one), so that the chain builder can choose.
///
/// OpenSSL keeps one lookup per method in a store; its method data is a retained `LazyBundleLookup`,
/// released when OpenSSL frees the lookup with the store (so with the SSL_CTX).
final class LazyBundleLookup: Sendable {
    let bundles: [PEMBundleIndex]

    private init(bundles: [PEMBundleIndex]) {
        self.bundles = bundles
    }

    /// Created once per process: the callbacks capture nothing, the lookup's data says which bundles.
    nonisolated(unsafe) private static let method: OpaquePointer? = makeMethod()

    /// Adds `bundles` to the store's lookups (after any added before); false when OpenSSL cannot.
    static func install(_ bundles: [PEMBundleIndex], into store: OpaquePointer) -> Bool {
        guard let method, let lookup = X509_STORE_add_lookup(store, method) else { return false }
        var all = bundles
        if let previous = X509_LOOKUP_get_method_data(lookup) {
            all = Unmanaged<LazyBundleLookup>.fromOpaque(previous).takeRetainedValue().bundles + bundles
        }
        let data = Unmanaged.passRetained(LazyBundleLookup(bundles: all)).toOpaque()
        guard X509_LOOKUP_set_method_data(lookup, data) == 1 else {
            Unmanaged<LazyBundleLookup>.fromOpaque(data).release()
            return false
        }
        return true
    }

    private static func makeMethod() -> OpaquePointer? {
        guard let method = X509_LOOKUP_meth_new("openclaw PEM bundle") else { return nil }
        _ = X509_LOOKUP_meth_set_get_by_subject(method) { lookup, type, name, result in
            guard type == X509_LU_X509, let lookup, let name, let result, let store = X509_LOOKUP_get_store(lookup),
                  let data = X509_LOOKUP_get_method_data(lookup) else { return 0 }
            return Unmanaged<LazyBundleLookup>.fromOpaque(data).takeUnretainedValue()
                .find(subject: name, store: store, result: result)
        }
        _ = X509_LOOKUP_meth_set_free(method) { lookup in
            guard let lookup, let data = X509_LOOKUP_get_method_data(lookup) else { return }
            Unmanaged<LazyBundleLookup>.fromOpaque(data).release()
        }
        return method
    }

    /// Adds every certificate named `subject` to the store and returns one in `result`; 1 when one was found.
    private func find(subject: OpaquePointer, store: OpaquePointer, result: OpaquePointer) -> Int32 {
        var added = false
        // A certificate the store already holds is not an error to report.
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        for bundle in bundles {
            for certificate in bundle.certificates(withSubject: subject) {
                added = X509_STORE_add_cert(store, certificate) == 1 || added
                X509_free(certificate)
            }
        }
        guard added, X509_STORE_lock(store) == 1 else { return 0 }
        let object = X509_OBJECT_retrieve_by_subject(X509_STORE_get0_objects(store), X509_LU_X509, subject)
        let certificate = object.flatMap { X509_OBJECT_get0_X509($0) }
        X509_STORE_unlock(store)
        // As OpenSSL's own by_store does: the store's object, and the reference set1 takes given back, since
        // X509_STORE_CTX_get_by_subject takes one for its caller and never frees `result` itself.
        guard let certificate, X509_OBJECT_set1_X509(result, certificate) == 1 else { return 0 }
        X509_free(certificate)
        return 1
    }
}
