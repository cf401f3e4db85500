@_spi(Engine) import ClawJSON
/// Builds the `connect` request params (docs/protocol.md §3.2) with no keys beyond the schema.
@_spi(Engine) public struct ConnectRequest: Sendable {
    /// Who this client says it is (`connect.params.client`): the gateway checks `id` and `mode` against
    /// its own lists, and both are part of the signed device payload.
    @_spi(Engine) public struct Client: Sendable, Hashable {
        @_spi(Engine) public var id: String
        @_spi(Engine) public var mode: String
        @_spi(Engine) public var displayName: String
        /// The `userAgent` prefix; the version follows it after a slash.
        @_spi(Engine) public var userAgent: String

        @_spi(Engine) public init(id: String, mode: String, displayName: String, userAgent: String) {
            self.id = id; self.mode = mode; self.displayName = displayName; self.userAgent = userAgent
        }

        /// The command-line client.
        @_spi(Engine) public static let cli = Client(id: "cli", mode: "cli", displayName: "openclaw", userAgent: "openclaw-swift")
        /// A server program (a bot, a cron job): the official gateway's own client id and mode for one.
        @_spi(Engine) public static let backend = Client(id: "gateway-client", mode: "backend", displayName: "openclaw-swift",
                                           userAgent: "openclaw-swift")
    }

    @_spi(Engine) public static let clientID = Client.cli.id
    @_spi(Engine) public static let clientMode = Client.cli.mode
    @_spi(Engine) public static let role = "operator"
    @_spi(Engine) public static let defaultScopes = ["operator.read", "operator.write"]
    /// `caps` entry asking an unpaired device's connect to stay open until the pairing decision.
    @_spi(Engine) public static let pairingWaitCapability = "device-pairing-wait"
    /// `caps` entry asking for live tool events.
    @_spi(Engine) public static let toolEventsCapability = "tool-events"

    @_spi(Engine) public var client: Client = .cli
    @_spi(Engine) public var clientVersion: String
    @_spi(Engine) public var platform: String
    @_spi(Engine) public var scopes: [String]
    @_spi(Engine) public var token: String?
    /// The stored device token, also sent as `auth.deviceToken` so a stale one is refused as such.
    @_spi(Engine) public var deviceToken: String?
    @_spi(Engine) public var password: String?
    @_spi(Engine) public var capabilities: [String] = []
    @_spi(Engine) public var instanceID: String
    /// The signed device proof, when connecting with a device identity.
    @_spi(Engine) public var device: DeviceProof?

    @_spi(Engine) public struct DeviceProof: Sendable {
        @_spi(Engine) public var id: String
        @_spi(Engine) public var publicKey: String
        @_spi(Engine) public var signature: String
        @_spi(Engine) public var signedAt: Int64
        @_spi(Engine) public var nonce: String
        @_spi(Engine) public init(id: String, publicKey: String, signature: String, signedAt: Int64, nonce: String) {
            self.id = id; self.publicKey = publicKey; self.signature = signature; self.signedAt = signedAt; self.nonce = nonce
        }
    }

    @_spi(Engine) public init(clientVersion: String, platform: String, scopes: [String], token: String?, password: String?,
                instanceID: String, device: DeviceProof?) {
        self.clientVersion = clientVersion
        self.platform = platform
        self.scopes = scopes
        self.token = token
        self.password = password
        self.instanceID = instanceID
        self.device = device
    }

    @_spi(Engine) public var params: JSONValue {
        var auth = JSONObject()
        if let token { auth["token"] = .string(token) }
        if let deviceToken { auth["deviceToken"] = .string(deviceToken) }
        if let password { auth["password"] = .string(password) }
        var params: JSONObject = [
            "minProtocol": JSONValue(GatewayProtocol.supported.lowerBound), "maxProtocol": JSONValue(GatewayProtocol.supported.upperBound),
            "client": [
                "id": .string(client.id), "displayName": .string(client.displayName),
                "version": .string(clientVersion), "platform": .string(platform),
                "mode": .string(client.mode), "instanceId": .string(instanceID),
            ],
            "role": .string(Self.role),
            "scopes": JSONValue(scopes),
            "caps": JSONValue(capabilities),
        ]
        if !auth.isEmpty { params["auth"] = .object(auth) }
        params["userAgent"] = .string("\(client.userAgent)/\(clientVersion)")
        if let device {
            params["device"] = [
                "id": .string(device.id), "publicKey": .string(device.publicKey),
                "signature": .string(device.signature), "signedAt": JSONValue(device.signedAt),
                "nonce": .string(device.nonce),
            ]
        }
        return .object(params)
    }
}
