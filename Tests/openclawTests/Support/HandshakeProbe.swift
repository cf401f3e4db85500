@_spi(Engine) import ClawJSON

/// What a rejected handshake produced: the error `res` (if any) and the close that followed it.
struct HandshakeRejection {
    var response: JSONValue?
    var code: UInt16?
    var reason: String

    var error: JSONValue? { response?["error"] }
    var details: JSONValue? { response?["error"]?["details"] }

    /// Connects, sends `connect` built from `options` (after `adjust` edits its params), reads to the close.
    static func probe(_ sim: SimulatorProcess, _ options: TestGatewayClient.ConnectOptions,
                      adjust: (inout JSONObject) -> Void = { _ in }) throws -> HandshakeRejection {
        let client = try TestGatewayClient(sim)
        var params = try client.connectParams(options).objectValue ?? JSONObject()
        adjust(&params)
        try client.send(["type": "req", "id": .string(options.id), "method": "connect", "params": .object(params)])
        return collect(client)
    }

    /// Reads everything up to the close; the response must come before it.
    static func collect(_ client: TestGatewayClient) -> HandshakeRejection {
        let (frames, code, reason) = client.readUntilClosed(timeout: 20)
        return HandshakeRejection(response: frames.first { $0["type"]?.stringValue == "res" }, code: code, reason: reason)
    }
}

extension TestGatewayClient.ConnectOptions {
    static func device(token: String? = nil, scopes: [String]? = ["operator.read", "operator.write"]) throws -> Self {
        var options = Self()
        options.token = token
        options.scopes = scopes
        options.device = try TestDevice()
        return options
    }

    /// A node host (device identity, no scopes) that speaks only protocol 3.
    static func v3Node() throws -> Self {
        var options = try device(scopes: [])
        options.role = "node"
        options.clientId = "node-host"
        options.clientMode = "node"
        options.minProtocol = 3
        options.maxProtocol = 3
        return options
    }
}
