@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
/// Reading and writing `device.json`.
/// Official (openclaw/openclaw `src/infra/device-identity.ts`): `JSON.stringify(..., null, 2) + "\n"` of
/// `{version: 1, deviceId, publicKeyPem (SPKI), privateKeyPem (PKCS#8), createdAtMs}`; when the stored
/// `deviceId` does not match the key, the official code rewrites the file with the derived id, and so do we.
/// Apple apps (`apps/shared/OpenClawKit/.../DeviceIdentity.swift`): `{deviceId, publicKey, privateKey,
/// createdAtMs}` with standard-base64 raw 32-byte keys.
enum DeviceIdentityFile {
    /// The identity in `path`, or nil when there is no such file.
    static func load(path: String) throws(IdentityError) -> DeviceIdentity? {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, limit: 1 << 20)
        } catch {
            if error.isNotFound { return nil }
            throw .unreadable(path: path, reason: error.reason)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            // The parser's message could quote file content, which is key material: give the offset only.
            throw .corrupt(path: path, reason: "not valid JSON at byte \(error.offset)")
        }
        guard var object = value.objectValue else { throw .corrupt(path: path, reason: "not a JSON object") }
        let createdAtMs = object["createdAtMs"]?.int64Value

        if let privatePem = object["privateKeyPem"]?.stringValue {
            guard object["version"]?.intValue == 1 else {
                throw .corrupt(path: path, reason: "unsupported version (expected 1)")
            }
            let key: Ed25519PrivateKey
            do { key = try Ed25519PrivateKey(pem: privatePem) } catch {
                throw .corrupt(path: path, reason: "privateKeyPem is not an Ed25519 PKCS#8 key")
            }
            let identity = DeviceIdentity(privateKey: key, createdAtMs: createdAtMs)
            if let publicPem = object["publicKeyPem"]?.stringValue {
                let stored: Ed25519PublicKey
                do { stored = try Ed25519PublicKey(pem: publicPem) } catch {
                    throw .corrupt(path: path, reason: "publicKeyPem is not an Ed25519 SPKI key")
                }
                guard stored.rawRepresentation == identity.publicKey.rawRepresentation else {
                    throw .corrupt(path: path, reason: "publicKeyPem does not belong to privateKeyPem")
                }
            }
            if object["deviceId"]?.stringValue != identity.deviceId {
                // Best effort, like the official loader: the derived id is used either way.
                object["deviceId"] = .string(identity.deviceId)
                _ = try? FileSystem.writeAtomically(text(.object(object)), to: path, mode: 0o600)
            }
            return identity
        }

        if let rawPrivate = object["privateKey"]?.stringValue {
            guard let seed = Base64.decode(rawPrivate), seed.count == 32 else {
                throw .corrupt(path: path, reason: "privateKey is not a base64 32-byte Ed25519 key")
            }
            let key: Ed25519PrivateKey
            do { key = try Ed25519PrivateKey(rawRepresentation: seed) } catch {
                throw .corrupt(path: path, reason: "privateKey is not a valid Ed25519 key")
            }
            let identity = DeviceIdentity(privateKey: key, createdAtMs: createdAtMs)
            if let rawPublic = object["publicKey"]?.stringValue,
               Base64.decode(rawPublic) != identity.publicKey.rawRepresentation {
                throw .corrupt(path: path, reason: "publicKey does not belong to privateKey")
            }
            return identity
        }
        throw .corrupt(path: path, reason: "no privateKeyPem or privateKey field")
    }

    /// The official file text for a new identity.
    static func officialText(_ identity: DeviceIdentity) -> [UInt8] {
        let object: JSONValue = [
            "version": 1,
            "deviceId": .string(identity.deviceId),
            "publicKeyPem": .string(identity.publicKey.pem),
            "privateKeyPem": .string(identity.privateKey.pem),
            "createdAtMs": JSONValue(identity.createdAtMs ?? FileSystem.nowMilliseconds()),
        ]
        return text(object)
    }

    /// `JSON.stringify(value, null, 2) + "\n"`, the official writer's layout.
    static func text(_ value: JSONValue) -> [UInt8] {
        var out = [UInt8]()
        value.writePretty(to: &out)
        out.append(0x0A)
        return out
    }
}
