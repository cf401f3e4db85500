@_spi(Engine) import ClawJSON

extension TestGatewayClient {
    /// A client that has completed the handshake with a fresh device and the given scopes.
    static func connected(_ sim: SimulatorProcess, scopes: [String] = ["operator.read", "operator.write"],
                          token: String? = nil) throws -> TestGatewayClient {
        let client = try TestGatewayClient(sim)
        try client.handshake(try .device(token: token, scopes: scopes))
        return client
    }

    /// `policy.maxBufferedBytes` as a fresh connection to `sim` is told it.
    func handshakeless(policyOf sim: SimulatorProcess) throws -> Int? {
        let probe = try TestGatewayClient(sim)
        defer { probe.close() }
        return try probe.handshake(try .device())["policy"]?["maxBufferedBytes"]?.intValue
    }

    /// Events read until `match` (inclusive), skipping ticks.
    func events(until match: (JSONValue) -> Bool, timeout: Double = 10) throws -> [JSONValue] {
        var collected: [JSONValue] = []
        _ = try frame(timeout: timeout) { frame in
            if frame["type"]?.stringValue == "event" && frame["event"]?.stringValue != "tick" { collected.append(frame) }
            return match(frame)
        }
        return collected
    }
}

extension JSONValue {
    var isChatEnd: Bool {
        guard self["event"]?.stringValue == "chat", let state = self["payload"]?["state"]?.stringValue else { return false }
        return state == "final" || state == "error" || state == "aborted"
    }
}

extension TestGatewayClient {
    /// Sends a request and returns its `res` with the frames that arrived before it (ticks dropped),
    /// for events the gateway queues ahead of an answer.
    func callCollecting(_ method: String, _ params: JSONValue? = nil, timeout: Double = 10) throws -> (response: JSONValue, before: [JSONValue]) {
        let id = try request(method, params)
        var before: [JSONValue] = []
        let response = try frame(timeout: timeout) { frame in
            if frame["type"]?.stringValue == "res" && frame["id"]?.stringValue == id { return true }
            if frame["event"]?.stringValue != "tick" { before.append(frame) }
            return false
        }
        return (response, before)
    }
}

extension JSONValue {
    /// The text of a transcript or event message (`content[0].text`).
    var firstText: String? { self["content"]?.arrayValue?.first?["text"]?.stringValue }
}
