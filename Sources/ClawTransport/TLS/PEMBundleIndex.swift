@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
import CClawOpenSSL

/// A PEM bundle's certificates as byte offsets into the file, decoded only when verification asks for an
/// issuer: reading and scanning a system bundle (~140 CAs) is cheap, parsing every certificate is not.
/// The first lookup finds each block's subject and its `CertificateNameKey`; a subject is parsed only when
/// its key matches the name asked for, a certificate only when its subject does.
/// Lookups may come from any thread, so what they build is kept under a lock.
final class PEMBundleIndex: @unchecked Sendable {
    let path: String
    private let text: [UInt8]
    /// The base64 body of each `CERTIFICATE` block.
    private let bodies: [Range<Int>]
    private let lock = TransportLock()
    /// Each block's subject, built on the first lookup; nil for a block that is no certificate.
    private var subjects: [Subject?]?

    private final class Subject {
        let der: [UInt8]
        let key: UInt64?
        /// The parsed name (an X509_NAME this index frees), once a lookup needed it.
        var name: OpaquePointer?

        init(der: [UInt8]) {
            self.der = der
            key = der.withUnsafeBufferPointer(CertificateNameKey.key(ofName:))
        }

        deinit { X509_NAME_free(name) }

        func parsed() -> OpaquePointer? {
            if name == nil {
                name = der.withUnsafeBufferPointer { buffer in
                    var cursor = buffer.baseAddress
                    return d2i_X509_NAME(nil, &cursor, buffer.count)
                }
            }
            return name
        }
    }

    /// Reads the file and finds its blocks; throws when it cannot be read.
    init(path: String) throws(FileSystem.Failure) {
        self.path = path
        text = try FileSystem.readFile(path, limit: 64 << 20)
        bodies = Self.certificateBodies(in: text)
    }

    /// How many certificate blocks the file holds (none: nothing to trust).
    var count: Int { bodies.count }

    /// Every certificate whose subject equals `name` as OpenSSL compares names (canonical encodings),
    /// each with a reference the caller frees. Cross-signed and renewed roots share a subject: all are returned.
    func certificates(withSubject name: OpaquePointer) -> [OpaquePointer] {
        // A malformed block is skipped: the errors its parsing queues are dropped.
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        let wanted = CertificateNameKey.key(of: name)
        return lock.withLock {
            let subjects = self.subjects ?? bodies.map(subject(of:))
            self.subjects = subjects
            var found: [OpaquePointer] = []
            for (index, subject) in subjects.enumerated() {
                guard let subject else { continue }
                if let wanted, let key = subject.key, key != wanted { continue }
                guard let parsed = subject.parsed(), X509_NAME_cmp(parsed, name) == 0,
                      let certificate = certificate(of: bodies[index]) else { continue }
                found.append(certificate)
            }
            return found
        }
    }

    /// Base64 characters decoded first when looking for a subject (whole lines: ~620 bytes of DER, where
    /// nearly every subject ends); the rest of the block only when the subject does not end there.
    private static let subjectPrefix = 13 * 65

    private func subject(of body: Range<Int>) -> Subject? {
        var parts = [body]
        if body.count > Self.subjectPrefix,
           let newline = text[body.lowerBound..<(body.lowerBound + Self.subjectPrefix)].lastIndex(of: UInt8(ascii: "\n")) {
            parts.insert(body.lowerBound..<(newline + 1), at: 0)
        }
        for part in parts {
            guard let der = Base64.decode(utf8: text[part]) else { continue }
            let subject = der.withUnsafeBufferPointer { buffer in
                CertificateSubjectDER.range(in: buffer).map { Array(buffer[$0]) }
            }
            if let subject { return Subject(der: subject) }
        }
        return nil
    }

    private func certificate(of body: Range<Int>) -> OpaquePointer? {
        guard let der = Base64.decode(utf8: text[body]) else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
    }

    private static let begin = Array("-----BEGIN CERTIFICATE-----".utf8)
    private static let end = Array("-----END CERTIFICATE-----".utf8)

    /// The bodies between each BEGIN line and its END marker.
    static func certificateBodies(in text: [UInt8]) -> [Range<Int>] {
        var bodies: [Range<Int>] = []
        var from = 0
        while let start = find(begin, in: text, from: from) {
            guard let newline = text[(start + begin.count)...].firstIndex(of: UInt8(ascii: "\n")),
                  let stop = find(end, in: text, from: newline) else { break }
            bodies.append((newline + 1)..<stop)
            from = stop + end.count
        }
        return bodies
    }

    private static func find(_ marker: [UInt8], in text: [UInt8], from: Int) -> Int? {
        guard from < text.count else { return nil }
        return text.withUnsafeBytes { haystack in
            marker.withUnsafeBytes { Memory.firstOffset(of: $0, in: UnsafeRawBufferPointer(rebasing: haystack[from...])) }
        }.map { $0 + from }
    }
}
