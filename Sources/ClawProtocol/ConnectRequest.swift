import ClawJSON
/// Builds the `connect` request params (docs/protocol.md §3.2) with no keys beyond the schema.
package struct ConnectRequest: Sendable {
    /// Who this client says it is (`connect.params.client`): the gateway checks `id` and `mode` against
    /// its own lists, and both are part of the signed device payload.
    package struct Client: Sendable, Hashable {
        package var id: String
        package var mode: String
        package var displayName: String
        /// The `userAgent` prefix; the version follows it after a slash.
        package var userAgent: String

        package init(id: String, mode: String, displayName: String, userAgent: String) {
            self.id = id; self.mode = mode; self.displayName = displayName; self.userAgent = userAgent
        }

        /// The command-line client.
        package static let cli = Client(id: "cli", mode: "cli", displayName: "openclaw", userAgent: "openclaw-swift")
        /// A server program (a bot, a cron job): the official gateway's own client id and mode for one.
        package static let backend = Client(id: "gateway-client", mode: "backend", displayName: "openclaw-swift",
                                           userAgent: "openclaw-swift")
    }

    package static let clientID = Client.cli.id
    package static let clientMode = Client.cli.mode
    package static let role = "operator"
    package static let defaultScopes = ["operator.read", "operator.write"]
    /// `caps` entry asking an unpaired device's connect to stay open until the pairing decision.
    package static let pairingWaitCapability = "device-pairing-wait"
    /// `caps` entry asking for live tool events.
    package static let toolEventsCapability = "tool-events"

    package var client: Client = .cli
    package var clientVersion: String
    package var platform: String
    package var scopes: [String]
    package var token: String?
    /// The stored device token, also sent as `auth.deviceToken` so a stale one is refused as such.
    package var deviceToken: String?
    package var password: String?
    package var capabilities: [String] = []
    package var instanceID: String
    /// The signed device proof, when connecting with a device identity.
    package var device: DeviceProof?

    package struct DeviceProof: Sendable {
        package var id: String
        package var publicKey: String
        package var signature: String
        package var signedAt: Int64
        package var nonce: String
        package init(id: String, publicKey: String, signature: String, signedAt: Int64, nonce: String) {
            self.id = id; self.publicKey = publicKey; self.signature = signature; self.signedAt = signedAt; self.nonce = nonce
        }
    }

    package init(clientVersion: String, platform: String, scopes: [String], token: String?, password: String?,
                instanceID: String, device: DeviceProof?) {
        self.clientVersion = clientVersion
        self.platform = platform
        self.scopes = scopes
        self.token = token
        self.password = password
        self.instanceID = instanceID
        self.device = device
    }

    package var params: JSONValue {
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
