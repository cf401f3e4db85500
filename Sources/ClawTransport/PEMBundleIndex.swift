@_spi(Engine) import ClawSystem
import Glibc
import CClawOpenSSL

/// A PEM bundle's certificates as byte offsets into the file, decoded only when verification asks for an
/// issuer: reading and scanning a system bundle (~140 CAs) is cheap, parsing every certificate is not.
/// Lookups may come from any thread, so the lazily built subjects are kept under a lock.
final class PEMBundleIndex: @unchecked Sendable {
    let path: String
    private let text: [UInt8]
    /// The base64 body of each `CERTIFICATE` block.
    private let bodies: [Range<Int>]
    private let lock = TransportLock()
    /// Each block's subject (an X509_NAME this index frees; nil when the block is no certificate),
    /// decoded on the first lookup so later ones only compare.
    private var subjects: [OpaquePointer?]?

    /// Reads the file and finds its blocks; throws when it cannot be read.
    init(path: String) throws(FileSystem.Failure) {
        self.path = path
        text = try FileSystem.readFile(path, limit: 64 << 20)
        bodies = Self.certificateBodies(in: text)
    }

    deinit {
        for subject in subjects ?? [] { X509_NAME_free(subject) }
    }

    /// How many certificate blocks the file holds (none: nothing to trust).
    var count: Int { bodies.count }

    /// Every certificate whose subject equals `name` as OpenSSL compares names (canonical encodings),
    /// each with a reference the caller frees. Cross-signed and renewed roots share a subject: all are returned.
    func certificates(withSubject name: OpaquePointer) -> [OpaquePointer] {
        lock.withLock {
            let subjects = self.subjects ?? bodies.map(subject(of:))
            self.subjects = subjects
            var found: [OpaquePointer] = []
            for (index, subject) in subjects.enumerated() {
                guard let subject, X509_NAME_cmp(subject, name) == 0,
                      let certificate = decode(bodies[index], as: d2i_X509) else { continue }
                found.append(certificate)
            }
            return found
        }
    }

    private func subject(of body: Range<Int>) -> OpaquePointer? {
        guard let der = base64(body) else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let range = CertificateSubjectDER.range(in: buffer), let base = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base + range.lowerBound
            return d2i_X509_NAME(nil, &cursor, range.count)
        }
    }

    private func decode(_ body: Range<Int>, as parse: (UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, Int) -> OpaquePointer?) -> OpaquePointer? {
        guard let der = base64(body) else { return nil }
        return der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return parse(nil, &cursor, buffer.count)
        }
    }

    /// The DER of one block (OpenSSL's PEM decoder, which skips the line breaks); nil when it is not base64.
    private func base64(_ body: Range<Int>) -> [UInt8]? {
        guard let context = EVP_ENCODE_CTX_new() else { return nil }
        defer { EVP_ENCODE_CTX_free(context) }
        EVP_DecodeInit(context)
        var out = [UInt8](repeating: 0, count: body.count / 4 * 3 + 3)
        var length: Int32 = 0
        var tail: Int32 = 0
        let ok = text.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                guard EVP_DecodeUpdate(context, output.baseAddress, &length, input.baseAddress! + body.lowerBound, Int32(body.count)) >= 0
                else { return false }
                return EVP_DecodeFinal(context, output.baseAddress! + Int(length), &tail) == 1
            }
        }
        guard ok else { return nil }
        out.removeSubrange(Int(length + tail)...)
        return out
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

    /// The first `marker` at or after `from` (memchr for its first byte; Glibc's Swift module lacks memmem).
    private static func find(_ marker: [UInt8], in text: [UInt8], from: Int) -> Int? {
        text.withUnsafeBufferPointer { haystack in
            var at = from
            while at + marker.count <= haystack.count {
                guard let hit = memchr(haystack.baseAddress! + at, Int32(marker[0]), haystack.count - at) else { return nil }
                at = haystack.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                guard at + marker.count <= haystack.count else { return nil }
                if memcmp(haystack.baseAddress! + at, marker, marker.count) == 0 { return at }
                at += 1
            }
            return nil
        }
    }
}
