import Foundation
import Testing
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawState

@Suite struct IdentityTests {
    @Test func createsAPrivateOfficialFormatIdentityAndLoadsItAgain() throws {
        let dir = ConfigTestDirectory()
        let state = dir.sub("older-state")
        // An install older than the state database: device tokens on file, the identity missing.
        dir.write("older-state/identity/device-auth.json", "{}")
        _ = chmod(state + "/identity", 0o700)
        let created = try DeviceIdentity.loadOrCreate(stateDirectory: state)
        let path = state + "/identity/device.json"
        #expect(permissionBits(path) == 0o600)
        #expect(permissionBits(state + "/identity") == 0o700)
        // No temporary files are left behind, and no database is created beside the files.
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: state + "/identity")) == ["device.json", "device-auth.json"])
        #expect(!FileManager.default.fileExists(atPath: state + "/state"))

        let text = try #require(dir.read(path))
        #expect(text.hasSuffix("}\n"))
        #expect(text.hasPrefix("{\n  \"version\": 1,\n  \"deviceId\": \""))
        let value = try JSONValue.parse(text)
        #expect(value.objectValue?.keys == ["version", "deviceId", "publicKeyPem", "privateKeyPem", "createdAtMs"])
        #expect(value["deviceId"]?.stringValue == created.deviceId)
        #expect(value["publicKeyPem"]?.stringValue?.hasPrefix("-----BEGIN PUBLIC KEY-----\n") == true)
        #expect(value["privateKeyPem"]?.stringValue?.hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)
        #expect((value["createdAtMs"]?.int64Value ?? 0) > 1_700_000_000_000)

        // deviceId = hex SHA-256 of the raw public key.
        #expect(created.deviceId == Hex.encode(Digest.sha256(created.publicKey.rawRepresentation)))
        #expect(created.deviceId.count == 64)
        let again = try DeviceIdentity.loadOrCreate(stateDirectory: state)
        #expect(again.deviceId == created.deviceId)
        #expect(again.privateKey.rawRepresentation == created.privateKey.rawRepresentation)
    }

    @Test func loadsAnOfficialFileAndRepairsAWrongDeviceId() throws {
        let dir = ConfigTestDirectory()
        let key = try Ed25519PrivateKey.generate()
        let file = """
            {
              "version": 1,
              "deviceId": "0000000000000000000000000000000000000000000000000000000000000000",
              "publicKeyPem": \(JSONValue.string(key.publicKey.pem).compactText),
              "privateKeyPem": \(JSONValue.string(key.pem).compactText),
              "createdAtMs": 1737264000000
            }

            """
        let path = dir.write("state/identity/device.json", file)
        let identity = try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("state"))
        let expectedId = Hex.encode(Digest.sha256(key.publicKey.rawRepresentation))
        #expect(identity.deviceId == expectedId)
        #expect(identity.createdAtMs == 1_737_264_000_000)
        #expect(identity.privateKey.rawRepresentation == key.rawRepresentation)
        // As the official loader does, the file now records the derived id; everything else is unchanged.
        let rewritten = try JSONValue.parse(try #require(dir.read(path)))
        #expect(rewritten["deviceId"]?.stringValue == expectedId)
        #expect(rewritten["privateKeyPem"]?.stringValue == key.pem)
        #expect(rewritten["createdAtMs"]?.int64Value == 1_737_264_000_000)
        #expect(permissionBits(path) == 0o600)
    }

    @Test func loadsTheAppleAppsRawShape() throws {
        let dir = ConfigTestDirectory()
        let key = try Ed25519PrivateKey.generate()
        let id = Hex.encode(Digest.sha256(key.publicKey.rawRepresentation))
        let path = dir.write("state/identity/device.json", """
            {"deviceId":"\(id)","publicKey":"\(Base64.encode(key.publicKey.rawRepresentation))",\
            "privateKey":"\(Base64.encode(key.rawRepresentation))","createdAtMs":1737264000000}
            """)
        let before = dir.read(path)
        let identity = try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("state"))
        #expect(identity.deviceId == id)
        #expect(identity.privateKey.rawRepresentation == key.rawRepresentation)
        #expect(dir.read(path) == before)
    }

    @Test func corruptFilesAreErrorsNamingThePathAndAreNotOverwritten() throws {
        let dir = ConfigTestDirectory()
        let key = try Ed25519PrivateKey.generate()
        let other = try Ed25519PrivateKey.generate()
        let pemBody = key.pem.split(separator: "\n")[1]
        let cases: [(String, String)] = [
            ("{ \"version\": 1, \"privateKeyPem\": \"\(pemBody)", "not valid JSON"),
            ("[]", "not a JSON object"),
            ("{\"version\":1,\"privateKeyPem\":\"-----BEGIN PRIVATE KEY-----\\n\(pemBody)x\\n-----END PRIVATE KEY-----\\n\"}",
             "privateKeyPem"),
            ("{\"version\":2,\"privateKeyPem\":\(JSONValue.string(key.pem).compactText)}", "version"),
            ("{\"version\":1,\"publicKeyPem\":\(JSONValue.string(other.publicKey.pem).compactText),"
                + "\"privateKeyPem\":\(JSONValue.string(key.pem).compactText)}", "does not belong"),
            ("{\"privateKey\":\"c2hvcnQ=\"}", "privateKey"),
            ("{\"hello\":1}", "no privateKeyPem"),
        ]
        for (text, reason) in cases {
            let path = dir.write("state/identity/device.json", text)
            do {
                _ = try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("state"))
                Issue.record("loaded a corrupt identity: \(reason)")
            } catch {
                guard case .corrupt(let errorPath, let why) = error else { Issue.record("\(error)"); continue }
                #expect(errorPath == path)
                #expect(why.contains(reason), "\(why)")
                #expect(error.description.contains(path))
                #expect(!error.description.contains(String(pemBody.prefix(12))))
                #expect(!error.description.contains("\n"))
            }
            #expect(dir.read(path) == text)
        }
    }

    @Test func unreadableFileIsAnErrorNotARecreation() throws {
        let dir = ConfigTestDirectory()
        dir.mkdir("state/identity/device.json")  // a directory where the file should be
        #expect(throws: IdentityError.unreadable(path: dir.sub("state/identity/device.json"), reason: "Is a directory")) {
            try DeviceIdentity.loadOrCreate(stateDirectory: dir.sub("state"))
        }
    }

    @Test func signaturesAreBase64URLOverThePayloadAndVerify() throws {
        let identity = DeviceIdentity(privateKey: try Ed25519PrivateKey.generate())
        let payload = DeviceAuthPayload.v2(
            deviceId: identity.deviceId, clientId: "cli", clientMode: "cli", role: "operator",
            scopes: ["operator.read", "operator.write"], signedAtMs: 1_737_264_000_000, token: nil, nonce: "n-1")
        let signature = try identity.signature(payload: payload)
        #expect(signature.count == 86)
        #expect(!signature.contains("=") && !signature.contains("+") && !signature.contains("/"))
        let raw = try #require(Base64.decode(signature))
        #expect(identity.publicKey.isValidSignature(raw, for: Array(payload.utf8)))
        #expect(!identity.publicKey.isValidSignature(raw, for: Array((payload + "x").utf8)))
        #expect(Base64.decode(identity.publicKeyBase64URL) == identity.publicKey.rawRepresentation)
        #expect(!identity.publicKeyBase64URL.contains("="))
        #expect("\(identity)" == "DeviceIdentity(\(identity.deviceId))")
    }

    @Test func concurrentCreatorsAgreeOnOneIdentity() throws {
        let dir = ConfigTestDirectory()
        let state = dir.sub("race")
        dir.write("race/identity/device-auth.json", "{}")  // an older install
        let ids = IdentityIdCollector()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let identity = try? DeviceIdentity.loadOrCreate(stateDirectory: state) { ids.add(identity.deviceId) }
        }
        #expect(ids.all.count == 8)
        #expect(Set(ids.all).count == 1)
        let stored = try JSONValue.parse(try #require(dir.read(state + "/identity/device.json")))
        #expect(stored["deviceId"]?.stringValue == ids.all.first)
    }
}

final class IdentityIdCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: [String] = []
    func add(_ id: String) { lock.lock(); ids.append(id); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return ids }
}
