import ClawJSON
/// Builds the `connect` request params (docs/protocol.md §3.2) with no keys beyond the schema.
public struct ConnectRequest: Sendable {
    /// Who this client says it is (`connect.params.client`): the gateway checks `id` and `mode` against
    /// its own lists, and both are part of the signed device payload.
    public struct Client: Sendable, Hashable {
        public var id: String
        public var mode: String
        public var displayName: String
        /// The `userAgent` prefix; the version follows it after a slash.
        public var userAgent: String

        public init(id: String, mode: String, displayName: String, userAgent: String) {
            self.id = id; self.mode = mode; self.displayName = displayName; self.userAgent = userAgent
        }

        /// The command-line client.
        public static let cli = Client(id: "cli", mode: "cli", displayName: "openclaw", userAgent: "openclaw-swift")
        /// A server program (a bot, a cron job): the official gateway's own client id and mode for one.
        public static let backend = Client(id: "gateway-client", mode: "backend", displayName: "openclaw-swift",
                                           userAgent: "openclaw-swift")
    }

    public static let clientID = Client.cli.id
    public static let clientMode = Client.cli.mode
    public static let role = "operator"
    public static let defaultScopes = ["operator.read", "operator.write"]
    /// `caps` entry asking an unpaired device's connect to stay open until the pairing decision.
    public static let pairingWaitCapability = "device-pairing-wait"
    /// `caps` entry asking for live tool events.
    public static let toolEventsCapability = "tool-events"

    public var client: Client = .cli
    public var clientVersion: String
    public var platform: String
    public var scopes: [String]
    public var token: String?
    /// The stored device token, also sent as `auth.deviceToken` so a stale one is refused as such.
    public var deviceToken: String?
    public var password: String?
    public var capabilities: [String] = []
    public var instanceID: String
    /// The signed device proof, when connecting with a device identity.
    public var device: DeviceProof?

    public struct DeviceProof: Sendable {
        public var id: String
        public var publicKey: String
        public var signature: String
        public var signedAt: Int64
        public var nonce: String
        public init(id: String, publicKey: String, signature: String, signedAt: Int64, nonce: String) {
            self.id = id; self.publicKey = publicKey; self.signature = signature; self.signedAt = signedAt; self.nonce = nonce
        }
    }

    public init(clientVersion: String, platform: String, scopes: [String], token: String?, password: String?,
                instanceID: String, device: DeviceProof?) {
        self.clientVersion = clientVersion
        self.platform = platform
        self.scopes = scopes
        self.token = token
        self.password = password
        self.instanceID = instanceID
        self.device = device
    }

    public var params: JSONValue {
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
