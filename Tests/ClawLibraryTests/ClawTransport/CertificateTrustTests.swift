import Foundation
import Testing
import CClawOpenSSL
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport

/// Trust files as containers and distributions lay them out: roots in a bundle but not in the hashed
/// directory, appended to a copy of the system's bundle, sharing a subject, named twice.
@Suite(.enabled(if: TestCertificateChain.shared != nil, "needs the openssl command"))
struct CertificateTrustTests {
    static var chain: TestCertificateChain { TestCertificateChain.shared! }
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    /// Connects to a server sending the chain's leaf; nil when verified, else the refusal or error.
    static func refusal(trust: CertificateTrust, caBundlePath: String? = nil) throws -> String? {
        let server = try EchoServer(tls: TLSServerContext(certificatePath: chain.leafPath, keyPath: chain.keyPath))
        defer { server.stop() }
        let url = try #require(WebSocketURL("wss://localhost:\(server.port)/"))
        let options = TLSClientOptions(serverName: "localhost", caBundlePath: caBundlePath, trust: trust)
        let connection: WebSocketConnection
        do {
            connection = try WebSocketConnection.connect(url: url, tls: options, deadline: .after(seconds: 10))
        } catch {
            return String(describing: error)
        }
        defer { connection.close(deadline: .after(seconds: 5)) }
        try connection.send(text: Array("trusted".utf8), deadline: .after(seconds: 5))
        #expect(try connection.receive(deadline: .after(seconds: 5)) == .text(Array("trusted".utf8)))
        return nil
    }

    @Test func aRootOnlyInTheBundleVerifiesBesideAHashedDirectoryWithoutIt() throws {
        #expect(CertificateTrust.isHashed(Self.chain.hashedDirectoryWithoutRoot))
        let bundle = try Self.chain.bundle("root-only.pem", of: [Self.chain.rootPath])
        let trust = CertificateTrust(bundles: [bundle], directories: [Self.chain.hashedDirectoryWithoutRoot])
        #expect(try Self.refusal(trust: trust) == nil)
    }

    @Test func aRootAppendedToACopyOfTheSystemBundleVerifies() throws {
        let parts = (FileSystem.isReadableFile(Self.systemBundle) ? [Self.systemBundle] : []) + [Self.chain.rootPath]
        let bundle = try Self.chain.bundle("appended.pem", of: parts)
        // As the system would find it: the machine's hashed directory, this bundle in place of its own.
        let trust = CertificateTrust.system(environment: Environment(["SSL_CERT_FILE": bundle]))
        #expect(trust.bundles == [bundle])
        #expect(try Self.refusal(trust: trust) == nil)
    }

    @Test func twoRootsSharingASubjectStillVerify() throws {
        // The wrong key comes first: a lookup that stopped at the first match would refuse the chain.
        let bundle = try Self.chain.bundle("same-subject.pem", of: [Self.chain.sameSubjectRootPath, Self.chain.rootPath])
        let index = try PEMBundleIndex(path: bundle)
        let root = try #require(Self.certificate(at: Self.chain.rootPath))
        defer { X509_free(root) }
        let found = index.certificates(withSubject: X509_get_subject_name(root))
        #expect(found.count == 2)
        found.forEach { X509_free($0) }
        #expect(try Self.refusal(trust: CertificateTrust(bundles: [bundle])) == nil)
    }

    @Test func anUntrustedRootIsStillRefused() throws {
        let parts = (FileSystem.isReadableFile(Self.systemBundle) ? [Self.systemBundle] : []) + [Self.chain.otherRootPath]
        let bundle = try Self.chain.bundle("without-root.pem", of: parts)
        let trust = CertificateTrust(bundles: [bundle], directories: [Self.chain.hashedDirectoryWithoutRoot])
        let message = try #require(try Self.refusal(trust: trust))
        #expect(message.contains("certificate verify failed for localhost"), "\(message)")
    }

    @Test func anExtraBundleWithoutACertificateIsAnError() throws {
        let empty = try Self.chain.bundle("empty.pem", of: [Self.chain.keyPath])
        let message = try #require(try Self.refusal(trust: CertificateTrust(), caBundlePath: empty))
        #expect(message == "TLS: cannot load the CA bundle \(empty): it holds no PEM certificate", "\(message)")
        let missing = Self.chain.directory + "/missing.pem"
        let other = try #require(try Self.refusal(trust: CertificateTrust(extraBundles: [missing])))
        #expect(other == "TLS: cannot load the CA bundle \(missing): No such file or directory", "\(other)")
        // A missing system bundle is skipped as before.
        #expect(try CertificateTrust(bundles: [missing]).loadBundles().isEmpty)
    }

    @Test func theSameFileNamedTwiceIsReadOnce() throws {
        let bundle = try Self.chain.bundle("twice.pem", of: [Self.chain.rootPath])
        let link = Self.chain.directory + "/twice-link.pem"
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: bundle)
        let trust = CertificateTrust.system(environment: Environment(["SSL_CERT_FILE": link]), extraBundles: [bundle])
        #expect(try trust.loadBundles().map(\.path) == [bundle])
        #expect(try Self.refusal(trust: trust) == nil)
    }

    @Test func everyCertificateIsFoundByItsSubject() throws {
        let parts = (FileSystem.isReadableFile(Self.systemBundle) ? [Self.systemBundle] : []) + [Self.chain.rootPath, Self.chain.leafPath]
        let bundle = try Self.chain.bundle("walk.pem", of: parts)
        let index = try PEMBundleIndex(path: bundle)
        let certificates = Self.certificates(at: bundle)
        defer { certificates.forEach { X509_free($0) } }
        #expect(index.count == certificates.count)
        for certificate in certificates {
            let found = index.certificates(withSubject: X509_get_subject_name(certificate))
            #expect(found.contains { X509_cmp($0, certificate) == 0 })
            found.forEach { X509_free($0) }
        }
    }

    @Test func namesOpenSSLHoldsEqualShareAKey() throws {
        // (value, type) pairs for one CN: the first two of each row are equal to OpenSSL, the third is not.
        let rows: [[(String, Int32)]] = [
            [("Trust  Files Root ", V_ASN1_PRINTABLESTRING), (" trust files\tROOT", V_ASN1_UTF8STRING), ("Trust Files Roots", V_ASN1_UTF8STRING)],
            [("R\u{e9}seau", V_ASN1_UTF8STRING), ("r\u{e9}SEAU", V_ASN1_UTF8STRING), ("r\u{c9}seau", V_ASN1_UTF8STRING)],
            [("12345", V_ASN1_NUMERICSTRING), ("12345", V_ASN1_NUMERICSTRING), ("12345", V_ASN1_PRINTABLESTRING)],
        ]
        for row in rows {
            let names = try row.map { value, type in try #require(Self.name(organisation: "OpenClaw Test", commonName: value, type: type)) }
            defer { names.forEach { X509_NAME_free($0) } }
            #expect(X509_NAME_cmp(names[0], names[1]) == 0)
            #expect(CertificateNameKey.key(of: names[0]) == CertificateNameKey.key(of: names[1]), "\(row)")
            #expect(X509_NAME_cmp(names[0], names[2]) != 0)
            #expect(CertificateNameKey.key(of: names[0]) != CertificateNameKey.key(of: names[2]), "\(row)")
        }
        // A BMPString cannot be told from its bytes: no key, so the name is parsed and compared.
        let bmp = try #require(Self.name(organisation: "OpenClaw Test", commonName: "\0R\0o\0o\0t", type: V_ASN1_BMPSTRING))
        defer { X509_NAME_free(bmp) }
        #expect(CertificateNameKey.key(of: bmp) == nil)
    }

    static func name(organisation: String, commonName: String, type: Int32) -> OpaquePointer? {
        guard let name = X509_NAME_new() else { return nil }
        let added = [("O", organisation, V_ASN1_UTF8STRING), ("CN", commonName, type)].allSatisfy { field, value, type in
            let bytes = Array(value.utf8)
            return X509_NAME_add_entry_by_txt(name, field, type, bytes, Int32(bytes.count), -1, 0) == 1
        }
        guard added else { X509_NAME_free(name); return nil }
        return name
    }

    /// Every certificate in a PEM file, parsed by OpenSSL's own reader.
    static func certificates(at path: String) -> [OpaquePointer] {
        guard let bio = BIO_new_file(path, "r") else { return [] }
        defer { BIO_free(bio) }
        var all: [OpaquePointer] = []
        while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { all.append(certificate) }
        ERR_clear_error()
        return all
    }

    static func certificate(at path: String) -> OpaquePointer? {
        guard let bio = BIO_new_file(path, "r") else { return nil }
        defer { BIO_free(bio) }
        return PEM_read_bio_X509(bio, nil, nil, nil)
    }
}
