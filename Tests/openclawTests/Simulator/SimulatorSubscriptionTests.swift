import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// sessions.subscribe / sessions.messages.subscribe and their targeted events: sessions.changed
/// and session.message carry no outer seq and never move the connection's event numbering.
@Suite(.serialized) struct SimulatorSubscriptionTests {
    private func isTargeted(_ frame: JSONValue) -> Bool {
        [GatewayEventName.sessionsChanged, GatewayEventName.sessionMessage].contains(frame["event"]?.stringValue ?? "")
    }

    /// Every numbered event follows the one before it: targeted events took no numbers.
    private func expectConsecutiveSeqs(_ frames: [JSONValue], sourceLocation: SourceLocation = #_sourceLocation) {
        let seqs = frames.filter { $0["type"]?.stringValue == "event" && !isTargeted($0) }.compactMap { $0["seq"]?.intValue }
        #expect(!seqs.isEmpty, sourceLocation: sourceLocation)
        #expect(seqs == Array((seqs.first ?? 0)..<((seqs.first ?? 0) + seqs.count)), "\(seqs)", sourceLocation: sourceLocation)
    }

    @Test func theNewMethodsAndEventsAreAdvertisedInV4Only() throws {
        let sim = try SimulatorProcess()
        let hello = try TestGatewayClient(sim).handshake(try .device())
        let methods = hello["features"]?["methods"]?.arrayValue?.compactMap(\.stringValue) ?? []
        for method in [GatewayMethod.sessionsSubscribe, GatewayMethod.sessionsUnsubscribe, GatewayMethod.sessionsMessagesSubscribe,
                       GatewayMethod.sessionsMessagesUnsubscribe] {
            #expect(methods.contains(method))
        }
        let events = hello["features"]?["events"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(Array(events.prefix(5)) == ["connect.challenge", "agent", "chat", "session.message", "sessions.changed"])

        let old = try SimulatorProcess(["--protocol", "3"])
        let v3 = try TestGatewayClient.connected(old)
        let v3Hello = try TestGatewayClient(old).handshake(try .device())
        #expect(v3Hello["features"]?["methods"]?.arrayValue?.contains("sessions.subscribe") == false)
        #expect(v3Hello["features"]?["events"]?.arrayValue?.contains("sessions.changed") == false)
        #expect(try v3.call(GatewayMethod.sessionsSubscribe, [:])["error"]?["message"]?.stringValue == "missing scope: operator.admin")
    }

    @Test func sessionsChangedReportsEveryRunStartAndEnd() throws {
        let sim = try SimulatorProcess(["--reply", "echo"])
        let watcher = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let sender = try TestGatewayClient.connected(sim)
        #expect(try watcher.call(GatewayMethod.sessionsSubscribe, [:])["payload"] == ["subscribed": true])

        _ = try sender.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hello world", "idempotencyKey": "k1"])
        let frames = try watcher.events(until: { $0.isChatEnd })
        let changes = frames.filter { $0["event"]?.stringValue == GatewayEventName.sessionsChanged }
        try #require(changes.count == 2, "\(changes.map(\.compactText))")
        for change in changes { #expect(change.objectValue?.keys == ["type", "event", "payload"], "targeted events carry no seq") }
        let start = changes[0]["payload"] ?? .null, end = changes[1]["payload"] ?? .null
        #expect(start.objectValue?.keys == ["sessionKey", "phase", "runId", "ts", "sessionId", "hasActiveRun", "status", "startedAt"])
        #expect(start["sessionKey"]?.stringValue == "agent:main:main")
        #expect(start["phase"]?.stringValue == "start")
        #expect(start["runId"]?.stringValue == "k1")
        #expect(start["hasActiveRun"] == true)
        #expect(start["status"]?.stringValue == "running")
        #expect(end["phase"]?.stringValue == "end")
        #expect(end["status"]?.stringValue == "done")
        #expect(end["hasActiveRun"] == false)
        #expect(end["startedAt"] == start["startedAt"])
        let endedAt = try #require(end["endedAt"]?.int64Value), startedAt = try #require(start["startedAt"]?.int64Value)
        #expect(end["runtimeMs"]?.int64Value == endedAt - startedAt)
        // The start comes before the run's first event, the end before its final.
        #expect(frames.first?["event"]?.stringValue == GatewayEventName.sessionsChanged)
        #expect(frames[frames.count - 2]["event"]?.stringValue == GatewayEventName.sessionsChanged)
        expectConsecutiveSeqs(frames)

        // After unsubscribing, a whole run goes by without one.
        #expect(try watcher.call(GatewayMethod.sessionsUnsubscribe, [:])["payload"] == ["subscribed": false])
        _ = try sender.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "again", "idempotencyKey": "k2"])
        let quiet = try watcher.events(until: { $0.isChatEnd })
        #expect(!quiet.contains { isTargeted($0) })
    }

    @Test func failedAndAbortedRunsEndAsFailedAndKilled() throws {
        let failing = try SimulatorProcess(["--reply", "error"])
        let watcher = try TestGatewayClient.connected(failing)
        _ = try watcher.call(GatewayMethod.sessionsSubscribe, [:])
        _ = try watcher.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "boom", "idempotencyKey": "k1"])
        let failed = try watcher.frame { $0["event"]?.stringValue == GatewayEventName.sessionsChanged && $0["payload"]?["phase"]?.stringValue != "start" }
        #expect(failed["payload"]?["phase"]?.stringValue == "error")
        #expect(failed["payload"]?["status"]?.stringValue == "failed")

        let slow = try SimulatorProcess(["--reply", "slow"])
        let client = try TestGatewayClient.connected(slow)
        _ = try client.call(GatewayMethod.sessionsSubscribe, [:])
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "delta" }
        let (_, before) = try client.callCollecting(GatewayMethod.chatAbort, ["sessionKey": "main"])
        let killed = try #require(before.first { $0["event"]?.stringValue == GatewayEventName.sessionsChanged })
        #expect(killed["payload"]?["phase"]?.stringValue == "end")
        #expect(killed["payload"]?["status"]?.stringValue == "killed")
    }

    @Test func sessionMessageFollowsEveryAppendedMessage() throws {
        let sim = try SimulatorProcess(["--reply", "echo"])
        let watcher = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let sender = try TestGatewayClient.connected(sim)
        #expect(try watcher.call(GatewayMethod.sessionsMessagesSubscribe, ["key": "main"])["payload"]
            == ["subscribed": true, "key": "agent:main:main"])

        _ = try sender.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hello world", "idempotencyKey": "k1"])
        let frames = try watcher.events(until: { $0.isChatEnd })
        let messages = frames.filter { $0["event"]?.stringValue == GatewayEventName.sessionMessage }
        try #require(messages.count == 2, "\(messages.map(\.compactText))")
        for message in messages { #expect(message.objectValue?.keys == ["type", "event", "payload"], "targeted events carry no seq") }
        let user = messages[0]["payload"] ?? .null, assistant = messages[1]["payload"] ?? .null
        #expect(user.objectValue?.keys == ["sessionKey", "message", "messageId", "messageSeq"])
        #expect(user["sessionKey"]?.stringValue == "agent:main:main")
        #expect(user["message"]?["role"]?.stringValue == "user")
        #expect(user["message"]?.firstText == "hello world")
        #expect(user["messageSeq"]?.intValue == 1)
        #expect(assistant["message"]?["role"]?.stringValue == "assistant")
        #expect(assistant["message"]?.firstText == "hello world")
        #expect(assistant["messageSeq"]?.intValue == 2)
        #expect(user["messageId"]?.stringValue?.isEmpty == false && user["messageId"] != assistant["messageId"])
        // The assistant message is in the transcript before the final says so.
        #expect(frames[frames.count - 2]["event"]?.stringValue == GatewayEventName.sessionMessage)
        expectConsecutiveSeqs(frames)
        // The messages are the transcript's, in its order.
        let history = try watcher.call(GatewayMethod.chatHistory, ["sessionKey": "main"])
        #expect(history["payload"]?["messages"]?.arrayValue == [user["message"] ?? .null, assistant["message"] ?? .null])

        // Other sessions are not this subscription's business; unsubscribing ends it.
        _ = try sender.call(GatewayMethod.chatSend, ["sessionKey": "agent:main:other", "message": "elsewhere", "idempotencyKey": "k2"])
        #expect(!(try watcher.events(until: { $0.isChatEnd })).contains { isTargeted($0) })
        #expect(try watcher.call(GatewayMethod.sessionsMessagesUnsubscribe, ["key": "agent:main:main"])["payload"]
            == ["subscribed": false, "key": "agent:main:main"])
        _ = try sender.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "again", "idempotencyKey": "k3"])
        #expect(!(try watcher.events(until: { $0.isChatEnd })).contains { isTargeted($0) })
    }

    @Test func messagesSubscribeParamsAreClosed() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let wrongName = try client.call(GatewayMethod.sessionsMessagesSubscribe, ["sessionKey": "main"])
        #expect(wrongName["error"] == ["code": "INVALID_REQUEST",
                                       "message": "invalid sessions.messages.subscribe params: at root: must have required property 'key'"])
        let extra = try client.call(GatewayMethod.sessionsMessagesSubscribe, ["key": "main", "sessionKey": "main"])
        #expect(extra["error"]?["message"]?.stringValue
            == "invalid sessions.messages.subscribe params: at root: unexpected property 'sessionKey'")
        let approvals = try client.call(GatewayMethod.sessionsMessagesSubscribe, ["key": "main", "includeApprovals": true])
        #expect(approvals["error"]?["message"]?.stringValue
            == "sessions.messages.subscribe includeApprovals requires a paired device and gateway scope: operator.approvals")
        let notTrue = try client.call(GatewayMethod.sessionsMessagesSubscribe, ["key": "main", "includeApprovals": false])
        #expect(notTrue["error"]?["message"]?.stringValue
            == "invalid sessions.messages.subscribe params: at /includeApprovals: must be equal to constant")
        let agentScoped = try client.call(GatewayMethod.sessionsMessagesSubscribe, ["key": "main", "agentId": "main"])
        #expect(agentScoped["payload"] == ["subscribed": true, "key": "agent:main:main"])
    }
}
