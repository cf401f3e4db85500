@_spi(Engine) import ClawJSON

/// Builds the `hello-ok` payload (§3.7) for v3 and v4 from the accepted client and gateway state.
struct HelloOkBuilder {
    var options: SimulatorOptions
    var snapshot: JSONValue

    func payload(for client: AcceptedClient) -> JSONValue {
        var features: JSONObject = [
            "methods": JSONValue(GatewayVocabulary.methods(options.protocolVersion)),
            "events": JSONValue(GatewayVocabulary.events(options.protocolVersion)),
        ]
        // The hello's shape is the server generation's (a v4 server answering a v3 node still
        // builds its v4 hello); only `protocol` reports the negotiated version.
        let v4Server = options.protocolVersion >= 4
        if v4Server { features["capabilities"] = ["chat-send-routing-contract"] }
        var hello: JSONObject = [
            "type": "hello-ok", "protocol": JSONValue(client.protocolVersion),
            "server": ["version": .string(GatewayVocabulary.serverVersion), "connId": .string(client.connId)],
            "features": .object(features), "snapshot": snapshot,
        ]
        if v4Server {
            var auth: JSONObject = ["role": .string(client.role), "scopes": JSONValue(client.scopes)]
            if let token = client.issuedToken {
                auth = ["deviceToken": .string(token.token), "role": .string(client.role), "scopes": JSONValue(client.scopes),
                        "issuedAtMs": JSONValue(token.issuedAtMs)]
            }
            hello["auth"] = .object(auth)
        } else if let token = client.issuedToken {
            // v3 servers only sent `auth` with an issued device token.
            hello["auth"] = ["deviceToken": .string(token.token), "role": .string(token.role), "scopes": JSONValue(token.scopes),
                             "issuedAtMs": JSONValue(token.issuedAtMs)]
        }
        var policy: JSONObject = [
            "maxPayload": JSONValue(GatewayVocabulary.maxPayload), "maxBufferedBytes": JSONValue(options.maxBufferedBytes),
            "tickIntervalMs": JSONValue(options.tickMs),
        ]
        // Since 2026-08-01, and only when the gateway has attachment limits to announce.
        if v4Server, let attachments = options.attachmentPolicy { policy["attachments"] = attachments.json }
        hello["policy"] = .object(policy)
        return .object(hello)
    }
}
