import ClawJSON
/// What the client needs from `hello-ok` (docs/protocol.md §3.7).
package struct HelloOk: Sendable {
    /// The protocol generation the server speaks (3 or 4).
    package var protocolVersion: Int
    package var tickIntervalMs: Int
    package var maxPayload: Int
    /// `snapshot.sessionDefaults.mainSessionKey`, e.g. `agent:main:main`.
    package var mainSessionKey: String?
    package var mainKey: String?
    /// A device token the gateway issued for later connects (a secret: never print it).
    package var deviceToken: String?
    package var grantedScopes: [String]?
    package var role: String?
    package var serverVersion: String?
    /// `server.connId`: this connection's id in the gateway's logs.
    package var connectionID: String?
    /// `policy.attachments`: the largest attachment (decoded bytes) chat.send accepts, and the largest image.
    package var attachmentMaxBytes: Int?
    package var attachmentMaxImageBytes: Int?

    package init(payload: JSONValue) throws(ProtocolError) {
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
package enum SessionKey {
    package static func isMain(_ key: String, mainSessionKey: String?, mainKey: String?) -> Bool {
        let main = mainKey ?? "main"
        return key == main || key == "main" || key == (mainSessionKey ?? "agent:main:\(main)")
    }

    /// True when two keys name the same session, given the gateway's main-session aliases.
    package static func same(_ a: String, _ b: String, mainSessionKey: String?, mainKey: String?) -> Bool {
        a == b || (isMain(a, mainSessionKey: mainSessionKey, mainKey: mainKey)
                   && isMain(b, mainSessionKey: mainSessionKey, mainKey: mainKey))
    }
}
