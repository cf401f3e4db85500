import ClawJSON
import ClawProtocol

/// The v4 subscription methods (protocol-2026-09 "Session subscriptions, exactly"; official
/// server-methods/sessions.ts). A subscription starts once its answer is queued, so no event
/// can overtake the `res` that tells the client it is subscribed; an unsubscribe stops at once.
extension MethodRouter {
    /// `sessions.subscribe` / `sessions.unsubscribe` (params are not read): `{subscribed}`.
    func sessionsSubscribe(_ id: String, on: Bool) -> Reply {
        let subscriptions = gateway.subscriptions, connId = client.connId, send = sendLater
        let change: @Sendable () -> Void = { subscriptions.setSessionEvents(on, connId: connId, send: send) }
        if !on { change() }
        return Reply(frame: FrameEncoder.success(id: id, payload: ["subscribed": .bool(on)]), then: on ? change : nil)
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
        let subscriptions = gateway.subscriptions, connId = client.connId, send = sendLater
        let change: @Sendable () -> Void = { subscriptions.setMessages(on, sessionKey: key, connId: connId, send: send) }
        if !on { change() }
        return Reply(frame: FrameEncoder.success(id: id, payload: ["subscribed": .bool(on), "key": .string(key)]),
                     then: on ? change : nil)
    }
}
