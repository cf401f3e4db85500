import Foundation
import Testing
@_spi(Engine) @testable import ClawCrypto

/// The strict PKCS#8 / SPKI reader that spares OpenSSL's generic decoder (`Ed25519PEM`).
@Suite struct Ed25519PEMTests {
    /// RFC 8032 §7.1 test 1 key pair.
    static let seed = Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!
    static let publicKey = Hex.decode("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")!

    static func pem(_ label: String, _ der: [UInt8], lineLength: Int = 64, lineEnd: String = "\n") -> String {
        let body = Array(Base64.encode(der))
        var text = "-----BEGIN \(label)-----" + lineEnd
        var i = 0
        while i < body.count {
            text += String(body[i..<min(i + lineLength, body.count)]) + lineEnd
            i += lineLength
        }
        return text + "-----END \(label)-----" + lineEnd
    }

    static var pkcs8: [UInt8] { Ed25519PEM.pkcs8Prefix + seed }
    static var spki: [UInt8] { Ed25519PEM.spkiPrefix + publicKey }

    @Test func readsTheFixedLayouts() {
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", Self.pkcs8)) == Self.seed)
        #expect(Ed25519PEM.rawPublicKey(pem: Self.pem("PUBLIC KEY", Self.spki)) == Self.publicKey)
        // CRLF line ends, short lines, surrounding whitespace, no final line break.
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", Self.pkcs8, lineEnd: "\r\n")) == Self.seed)
        #expect(Ed25519PEM.rawPublicKey(pem: Self.pem("PUBLIC KEY", Self.spki, lineLength: 16)) == Self.publicKey)
        #expect(Ed25519PEM.rawPrivateKey(pem: "  \n" + Self.pem("PRIVATE KEY", Self.pkcs8) + " \n") == Self.seed)
        var noFinalBreak = Self.pem("PUBLIC KEY", Self.spki)
        noFinalBreak.removeLast()
        #expect(Ed25519PEM.rawPublicKey(pem: noFinalBreak) == Self.publicKey)
    }

    @Test func readsWhatOpenSSLWritesAndSignsIdentically() throws {
        for _ in 0..<16 {
            let key = try Ed25519PrivateKey.generate()
            #expect(Ed25519PEM.rawPrivateKey(pem: key.pem) == key.rawRepresentation)
            #expect(Ed25519PEM.rawPublicKey(pem: key.publicKey.pem) == key.publicKey.rawRepresentation)
            let fast = try Ed25519PrivateKey(pem: key.pem)
            let generic = try Ed25519PrivateKey(genericPEM: key.pem)
            let message = Array("v3|device|cli|probe|operator|scopes|1|token|nonce|linux|".utf8)
            let signature = try fast.signature(for: message)
            #expect(signature == (try generic.signature(for: message)))
            #expect(signature == (try key.signature(for: message)))
            #expect(key.publicKey.isValidSignature(signature, for: message))
            #expect(try Ed25519PublicKey(pem: key.publicKey.pem).rawRepresentation == key.publicKey.rawRepresentation)
        }
    }

    @Test func rejectsTruncatedAndOverlongDER() {
        for count in [0, 1, 15, 16, 47] {
            #expect(Ed25519PEM.rawKey(der: Array(Self.pkcs8.prefix(count)), prefix: Ed25519PEM.pkcs8Prefix) == nil)
        }
        #expect(Ed25519PEM.rawKey(der: Self.pkcs8 + [0], prefix: Ed25519PEM.pkcs8Prefix) == nil)
        #expect(Ed25519PEM.rawKey(der: Array(Self.spki.dropLast()), prefix: Ed25519PEM.spkiPrefix) == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", Array(Self.pkcs8.dropLast()))) == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", Self.pkcs8 + [0x00])) == nil)
    }

    @Test func rejectsWrongOIDsAndLengths() {
        var x25519 = Self.pkcs8
        x25519[11] = 0x6E  // 1.3.101.110, X25519
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", x25519)) == nil)
        var ed448 = Self.spki
        ed448[8] = 0x71  // 1.3.101.113, Ed448
        #expect(Ed25519PEM.rawPublicKey(pem: Self.pem("PUBLIC KEY", ed448)) == nil)
        var outerLength = Self.pkcs8
        outerLength[1] = 0x2F
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", outerLength)) == nil)
        var innerLength = Self.pkcs8
        innerLength[15] = 0x1F
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", innerLength)) == nil)
        var version = Self.pkcs8
        version[4] = 0x01  // PKCS#8 v2 is left to OpenSSL
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PRIVATE KEY", version)) == nil)
        var unusedBits = Self.spki
        unusedBits[11] = 0x01
        #expect(Ed25519PEM.rawPublicKey(pem: Self.pem("PUBLIC KEY", unusedBits)) == nil)
        // A private key is not a public key, and the labels must match.
        #expect(Ed25519PEM.rawPublicKey(pem: Self.pem("PUBLIC KEY", Self.pkcs8)) == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("PUBLIC KEY", Self.pkcs8)) == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: Self.pem("ENCRYPTED PRIVATE KEY", Self.pkcs8)) == nil)
    }

    @Test func rejectsTrailingAndForeignText() {
        let good = Self.pem("PRIVATE KEY", Self.pkcs8)
        #expect(Ed25519PEM.rawPrivateKey(pem: good + "x") == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: good + good) == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: "x" + good) == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: good.replacingFirst("-----\n", with: "-----\nProc-Type: 4,ENCRYPTED\n\n")) == nil)
        #expect(Ed25519PEM.rawPrivateKey(pem: good.replacingFirst("-----\n", with: "-----\n\n")) == nil)  // empty line
        #expect(Ed25519PEM.rawPrivateKey(pem: good.replacingFirst("-----\n", with: "-----")) == nil)  // no line break
        #expect(Ed25519PEM.rawPrivateKey(pem: good.replacingFirst("\n", with: "\r")) == nil)  // bare CR
    }

    /// Found by the `pem` fuzz target: OpenSSL finds the header only at the start of a line, so a
    /// CR, space or tab right before it makes the key unreadable there, and it must be here too.
    @Test func theHeaderMustStartALine() {
        let good = Self.pem("PRIVATE KEY", Self.pkcs8)
        for prefix in ["\r", " ", "\t", "\n\r", "\n ", "\r\n\t"] {
            #expect(Ed25519PEM.rawPrivateKey(pem: prefix + good) == nil, "\(Array(prefix.utf8))")
            #expect(throws: (any Error).self) { try Ed25519PrivateKey(pem: prefix + good) }
        }
        for prefix in ["\n", "\r\n", " \n", "\t\r\n\n"] {
            #expect(Ed25519PEM.rawPrivateKey(pem: prefix + good) == Self.seed, "\(Array(prefix.utf8))")
        }
    }

    @Test func rejectsGarbageBase64() {
        let good = Self.pem("PUBLIC KEY", Self.spki)
        #expect(good.contains("="))
        for bad in ["A", "*", "-", "_", " ", "\t", "\u{00E9}"] {
            let text = good.replacingFirst("MCow", with: "MC" + bad + "w")
            #expect(Ed25519PEM.rawPublicKey(pem: text) == nil, "\(bad)")
        }
        #expect(Ed25519PEM.decodeBase64(Array("QQ==".utf8)) == [0x41])
        #expect(Ed25519PEM.decodeBase64(Array("QR==".utf8)) == nil)  // non-zero unused bits
        #expect(Ed25519PEM.decodeBase64(Array("QUI=".utf8)) == [0x41, 0x42])
        #expect(Ed25519PEM.decodeBase64(Array("QUJ=".utf8)) == nil)
        #expect(Ed25519PEM.decodeBase64(Array("Q===".utf8)) == nil)
        #expect(Ed25519PEM.decodeBase64(Array("QQ=A".utf8)) == nil)
        #expect(Ed25519PEM.decodeBase64(Array("QQ".utf8)) == nil)  // padding is required
        #expect(Ed25519PEM.decodeBase64(Array("QQ==QQ==".utf8)) == nil)
        #expect(Ed25519PEM.decodeBase64([]) == nil)
    }

    @Test func unusualButValidKeysStillLoadThroughOpenSSL() throws {
        // PKCS#8 with an (empty) attributes set is not the fixed layout; OpenSSL's decoder reads it.
        let withAttributes: [UInt8] = [0x30, 0x30] + Array(Self.pkcs8.dropFirst(2)) + [0xA0, 0x00]
        let text = Self.pem("PRIVATE KEY", withAttributes)
        #expect(Ed25519PEM.rawPrivateKey(pem: text) == nil)
        let key = try Ed25519PrivateKey(pem: text)
        #expect(key.rawRepresentation == Self.seed)
        #expect(key.publicKey.rawRepresentation == Self.publicKey)
    }

    @Test func errorsDoNotChangeForUnreadableKeys() {
        #expect(throws: CryptoError.self) { try Ed25519PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
        #expect(throws: CryptoError.self) { try Ed25519PublicKey(pem: "not a pem") }
        var x25519 = Self.pkcs8
        x25519[11] = 0x6E
        #expect(throws: CryptoError.self) { try Ed25519PrivateKey(pem: Self.pem("PRIVATE KEY", x25519)) }
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
