import Testing
@testable import OpenClawKit

/// Secret member names in every spelling the gateway may use are redacted (found by fuzzing, fuzz/README.md).
@Suite struct SecretKeyRedactionTests {
    @Test(arguments: ["devicePrivateKey", "SIGNING_PRIVATEKEY", "openaiApiKey", "API_TOKEN", "Password"])
    func secretNames(_ key: String) {
        #expect(Redaction.isSecretKey(key))
        let redacted = Redaction.redact(["payload": .object(JSONObject([JSONObject.Member(key, "SEKRET")]))])
        #expect(!redacted.compactText.contains("SEKRET"))
    }

    /// Only ASCII letters fold: the CLI's byte prefilter must be able to find every secret name.
    @Test func foldingIsASCIIOnly() {
        #expect(!Redaction.isSecretKey("to\u{212A}en"))  // KELVIN SIGN, which lowercased() turns into "k"
        #expect(Redaction.isSecretKey("TOKEN"))
    }

    @Test(arguments: Redaction.secretKeys)
    func protocolSecretNames(_ key: String) {
        #expect(Redaction.isSecretKey(key))
        #expect(Redaction.isSecretKey(key.uppercased()))
    }

    /// The byte-level check the frame scanner uses agrees with the String one, escapes or not.
    @Test func scannerFlagsSecretNamesAnywhere() throws {
        #expect(try JSONEventScanner.scan(Array(#"{"type":"event","payload":{"a":[{"deviceToken":"x"}]}}"#.utf8)).hasSecretKey)
        #expect(try JSONEventScanner.scan(Array(#"{"type":"event","payload":{"a":{"password":1}}}"#.utf8)).hasSecretKey)
        #expect(try JSONEventScanner.scan(Array(#"{"toKen":"x"}"#.utf8)).hasSecretKey)
        #expect(try !JSONEventScanner.scan(Array(#"{"type":"event","payload":{"tokens":"x","text":"password"}}"#.utf8)).hasSecretKey)
    }

    @Test(arguments: ["tokens", "keyboard", "publicKey", "passage"])
    func ordinaryNames(_ key: String) {
        #expect(!Redaction.isSecretKey(key))
    }
}
