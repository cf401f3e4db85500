import Testing
@_spi(Engine) @testable import ClawCrypto

@Suite struct CryptoTests {
    @Test func sha256OfABCMatchesFIPS180Example() {
        #expect(Hex.encode(Digest.sha256(Array("abc".utf8)))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sha1OfRFC6455KeyGivesTheSpecAcceptValue() {
        let key = "dGhlIHNhbXBsZSBub25jZQ==258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
        #expect(Base64.encode(Digest.sha1(Array(key.utf8))) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func base64RoundTripsEveryLengthInBothAlphabets() {
        for length in 0..<20 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
            #expect(Base64.decode(Base64.encodeURL(bytes)) == bytes)
            #expect(!Base64.encodeURL(bytes).contains("="))
        }
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.decode("Zm9v!") == nil)
        #expect(Base64.decode("Z") == nil)
    }

    @Test func ed25519MatchesRFC8032TestVector1() throws {
        let seed = Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!
        let key = try Ed25519PrivateKey(rawRepresentation: seed)
        #expect(Hex.encode(key.publicKey.rawRepresentation)
            == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try key.signature(for: [UInt8]())
        #expect(Hex.encode(signature) == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        #expect(key.publicKey.isValidSignature(signature, for: [UInt8]()))
        #expect(!key.publicKey.isValidSignature(signature, for: [1]))
    }

    @Test func ed25519KeysRoundTripThroughPEM() throws {
        let key = try Ed25519PrivateKey.generate()
        #expect(key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let again = try Ed25519PrivateKey(pem: key.pem)
        #expect(again.rawRepresentation == key.rawRepresentation)
        let publicAgain = try Ed25519PublicKey(pem: key.publicKey.pem)
        #expect(publicAgain.rawRepresentation == key.publicKey.rawRepresentation)
        #expect(throws: CryptoError.self) { try Ed25519PrivateKey(pem: "not a key") }
    }

    @Test func uuidHasVersion4Shape() {
        let id = SecureRandom.uuid()
        #expect(id.count == 36)
        #expect(Array(id)[14] == "4")
        #expect(SecureRandom.uuid() != id)
    }
}
