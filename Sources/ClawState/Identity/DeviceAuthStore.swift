@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
/// A device token the gateway issued in `hello-ok.auth`, as kept for later connects.
@_spi(Engine) public struct StoredDeviceToken: Sendable, Equatable {
    @_spi(Engine) public var token: Secret
    @_spi(Engine) public var role: String
    @_spi(Engine) public var scopes: [String]
    @_spi(Engine) public var updatedAtMs: Int64

    @_spi(Engine) public init(token: Secret, role: String, scopes: [String], updatedAtMs: Int64) {
        self.token = token
        self.role = role
        self.scopes = scopes
        self.updatedAtMs = updatedAtMs
    }
}

/// What a store held for one device and role when a command looked: the token it may use, and the
/// token text as stored, which a later write must still find there (`DeviceTokenStore.save`).
@_spi(Engine) public struct DeviceTokenObservation: Sendable, Equatable {
    /// The usable token; nil when there is none, or only an entry the official store would not read either.
    @_spi(Engine) public var entry: StoredDeviceToken?
    /// The stored token text, usable or not; nil when nothing is stored for this device and role.
    @_spi(Engine) public var storedToken: String?

    @_spi(Engine) public init(entry: StoredDeviceToken?, storedToken: String?) {
        self.entry = entry
        self.storedToken = storedToken
    }

    @_spi(Engine) public static let nothingStored = DeviceTokenObservation(entry: nil, storedToken: nil)
}

/// Where device tokens are kept: the state database's rows, or the pre-database JSON file. Writes
/// are made as the newest official store makes them: each replaces only the token its command
/// loaded, or adds one only where it loaded none, so a token another process stored or rotated in
/// the meantime is never lost.
@_spi(Engine) public protocol DeviceTokenStore: Sendable {
    /// What is stored for this device and role.
    func observe(deviceId: String, role: String) throws(IdentityError) -> DeviceTokenObservation
    /// Stores `token` for this device and role if what is stored is still what `observed` saw; nil
    /// when another process changed it meanwhile (theirs is kept) or the store keeps no tokens for
    /// this target.
    @discardableResult
    func save(deviceId: String, role: String, token: Secret, scopes: [String],
              replacing observed: DeviceTokenObservation) throws(IdentityError) -> StoredDeviceToken?
    /// Forgets the token for this device and role if it is still `token` (the one the gateway rejected).
    func remove(deviceId: String, role: String, ifStill token: String) throws(IdentityError)
    /// Lets go of what the store holds open between uses (a database connection), if anything.
    func close()
}

extension DeviceTokenStore {
    @_spi(Engine) public func close() {}

    /// The usable token for this device and role, or nil.
    @_spi(Engine) public func token(deviceId: String, role: String) throws(IdentityError) -> StoredDeviceToken? {
        try observe(deviceId: deviceId, role: role).entry
    }
}

/// `<state>/identity/device-auth.json` in the official format (openclaw/openclaw `src/infra/device-auth-store.ts`,
/// `src/shared/device-auth-store.ts`): `{"version":1,"deviceId":…,"tokens":{"<role>":{"token","role","scopes",
/// "updatedAtMs"}}}`, one device per file, written 0600 and atomically. An unreadable or foreign file reads as
/// empty (as in the official store) and is replaced on the next save.
@_spi(Engine) public struct DeviceAuthStore: DeviceTokenStore {
    @_spi(Engine) public let path: String

    @_spi(Engine) public init(stateDirectory: String) {
        path = Paths.join(stateDirectory, "identity", "device-auth.json")
    }

    /// The stored token for this device and role, or nil.
    @_spi(Engine) public func token(deviceId: String, role: String) -> StoredDeviceToken? {
        guard let store = read(), store["deviceId"]?.stringValue == deviceId,
              let entry = store["tokens"]?[TextTrim.trimmed(role)]?.objectValue
        else { return nil }
        return Self.parseEntry(entry, role: TextTrim.trimmed(role))
    }

    @_spi(Engine) public func observe(deviceId: String, role: String) -> DeviceTokenObservation {
        DeviceTokenObservation(entry: token(deviceId: deviceId, role: role), storedToken: storedToken(deviceId: deviceId, role: role))
    }

    /// The token text stored for this device and role, whether or not its entry is usable.
    private func storedToken(deviceId: String, role: String) -> String? {
        guard let store = read(), store["deviceId"]?.stringValue == deviceId else { return nil }
        return store["tokens"]?[TextTrim.trimmed(role)]?["token"]?.stringValue
    }

    @discardableResult
    @_spi(Engine) public func save(deviceId: String, role: String, token: Secret, scopes: [String],
                     replacing observed: DeviceTokenObservation) throws(IdentityError) -> StoredDeviceToken? {
        guard storedToken(deviceId: deviceId, role: role) == observed.storedToken else { return nil }
        return try save(deviceId: deviceId, role: role, token: token, scopes: scopes)
    }

    @_spi(Engine) public func remove(deviceId: String, role: String, ifStill token: String) throws(IdentityError) {
        guard storedToken(deviceId: deviceId, role: role) == token else { return }
        try remove(deviceId: deviceId, role: role)
    }

    /// Stores (or replaces) the token for this device and role; tokens of other roles are kept when the
    /// file belongs to the same device. Scopes are normalised as the official store does.
    @discardableResult
    @_spi(Engine) public func save(deviceId: String, role: String, token: Secret, scopes: [String]) throws(IdentityError) -> StoredDeviceToken {
        let role = TextTrim.trimmed(role)
        let entry = StoredDeviceToken(
            token: token, role: role, scopes: Self.normalizeScopes(scopes), updatedAtMs: FileSystem.nowMilliseconds())
        var tokens = JSONObject()
        if let existing = read(), existing["deviceId"]?.stringValue == deviceId,
           let current = existing["tokens"]?.objectValue {
            tokens = current
        }
        tokens[role] = [
            "token": .string(entry.token.value),
            "role": .string(role),
            "scopes": JSONValue(entry.scopes),
            "updatedAtMs": JSONValue(entry.updatedAtMs),
        ]
        try write(deviceId: deviceId, tokens: tokens)
        return entry
    }

    /// Forgets the token for this device and role (after the gateway rejected it). No file, no-op.
    @_spi(Engine) public func remove(deviceId: String, role: String) throws(IdentityError) {
        guard let existing = read(), existing["deviceId"]?.stringValue == deviceId,
              var tokens = existing["tokens"]?.objectValue, tokens[TextTrim.trimmed(role)] != nil
        else { return }
        tokens[TextTrim.trimmed(role)] = nil
        try write(deviceId: deviceId, tokens: tokens)
    }

    private func read() -> JSONValue? {
        guard let bytes = try? FileSystem.readFile(path, limit: 4 << 20),
              let value = try? JSONValue.parse(bytes),
              value["version"]?.intValue == 1, value["deviceId"]?.stringValue != nil,
              value["tokens"]?.objectValue != nil
        else { return nil }
        return value
    }

    private func write(deviceId: String, tokens: JSONObject) throws(IdentityError) {
        let store: JSONValue = ["version": 1, "deviceId": .string(deviceId), "tokens": .object(tokens)]
        do {
            try FileSystem.makeDirectories(Paths.parent(path), mode: 0o700)
            try FileSystem.writeAtomically(DeviceIdentityFile.text(store), to: path, mode: 0o600)
        } catch {
            throw .cannotWrite(path: path, reason: error.reason)
        }
    }

    static func parseEntry(_ entry: JSONObject, role: String) -> StoredDeviceToken? {
        guard let token = entry["token"]?.stringValue,
              let scopes = entry["scopes"]?.arrayValue,
              let updated = entry["updatedAtMs"]?.int64Value ?? entry["updatedAtMs"]?.doubleValue.flatMap({ Int64(exactly: $0.rounded(.down)) })
        else { return nil }
        var names: [String] = []
        for scope in scopes {
            guard let name = scope.stringValue else { return nil }
            names.append(name)
        }
        return StoredDeviceToken(token: Secret(token), role: role, scopes: names, updatedAtMs: updated)
    }

    /// Trimmed, de-duplicated, implied scopes added (`admin` ⇒ read+write, `write` ⇒ read), sorted.
    static func normalizeScopes(_ scopes: [String]) -> [String] {
        var set = Set(scopes.map(TextTrim.trimmed).filter { !$0.isEmpty })
        if set.contains("operator.admin") {
            set.insert("operator.read")
            set.insert("operator.write")
        } else if set.contains("operator.write") {
            set.insert("operator.read")
        }
        // JavaScript's default sort compares UTF-16 code units; for these ASCII names that is byte order.
        return set.sorted { Array($0.utf16).lexicographicallyPrecedes(Array($1.utf16)) }
    }
}
