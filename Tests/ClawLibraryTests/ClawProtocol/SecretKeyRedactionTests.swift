import Testing
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawProtocol
@_spi(Engine) @testable import ClawState

/// Secret member names in every spelling the gateway may use are redacted (found by fuzzing, fuzz/README.md).
@Suite struct SecretKeyRedactionTests {
    @Test(arguments: ["devicePrivateKey", "SIGNING_PRIVATEKEY", "openaiApiKey", "API_TOKEN", "Password"])
    func secretNames(_ key: String) {
        #expect(SecretKeyName.matches(key))
        let redacted = Redaction.redact(["payload": .object(JSONObject([JSONObject.Member(key, "SEKRET")]))])
        #expect(!redacted.compactText.contains("SEKRET"))
    }

    /// Only ASCII letters fold: the CLI's byte prefilter must be able to find every secret name.
    @Test func foldingIsASCIIOnly() {
        #expect(!SecretKeyName.matches("to\u{212A}en"))  // KELVIN SIGN, which lowercased() turns into "k"
        #expect(SecretKeyName.matches("TOKEN"))
    }

    @Test(arguments: SecretKeyName.protocolNames)
    func protocolSecretNames(_ key: String) {
        #expect(SecretKeyName.matches(key))
        #expect(SecretKeyName.matches(key.uppercased()))
    }

    /// The byte-level check the frame scanner uses agrees with the String one, escapes or not.
    @Test func scannerFlagsSecretNamesAnywhere() throws {
        #expect(try JSONEventScanner.scan(Array(#"{"type":"event","payload":{"a":[{"deviceToken":"x"}]}}"#.utf8)).hasSecretKey)
        #expect(try JSONEventScanner.scan(Array(#"{"type":"event","payload":{"a":{"password":1}}}"#.utf8)).hasSecretKey)
        #expect(try JSONEventScanner.scan(Array(#"{"toKen":"x"}"#.utf8)).hasSecretKey)
        #expect(try !JSONEventScanner.scan(Array(#"{"type":"event","payload":{"tokens":"x","text":"password"}}"#.utf8)).hasSecretKey)
    }

    /// The byte-level check against the rule written plainly: ASCII-folded, ends in "token" or
    /// "apikey", or holds "secret", "password" or "privatekey". Names are built from the needles'
    /// pieces in both cases at every offset and length, so a skipped position would be caught.
    @Test func byteCheckAgreesWithThePlainRule() {
        func plain(_ key: String) -> Bool {
            let folded = String(decoding: key.utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            return folded.hasSuffix("token") || folded.hasSuffix("apikey")
                || ["secret", "password", "privatekey"].contains { folded.contains($0) }
        }
        let pieces = ["s", "e", "se", "p", "pa", "pr", "S", "E", "P", "A", "R", "a", "r", "x", "_", "\u{e9}", "\u{0}",
                      "secret", "SeCrEt", "password", "privateKey", "token", "apiKey", "ecret", "assword", "oken"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var checked = 0, secrets = 0
        for _ in 0..<60_000 {
            var key = ""
            for _ in 0..<(1 + next(7)) { key += pieces[next(pieces.count)] }
            let expected = plain(key)
            #expect(SecretKeyName.matches(key) == expected, "\(key.debugDescription)")
            checked += 1
            if expected { secrets += 1 }
        }
        // Every needle at every offset in names of every length up to 24.
        for needle in ["secret", "password", "privatekey", "PASSWORD", "Secret"] {
            for before in 0...12 {
                for after in 0...12 {
                    let key = String(repeating: "x", count: before) + needle + String(repeating: "y", count: after)
                    #expect(SecretKeyName.matches(key), "\(key)")
                    var broken = Array(key.utf8)
                    broken[before + 1] = UInt8(ascii: "_")
                    let brokenKey = String(decoding: broken, as: UTF8.self)
                    #expect(SecretKeyName.matches(brokenKey) == plain(brokenKey), "\(brokenKey)")
                }
            }
        }
        #expect(secrets > 1_000 && checked - secrets > 1_000)  // both answers were exercised
    }

    @Test(arguments: ["tokens", "keyboard", "publicKey", "passage"])
    func ordinaryNames(_ key: String) {
        #expect(!SecretKeyName.matches(key))
    }
}
