@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// The v4 subscription methods (protocol-2026-09 "Session subscriptions, exactly"; official
/// server-methods/sessions.ts). The answer is queued together with the change, under the registry's
/// lock: no event overtakes the `res` that says the client is subscribed, and every event published
/// after that `res` reaches it.
extension MethodRouter {
    /// `sessions.subscribe` / `sessions.unsubscribe` (params are not read): `{subscribed}`.
    func sessionsSubscribe(_ id: String, on: Bool) -> Reply {
        gateway.subscriptions.setSessionEvents(on, connId: client.connId, send: sendLater,
                                               answer: FrameEncoder.success(id: id, payload: ["subscribed": .bool(on)]))
        return Reply(frame: nil)
    }

    /// `sessions.messages.subscribe {key, agentId?, includeApprovals?}` / `.unsubscribe {key, agentId?}`:
    /// `{subscribed, key}` with the canonical key the events will carry.
    func sessionsMessagesSubscribe(_ id: String, _ params: JSONValue, on: Bool) -> Reply {
        let method = on ? GatewayMethod.sessionsMessagesSubscribe : GatewayMethod.sessionsMessagesUnsubscribe
        let schema = on ? GatewaySchemas.sessionsMessagesSubscribe : GatewaySchemas.sessionsMessagesUnsubscribe
        if let bad = invalidParams(id, method, schema, params) { return Reply(frame: bad) }
        if on, params["includeApprovals"]?.boolValue == true,
           client.deviceId == nil || !GatewayVocabulary.scopes(client.scopes, satisfy: "operator.approvals") {
            return Reply(frame: FrameEncoder.failure(id: id, error: .invalidRequest(
                "sessions.messages.subscribe includeApprovals requires a paired device and gateway scope: operator.approvals")))
        }
        let key = ChatHistoryStore.canonicalKey(params["key"]?.stringValue?.trimmingASCIIWhitespace ?? "")
        gateway.subscriptions.setMessages(on, sessionKey: key, connId: client.connId, send: sendLater,
                                          answer: FrameEncoder.success(id: id, payload: ["subscribed": .bool(on), "key": .string(key)]))
        return Reply(frame: nil)
    }
}
