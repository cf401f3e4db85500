@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
import CClawOpenSSL

/// Where a `wss://` client finds the certificate authorities it trusts when no fingerprint is pinned.
///
/// Every source is added to one store; a chain verifies if any of them holds its root:
/// - `extraBundles`: `--cacert`, then `NODE_EXTRA_CA_CERTS` (trusted in addition, as Node does);
/// - `SSL_CERT_FILE` (a PEM bundle) and `SSL_CERT_DIR` (hashed directories, `:`-separated), read as
///   OpenSSL reads them: each replaces its own default;
/// - otherwise the system's store, found as Go's `crypto/x509` finds it, so the static tarball works on
///   any distribution: the first *hashed* directory (`openssl rehash`; Debian, Ubuntu, Arch, openSUSE,
///   Alpine) and the first bundle file, both, as curl and OpenSSL's defaults use them: a root appended
///   to the bundle without a rehash (a common Dockerfile line), or a bundle mounted over it, is trusted.
///
/// Nothing is parsed up front: the directory is read one certificate at a time and each bundle through
/// `LazyBundleLookup`, only for the issuers verification asks for. A file named twice is read once.
@_spi(Engine) public struct CertificateTrust: Sendable, Equatable {
    /// PEM bundles that must load (a user named them).
    @_spi(Engine) public var extraBundles: [String]
    /// PEM bundles looked up one issuer at a time; unreadable ones are skipped.
    @_spi(Engine) public var bundles: [String]
    /// Hashed directories, looked up one issuer at a time.
    @_spi(Engine) public var directories: [String]

    @_spi(Engine) public init(extraBundles: [String] = [], bundles: [String] = [], directories: [String] = []) {
        self.extraBundles = extraBundles
        self.bundles = bundles
        self.directories = directories
    }

    /// Bundle files, in the order they are looked for (OpenSSL's own default comes first).
    static let wellKnownBundles = [
        "/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Arch, Gentoo, Alpine
        "/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL 6
        "/etc/ssl/ca-bundle.pem",                            // openSUSE
        "/etc/pki/tls/cacert.pem",                           // OpenELEC
        "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7+
        "/etc/ssl/cert.pem",                                 // Alpine, macOS-like layouts
    ]

    /// Hashed directories, in the order they are looked for (OpenSSL's own default comes first).
    static let wellKnownDirectories = [
        "/etc/ssl/certs",                                    // Debian, Ubuntu, Arch, openSUSE, Alpine
        "/etc/pki/ca-trust/extracted/pem/directory-hash",    // Fedora 37+, RHEL 9
        "/etc/pki/tls/certs",                                // Fedora, RHEL (when hashed)
    ]

    /// The system's store as `environment` and this machine's files describe it, plus `extraBundles`.
    @_spi(Engine) public static func system(environment: Environment, extraBundles: [String] = []) -> CertificateTrust {
        var trust = CertificateTrust(extraBundles: extraBundles)
        // Each directory is listed once: the search that finds it has already seen it is hashed.
        if let directories = TextTrim.nonEmpty(environment["SSL_CERT_DIR"]) {
            trust.directories = directories.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        } else if let found = firstHashedDirectory() {
            trust.directories = [found]
        }
        if let file = TextTrim.nonEmpty(environment["SSL_CERT_FILE"]) {
            trust.bundles = [file]
        } else if let found = firstBundle() {
            // Read as well as the directory: it may hold roots the directory lacks (appended, or mounted over it).
            trust.bundles = [found]
        }
        return trust
    }

    static func firstHashedDirectory() -> String? {
        let openSSLDefault = X509_get_default_cert_dir().map { String(cString: $0) }
        return ([openSSLDefault].compactMap { $0 } + wellKnownDirectories).first(where: isHashed)
    }

    static func firstBundle() -> String? {
        let openSSLDefault = X509_get_default_cert_file().map { String(cString: $0) }
        return ([openSSLDefault].compactMap { $0 } + wellKnownBundles).first(where: FileSystem.isReadableFile)
    }

    /// A directory OpenSSL can look issuers up in: it holds a `HHHHHHHH.N` name (8 hex digits, a dot,
    /// digits) that leads to a readable file (a copied `/etc/ssl/certs` keeps links that lead nowhere).
    static func isHashed(_ directory: String) -> Bool {
        FileSystem.directory(directory) { name in
            let bytes = Array(name.utf8)
            guard bytes.count >= 10, bytes[8] == UInt8(ascii: ".") else { return false }
            let isHex = { (c: UInt8) in (c >= 48 && c <= 57) || (c >= 97 && c <= 102) }
            return bytes[..<8].allSatisfy(isHex) && bytes[9...].allSatisfy { $0 >= 48 && $0 <= 57 }
                && FileSystem.isReadableFile(directory + "/" + name)
        }
    }

    /// No system store was found and none was named: only extra bundles, if any.
    var hasNoStore: Bool { bundles.isEmpty && directories.isEmpty }

    /// Adds every source to the context's store; throws only for an extra bundle that does not load.
    func install(into context: OpaquePointer) throws(TransportError) {
        for directory in directories {
            _ = SSL_CTX_load_verify_locations(context, nil, directory)
        }
        ERR_clear_error()
        let indexes = try loadBundles()
        guard !indexes.isEmpty else { return }
        guard let store = SSL_CTX_get_cert_store(context), LazyBundleLookup.install(indexes, into: store) else {
            throw .tls("cannot add the CA bundles to the TLS context: \(CryptoError.drainOpenSSLErrors())")
        }
    }

    /// Every bundle read once (a file named twice, through a link or not, counts once) and scanned, not parsed;
    /// throws for an extra bundle that is unreadable or holds no PEM certificate, skips other unreadable ones.
    func loadBundles() throws(TransportError) -> [PEMBundleIndex] {
        var indexes: [PEMBundleIndex] = []
        var seen: [FileIdentity] = []
        // Extra bundles first, so that one the user named is checked even when it is also the system's.
        for (path, isNamed) in extraBundles.map({ ($0, true) }) + bundles.map({ ($0, false) }) {
            let identity = FileIdentity(path: path)
            if let identity, seen.contains(where: { $0.isSame(as: identity) }) { continue }
            let index: PEMBundleIndex
            do throws(FileSystem.Failure) {
                index = try PEMBundleIndex(path: path)
            } catch {
                if isNamed { throw .tls("cannot load the CA bundle \(path): \(error.reason)") }
                continue
            }
            if index.count == 0 && isNamed { throw .tls("cannot load the CA bundle \(path): it holds no PEM certificate") }
            indexes.append(index)
            if let identity { seen.append(identity) }
        }
        return indexes
    }
}
