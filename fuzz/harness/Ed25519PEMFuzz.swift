// Target 6: the strict Ed25519 PEM reader (`Ed25519PEM`) that spares OpenSSL's generic decoder when
// `device.json` is loaded. Differential: whatever it accepts, OpenSSL's decoder accepts too and reads the
// same 32 key bytes; its base64 is canonical; the public `init(pem:)`s only return or throw.
import Glibc
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState
@_spi(Engine) @testable import ClawSession

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)

    if let raw = Ed25519PEM.rawPrivateKey(pem: text) {
        if raw.count != 32 { fuzzFail("private key of \(raw.count) bytes") }
        do {
            let generic = try Ed25519PrivateKey(genericPEM: text)
            if generic.rawRepresentation != raw { fuzzFail("strict and OpenSSL readers disagree on a private key") }
        } catch {
            fuzzFail("strict reader accepts a private key PEM that OpenSSL rejects (\(error)): \(text.prefix(300))")
        }
    }
    if let raw = Ed25519PEM.rawPublicKey(pem: text) {
        if raw.count != 32 { fuzzFail("public key of \(raw.count) bytes") }
        do {
            let generic = try Ed25519PublicKey(genericPEM: text)
            if generic.rawRepresentation != raw { fuzzFail("strict and OpenSSL readers disagree on a public key") }
        } catch {
            fuzzFail("strict reader accepts a public key PEM that OpenSSL rejects (\(error)): \(text.prefix(300))")
        }
    }
    // One byte string, one encoding.
    if let decoded = Ed25519PEM.decodeBase64(bytes), Array(Base64.encode(decoded).utf8) != bytes {
        fuzzFail("non-canonical base64 accepted: \(text.prefix(120))")
    }
    // The public entry points (fast path, then OpenSSL) return a 32-byte key or throw.
    if let key = try? Ed25519PrivateKey(pem: text), key.rawRepresentation.count != 32 { fuzzFail("bad private key") }
    if let key = try? Ed25519PublicKey(pem: text), key.rawRepresentation.count != 32 { fuzzFail("bad public key") }
    _ = CryptoError.drainOpenSSLErrors()
    return 0
}
