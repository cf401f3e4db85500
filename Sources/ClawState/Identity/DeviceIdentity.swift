@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
/// This client's Ed25519 device key and the id the gateway knows it by (docs/protocol.md §3.3).
@_spi(Engine) public struct DeviceIdentity: Sendable, CustomStringConvertible {
    /// Lowercase hex SHA-256 of the raw 32-byte public key.
    @_spi(Engine) public let deviceId: String
    @_spi(Engine) public let privateKey: Ed25519PrivateKey
    @_spi(Engine) public let publicKey: Ed25519PublicKey
    /// When the identity was first created (ms since the epoch), if the file says.
    @_spi(Engine) public let createdAtMs: Int64?

    /// An identity for `privateKey`; the id and public key are always derived from the key itself.
    @_spi(Engine) public init(privateKey: Ed25519PrivateKey, createdAtMs: Int64? = nil) {
        self.privateKey = privateKey
        self.publicKey = privateKey.publicKey
        self.deviceId = DeviceIdentity.deviceId(publicKey: publicKey.rawRepresentation)
        self.createdAtMs = createdAtMs
    }

    @_spi(Engine) public static func deviceId(publicKey raw: [UInt8]) -> String { Hex.encode(Digest.sha256(raw)) }

    /// `connect.params.device.publicKey`: the raw public key, base64url without padding.
    @_spi(Engine) public var publicKeyBase64URL: String { Base64.encodeURL(publicKey.rawRepresentation) }

    /// `connect.params.device.signature` for a payload from `DeviceAuthPayload`: base64url, no padding.
    @_spi(Engine) public func signature(payload: String) throws(IdentityError) -> String {
        do {
            return Base64.encodeURL(try privateKey.signature(for: Array(payload.utf8)))
        } catch {
            throw .crypto(operation: "signing")
        }
    }

    /// Never shows key material.
    @_spi(Engine) public var description: String { "DeviceIdentity(\(deviceId))" }

    /// `<state>/identity/device.json`.
    @_spi(Engine) public static func path(stateDirectory: String) -> String {
        Paths.join(stateDirectory, "identity", "device.json")
    }

    /// This client's identity in `stateDirectory`, kept where the official CLI keeps it (`StateLayout`):
    /// the state database's `primary` row, or `identity/device.json` in an install older than the
    /// database. Created there when missing (on a machine without OpenClaw state, in a database this
    /// creates as a native client does); one that exists but cannot be used is an error, never replaced.
    @_spi(Engine) public static func loadOrCreate(stateDirectory: String) throws(IdentityError) -> DeviceIdentity {
        let layout = StateLayout(stateDirectory: stateDirectory)
        defer { if case .database(let database) = layout { database.close() } }
        return try loadOrCreate(stateDirectory: stateDirectory, layout: layout)
    }

    /// The same, in a layout already looked at (whose database connection the caller closes).
    @_spi(Engine) public static func loadOrCreate(stateDirectory: String, layout: StateLayout) throws(IdentityError) -> DeviceIdentity {
        switch layout {
        case .database(let database):
            return try DatabaseIdentity.loadOrCreate(database: database, stateDirectory: stateDirectory)
        case .files:
            return try loadOrCreateFile(stateDirectory: stateDirectory)
        }
    }

    /// Loads `<state>/identity/device.json` (the official PEM format or the Apple apps' raw-base64 shape),
    /// or creates it (directory 0700, file 0600, written atomically) when it does not exist.
    static func loadOrCreateFile(stateDirectory: String) throws(IdentityError) -> DeviceIdentity {
        let path = path(stateDirectory: stateDirectory)
        if let existing = try DeviceIdentityFile.load(path: path) { return existing }
        let key: Ed25519PrivateKey
        do { key = try Ed25519PrivateKey.generate() } catch { throw .crypto(operation: "key generation") }
        let identity = DeviceIdentity(privateKey: key, createdAtMs: FileSystem.nowMilliseconds())
        do {
            try FileSystem.makeDirectories(Paths.parent(path), mode: 0o700)
        } catch {
            throw .cannotWrite(path: Paths.parent(path), reason: error.reason)
        }
        let created: Bool
        do {
            created = try FileSystem.writeAtomically(
                DeviceIdentityFile.officialText(identity), to: path, mode: 0o600, onlyIfAbsent: true)
        } catch {
            throw .cannotWrite(path: path, reason: error.reason)
        }
        if created { return identity }
        // Another process created it first: use theirs so both agree on one device.
        guard let winner = try DeviceIdentityFile.load(path: path) else {
            throw .unreadable(path: path, reason: "it disappeared while being created")
        }
        return winner
    }
}
