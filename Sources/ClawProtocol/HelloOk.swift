@_spi(Engine) import ClawJSON
/// What the client needs from `hello-ok` (docs/protocol.md §3.7).
@_spi(Engine) public struct HelloOk: Sendable {
    /// The protocol generation the server speaks (3 or 4).
    @_spi(Engine) public var protocolVersion: Int
    @_spi(Engine) public var tickIntervalMs: Int
    @_spi(Engine) public var maxPayload: Int
    /// `snapshot.sessionDefaults.mainSessionKey`, e.g. `agent:main:main`.
    @_spi(Engine) public var mainSessionKey: String?
    @_spi(Engine) public var mainKey: String?
    /// A device token the gateway issued for later connects (a secret: never print it).
    @_spi(Engine) public var deviceToken: String?
    @_spi(Engine) public var grantedScopes: [String]?
    @_spi(Engine) public var role: String?
    @_spi(Engine) public var serverVersion: String?
    /// `server.connId`: this connection's id in the gateway's logs.
    @_spi(Engine) public var connectionID: String?
    /// `policy.attachments`: the largest attachment (decoded bytes) chat.send accepts, and the largest image.
    @_spi(Engine) public var attachmentMaxBytes: Int?
    @_spi(Engine) public var attachmentMaxImageBytes: Int?

    @_spi(Engine) public init(payload: JSONValue) throws(ProtocolError) {
        guard payload["type"]?.stringValue == "hello-ok" else { throw ProtocolError("connect succeeded without a hello-ok payload") }
        guard let version = payload["protocol"]?.intValue else { throw ProtocolError("hello-ok without a protocol version") }
        guard version == 3 || version == 4 else {
            throw ProtocolError("gateway speaks protocol \(version); openclaw supports 3 and 4")
        }
        protocolVersion = version
        let policy = payload["policy"]
        tickIntervalMs = policy?["tickIntervalMs"]?.intValue.flatMap { $0 > 0 ? $0 : nil } ?? 30_000
        maxPayload = policy?["maxPayload"]?.intValue.flatMap { $0 > 0 ? $0 : nil } ?? 25 * 1024 * 1024
        let defaults = payload["snapshot"]?["sessionDefaults"]
        mainSessionKey = defaults?["mainSessionKey"]?.stringValue
        mainKey = defaults?["mainKey"]?.stringValue
        let auth = payload["auth"]
        deviceToken = auth?["deviceToken"]?.stringValue
        grantedScopes = auth?["scopes"]?.arrayValue?.compactMap(\.stringValue)
        role = auth?["role"]?.stringValue
        serverVersion = payload["server"]?["version"]?.stringValue
        connectionID = payload["server"]?["connId"]?.stringValue
        attachmentMaxBytes = policy?["attachments"]?["maxBytes"]?.intValue.flatMap { $0 > 0 ? $0 : nil }
        attachmentMaxImageBytes = policy?["attachments"]?["maxImageBytes"]?.intValue.flatMap { $0 > 0 ? $0 : nil }
    }

}

/// Session key equivalences (docs/protocol.md §4).
@_spi(Engine) public enum SessionKey {
    @_spi(Engine) public static func isMain(_ key: String, mainSessionKey: String?, mainKey: String?) -> Bool {
        let main = mainKey ?? "main"
        return key == main || key == "main" || key == (mainSessionKey ?? "agent:main:\(main)")
    }

    /// True when two keys name the same session, given the gateway's main-session aliases.
    @_spi(Engine) public static func same(_ a: String, _ b: String, mainSessionKey: String?, mainKey: String?) -> Bool {
        a == b || (isMain(a, mainSessionKey: mainSessionKey, mainKey: mainKey)
                   && isMain(b, mainSessionKey: mainSessionKey, mainKey: mainKey))
    }
}
