import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawState

/// No credential or key material may appear in any error text.
@Suite struct ConfigSecretRedactionTests {
    static let secrets = ["SEKRET-token-1", "SEKRET-pass-2", "SEKRET-env-3", "SEKRET-remote-4", "hunter2"]

    @Test func secretWrapperNeverPrints() {
        let secret = Secret("SEKRET-token-1")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("SEKRET"))
        var dumpedOptions = ""
        dump(ConnectionOptions(token: secret, password: Secret("SEKRET-pass-2")), to: &dumpedOptions)
        #expect(!dumpedOptions.contains("SEKRET"))
        #expect(StoredDeviceToken(token: secret, role: "operator", scopes: [], updatedAtMs: 1).token.description == "<redacted>")
    }

    @Test func configErrorsNeverContainSecrets() {
        let dir = ConfigTestDirectory()
        let env: [String: String] = [
            "HOME": dir.path, "OPENCLAW_GATEWAY_PASSWORD": "SEKRET-env-3",
        ]
        let configs: [String] = [
            // Syntax error right after a secret.
            #"{gateway:{auth:{token:"SEKRET-token-1" password:"SEKRET-pass-2"}}}"#,
            #"{gateway:{auth:{token:"SEKRET-token-1"}, port: "SEKRET-pass-2"}}"#,
            #"{gateway:{mode:"remote",remote:{token:"SEKRET-remote-4",url:"ws://user:hunter2@gw.example.com"}}}"#,
            #"{gateway:{mode:"remote",remote:{token:"SEKRET-remote-4",url:"ws://gw.example.com/SEKRET-x"}}}"#,
            #"{gateway:{mode:"remote",remote:{password:"SEKRET-pass-2"}}}"#,
            #"{gateway:{auth:{token:"SEKRET-token-1-${MISSING_VAR}"}}}"#,
            // A secret file the provider refuses (group/other-readable): its path is named, never its contents.
            #"{secrets:{providers:{files:{source:"file",path:"~/secrets.json"}}},gateway:{auth:{mode:"token",token:{source:"file",provider:"files",id:"/gateway/token"}}}}"#,
            #"{gateway:{remote:{tlsFingerprint:"SEKRET-token-1"},mode:"remote"},x:{url:"wss://a"}}"#,
            #"{gateway:{auth:{token:"SEKRET-token-1"},tls:{enabled:"SEKRET-pass-2"}}}"#,
        ]
        dir.write("secrets.json", #"{"gateway":{"token":"SEKRET-token-1"}}"#)
        chmod(dir.sub("secrets.json"), 0o644)
        var failures = 0
        for (index, config) in configs.enumerated() {
            dir.write(".openclaw/openclaw.json", config)
            for extra in [[:], ["OPENCLAW_GATEWAY_URL": "ws://tok:SEKRET-env-3@gw.example.com"]] {
                do {
                    _ = try ConnectionResolver.resolve(
                        options: ConnectionOptions(), environment: Environment(env.merging(extra) { $1 }))
                } catch {
                    failures += 1
                    let reason = String(describing: error)
                    for secret in Self.secrets {
                        #expect(!reason.contains(secret), "config \(index): \(reason)")
                    }
                }
            }
        }
        // Every case above must actually have failed, or the test proves nothing.
        #expect(failures == configs.count * 2)
    }

    @Test func identityErrorsNeverContainKeyMaterial() throws {
        let dir = ConfigTestDirectory()
        let key = try Ed25519PrivateKey.generate()
        let pemLines = key.pem.split(separator: "\n").map(String.init)
        let truncated = "{\"version\":1,\"privateKeyPem\":" + JSONValue.string(key.pem).compactText
        let mangled = "{\"version\":1,\"privateKeyPem\":\"" + pemLines[1] + "\"}"
        let seed = Base64.encode(key.rawRepresentation)
        let apple = "{\"privateKey\":\"" + seed + "\",\"publicKey\":\"" + Base64.encode([UInt8](repeating: 1, count: 32)) + "\"}"
        for text in [truncated, mangled, apple, "{\"privateKey\":\"" + seed.dropLast(4) + "\"}"] {
            dir.write("s/identity/device.json", text)
            do {
                _ = try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("s"))
                Issue.record("accepted \(text.prefix(20))")
            } catch {
                #expect(!error.description.contains(pemLines[1].prefix(16)))
                #expect(!error.description.contains(seed.prefix(16)))
            }
        }
    }
}
