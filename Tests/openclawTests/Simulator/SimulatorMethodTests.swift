import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// Requests after the handshake: scopes, unknown methods, chat.send/abort/history, idempotency, events.
@Suite(.serialized) struct SimulatorMethodTests {
    @Test func missingScopeV4IsForbiddenWithDetails() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let response = try client.call("chat.send", ["sessionKey": "main", "message": "hi", "idempotencyKey": "k"])
        #expect(response == ["type": "res", "id": "r1", "ok": false,
                             "error": ["code": "FORBIDDEN", "message": "missing scope: operator.write",
                                       "details": ["code": "MISSING_SCOPE", "missingScope": "operator.write",
                                                   "requiredScopes": ["operator.write"]]]])
    }

    /// Every method the v4 simulator serves (health excepted) names the scope it misses.
    @Test func everyMethodNamesTheScopeItMisses() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        let hello = try client.handshake(try .device(scopes: []))
        let needs = [
            "chat.history": "operator.read", "chat.send": "operator.write", "chat.abort": "operator.write",
            "chat.inject": "operator.admin", "sessions.list": "operator.read", "agent": "operator.write",
            "sessions.subscribe": "operator.read", "sessions.unsubscribe": "operator.read",
            "sessions.messages.subscribe": "operator.read", "sessions.messages.unsubscribe": "operator.read",
            "system-presence": "operator.read",
            "device.pair.approve": "operator.pairing", "device.pair.reject": "operator.pairing",
            "logs.tail": "operator.read", "wake": "operator.write", "cron.list": "operator.read", "cron.runs": "operator.read",
            "cron.run": "operator.admin",
        ]
        let methods = (hello["features"]?["methods"]?.arrayValue ?? []).compactMap(\.stringValue).filter { $0 != "health" }
        #expect(Set(methods) == Set(needs.keys))
        for method in methods {
            let scope = JSONValue(needs[method] ?? "?")
            let response = try client.call(method, [:])
            #expect(response["error"] == ["code": "FORBIDDEN", "message": .string("missing scope: " + (needs[method] ?? "?")),
                                          "details": ["code": "MISSING_SCOPE", "missingScope": scope, "requiredScopes": [scope]]],
                    "\(method)")
        }
    }

    @Test func missingScopeV3IsInvalidRequest() throws {
        let sim = try SimulatorProcess(["--protocol", "3"])
        let client = try TestGatewayClient.connected(sim, scopes: [])
        let response = try client.call("chat.history", ["sessionKey": "main"])
        #expect(response["error"] == ["code": "INVALID_REQUEST", "message": "missing scope: operator.read"])
    }

    @Test func healthNeedsNoScopeInV4ButReadInV3() throws {
        let v4 = try SimulatorProcess()
        let client = try TestGatewayClient.connected(v4, scopes: [])
        let health = try client.call("health")
        #expect(health["ok"]?.boolValue == true)
        #expect(health["payload"]?["ok"]?.boolValue == true)
        let v3 = try SimulatorProcess(["--protocol", "3"])
        let old = try TestGatewayClient.connected(v3, scopes: [])
        #expect(try old.call("health")["error"]?["message"]?.stringValue == "missing scope: operator.read")
    }

    @Test func unknownMethodNeedsAdminFirst() throws {
        let sim = try SimulatorProcess()
        let reader = try TestGatewayClient.connected(sim, scopes: ["operator.read", "operator.write"])
        #expect(try reader.call("foo.bar")["error"]?["message"]?.stringValue == "missing scope: operator.admin")
        let admin = try TestGatewayClient.connected(sim, scopes: ["operator.admin"])
        #expect(try admin.call("foo.bar")["error"] == ["code": "INVALID_REQUEST", "message": "unknown method: foo.bar"])
    }

    @Test func nonRequestFramesGetInvalidRequestFrameAndTheSocketStaysOpen() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        try client.send(["type": "event", "id": "e1", "event": "x"])
        let first = try client.frame { $0["type"]?.stringValue == "res" }
        #expect(first["id"]?.stringValue == "e1")
        #expect(first["ok"]?.boolValue == false)
        #expect(first["error"]?["code"]?.stringValue == "INVALID_REQUEST")
        #expect(first["error"]?["message"]?.stringValue?.hasPrefix("invalid request frame: ") == true)
        try client.send(text: "[1,2]")
        let second = try client.frame { $0["type"]?.stringValue == "res" }
        #expect(second["id"]?.stringValue == "invalid")
        #expect(try client.call("health")["ok"]?.boolValue == true)
    }

    @Test func binaryRequestFramesAreAccepted() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        try client.socket.send(binary: FrameText.encode(["type": "req", "id": "b1", "method": "health"]), deadline: .after(seconds: 5))
        let response = try client.frame { $0["type"]?.stringValue == "res" }
        #expect(response["id"]?.stringValue == "b1")
        #expect(response["ok"]?.boolValue == true)
    }

    @Test func chatSendParamsAreClosed() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let extra = try client.call("chat.send", ["sessionKey": "main", "message": "hi", "idempotencyKey": "k", "colour": "red"])
        #expect(extra["error"] == ["code": "INVALID_REQUEST", "message": "invalid chat.send params: at root: unexpected property 'colour'"])
        let missing = try client.call("chat.send", ["sessionKey": "main", "message": "hi"])
        #expect(missing["error"]?["message"]?.stringValue == "invalid chat.send params: at root: must have required property 'idempotencyKey'")
        let empty = try client.call("chat.send", ["sessionKey": "main", "message": "  ", "idempotencyKey": "k"])
        #expect(empty["error"]?["message"]?.stringValue == "message or attachment required")
        let v4Only = try client.call("chat.send", ["sessionKey": "main", "message": "hi", "idempotencyKey": "k2", "queueMode": "steer"])
        #expect(v4Only["ok"]?.boolValue == true)
        let v3 = try SimulatorProcess(["--protocol", "3"])
        let old = try TestGatewayClient.connected(v3)
        let rejected = try old.call("chat.send", ["sessionKey": "main", "message": "hi", "idempotencyKey": "k2", "queueMode": "steer"])
        #expect(rejected["error"]?["message"]?.stringValue == "invalid chat.send params: at root: unexpected property 'queueMode'")
    }

    @Test func echoRunStreamsLifecycleDeltasAndFinalWithSharedRunSeq() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let ack = try client.call("chat.send", ["sessionKey": "main", "message": "Hello big world", "idempotencyKey": "k1"])
        #expect(ack == ["type": "res", "id": "r1", "ok": true, "payload": ["runId": "k1", "status": "started"]])
        let events = try client.events(until: { $0.isChatEnd })
        let kinds = events.map { ($0["event"]?.stringValue ?? "") + ":" + ($0["payload"]?["stream"]?.stringValue ?? $0["payload"]?["state"]?.stringValue ?? "") }
        #expect(kinds == ["agent:lifecycle", "agent:assistant", "chat:delta", "agent:assistant", "chat:delta",
                          "agent:assistant", "chat:delta", "agent:lifecycle", "chat:final"])
        let runSeqs = events.map { $0["payload"]?["seq"]?.intValue ?? -1 }
        #expect(runSeqs == [1, 2, 2, 3, 3, 4, 4, 5, 5])
        let outer = events.map { $0["seq"]?.intValue ?? -1 }
        #expect(outer == Array(1...9))
        let deltas = events.filter { $0["payload"]?["state"]?.stringValue == "delta" }
        #expect(deltas.map { $0["payload"]?["deltaText"]?.stringValue ?? "" } == ["Hello", " big", " world"])
        #expect(deltas.map { $0["payload"]?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue ?? "" }
            == ["Hello", "Hello big", "Hello big world"])
        #expect(events.first?["payload"]?["data"]?["phase"]?.stringValue == "start")
        #expect(events[7]["payload"]?["data"]?["phase"]?.stringValue == "end")
    }

    @Test func v3DeltasHaveNoDeltaTextAndUseTheGlobalSeq() throws {
        let sim = try SimulatorProcess(["--protocol", "3", "--reply", "lorem:3"])
        let watcher = try TestGatewayClient.connected(sim)
        let sender = try TestGatewayClient.connected(sim)
        _ = try sender.call("chat.send", ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        let sent = try sender.events(until: { $0.isChatEnd })
        let watched = try watcher.events(until: { $0.isChatEnd })
        #expect(sent.map { $0["seq"]?.intValue ?? -1 } == watched.map { $0["seq"]?.intValue ?? -1 })
        for delta in sent where delta["payload"]?["state"]?.stringValue == "delta" {
            #expect(delta["payload"]?["deltaText"] == nil)
        }
    }

    @Test func v4SeqIsPerConnectionAndEventsReachEveryReader() throws {
        let sim = try SimulatorProcess(["--reply", "lorem:2"])
        let early = try TestGatewayClient.connected(sim)
        _ = try early.call("chat.send", ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        let firstRun = try early.events(until: { $0.isChatEnd })
        let late = try TestGatewayClient.connected(sim)
        let blind = try TestGatewayClient.connected(sim, scopes: [])
        _ = try late.call("chat.send", ["sessionKey": "main", "message": "y", "idempotencyKey": "k2"])
        let lateEvents = try late.events(until: { $0.isChatEnd })
        let earlyEvents = try early.events(until: { $0.isChatEnd })
        #expect(lateEvents.first?["seq"]?.intValue == 1)
        #expect(earlyEvents.first?["seq"]?.intValue == firstRun.count + 1)
        #expect(lateEvents.count == earlyEvents.count)
        // A connection without read scope gets no chat or agent events.
        _ = try blind.call("health")
        if case .frame(let frame, _) = blind.next(timeout: 0.3) {
            #expect(frame["event"]?.stringValue == "tick")
        }
    }

    @Test func idempotencyInFlightThenCachedOk() throws {
        let sim = try SimulatorProcess(["--reply", "slow", "--delta-ms", "200"])
        let client = try TestGatewayClient.connected(sim)
        let params: JSONValue = ["sessionKey": "main", "message": "x", "idempotencyKey": "same"]
        #expect(try client.call("chat.send", params)["payload"]?["status"]?.stringValue == "started")
        #expect(try client.call("chat.send", params)["payload"] == ["runId": "same", "status": "in_flight"])
        _ = try client.call("chat.abort", ["sessionKey": "main", "runId": "same"])
        #expect(try client.call("chat.send", params)["payload"] == ["runId": "same", "status": "ok"])
    }

    @Test func idempotencyCachesTheErrorOfAFailedRun() throws {
        let sim = try SimulatorProcess(["--reply", "error"])
        let client = try TestGatewayClient.connected(sim)
        let params: JSONValue = ["sessionKey": "main", "message": "boom now", "idempotencyKey": "bad"]
        _ = try client.call("chat.send", params)
        let end = try client.frame { $0.isChatEnd }
        #expect(end["payload"]?.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "errorMessage", "errorKind", "errorDetail"])
        #expect(end["payload"]?["state"]?.stringValue == "error")
        let cached = try client.call("chat.send", params)
        #expect(cached["ok"]?.boolValue == false)
        #expect(cached["payload"]?["status"]?.stringValue == "error")
        #expect(cached["payload"]?["runId"]?.stringValue == "bad")
        #expect(cached["error"]?["code"]?.stringValue == "UNAVAILABLE")
    }

    @Test func abortMidStreamEndsTheRunAndKeepsThePartialText() throws {
        let sim = try SimulatorProcess(["--reply", "slow", "--delta-ms", "100"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call("chat.send", ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "delta" }
        let abortId = try client.request("chat.abort", ["sessionKey": "main"])
        var aborted: JSONValue = .null
        let response = try client.frame { frame in
            if frame["payload"]?["state"]?.stringValue == "aborted" { aborted = frame }
            return frame["id"]?.stringValue == abortId
        }
        #expect(response["payload"] == ["ok": true, "aborted": true, "runIds": ["k1"]])
        #expect(aborted["payload"]?.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "stopReason", "message"])
        #expect(aborted["payload"]?["stopReason"]?.stringValue == "rpc")
        // Nothing more from that run.
        if case .frame(let frame, _) = client.next(timeout: 0.5) { #expect(frame["event"]?.stringValue == "tick") }
        let again = try client.call("chat.abort", ["sessionKey": "main", "runId": "k1"])
        #expect(again["payload"] == ["ok": true, "aborted": false, "runIds": []])
        let history = try client.call("chat.history", ["sessionKey": "main"])
        let last = history["payload"]?["messages"]?.arrayValue?.last
        #expect(last?["stopReason"]?.stringValue == "aborted")
    }

    @Test func abortWithRunIdOfAnotherSessionIsRejected() throws {
        let sim = try SimulatorProcess(["--reply", "slow"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call("chat.send", ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        let response = try client.call("chat.abort", ["sessionKey": "agent:main:other", "runId": "k1"])
        #expect(response["error"] == ["code": "INVALID_REQUEST", "message": "runId does not match sessionKey"])
    }

    @Test func historyDefaultsTo200AndCapsAt1000() throws {
        let sim = try SimulatorProcess(["--history-fixture", "1200:20"])
        let client = try TestGatewayClient.connected(sim)
        let byDefault = try client.call("chat.history", ["sessionKey": "main"])
        #expect(byDefault["payload"]?["messages"]?.arrayValue?.count == 200)
        #expect(byDefault["payload"]?.objectValue?.keys == ["sessionKey", "sessionId", "thinkingLevel", "verboseLevel", "messages",
                                                            "nextOffset", "hasMore", "totalMessages"])
        let canonical = try client.call("chat.history", ["sessionKey": "agent:main:main", "limit": 1000])
        #expect(canonical["payload"]?["messages"]?.arrayValue?.count == 1000)
        #expect(canonical["payload"]?["sessionKey"]?.stringValue == "agent:main:main")
        let tooMany = try client.call("chat.history", ["sessionKey": "main", "limit": 1001])
        #expect(tooMany["error"]?["message"]?.stringValue == "invalid chat.history params: at /limit: must be <= 1000")
        let unknown = try client.call("chat.history", ["sessionKey": "agent:main:nobody"])
        #expect(unknown["payload"] == ["sessionKey": "agent:main:nobody", "messages": [], "hasMore": false, "totalMessages": 0])
        let message = byDefault["payload"]?["messages"]?.arrayValue?.first
        #expect(message?["content"]?.arrayValue?.first?["text"]?.stringValue?.utf8.count == 20)
    }

    @Test func sessionsListAndInject() throws {
        let sim = try SimulatorProcess(["--history-fixture", "2:10"])
        let admin = try TestGatewayClient.connected(sim, scopes: ["operator.admin"])
        let list = try admin.call("sessions.list", [:])
        #expect(list["payload"]?.objectValue?.keys == ["ts", "path", "count", "totalCount", "limitApplied", "hasMore", "nextOffset",
                                                        "defaults", "sessions"])
        #expect(list["payload"]?["sessions"]?.arrayValue?.first?["key"]?.stringValue == "agent:main:main")
        let inject = try admin.call("chat.inject", ["sessionKey": "main", "message": "note"])
        #expect(inject["payload"]?["ok"]?.boolValue == true)
        let event = try admin.frame { $0["event"]?.stringValue == "chat" }
        #expect(event["payload"]?["seq"]?.intValue == 0)
        #expect(event["payload"]?["state"]?.stringValue == "final")
        #expect(event["payload"]?["runId"]?.stringValue == "inject-" + (inject["payload"]?["messageId"]?.stringValue ?? ""))
        let missing = try admin.call("chat.inject", ["sessionKey": "agent:main:ghost", "message": "x"])
        #expect(missing["error"]?["message"]?.stringValue == "session not found")
    }

    /// `system-presence`, which third-party v3 clients call in their health checks: the official answer's
    /// shape, an array of presence entries, the gateway's own first, then the clients it tracks.
    @Test(arguments: [3, 4])
    func systemPresenceListsTheGatewayThenItsClients(_ version: Int) throws {
        let sim = try SimulatorProcess(["--protocol", String(version)])
        let app = try TestGatewayClient(sim)
        var options = try TestGatewayClient.ConnectOptions.device()
        (options.clientId, options.clientMode, options.maxProtocol) = ("openclaw-macos", "ui", version)
        try app.handshake(options)
        let client = try TestGatewayClient.connected(sim)
        let response = try client.call(GatewayMethod.systemPresence, ["ignored": true])
        #expect(response["ok"] == true, "\(response)")
        let entries = try #require(response["payload"]?.arrayValue)
        #expect(entries.count == 2, "\(entries)")
        #expect(entries.first?["mode"] == "gateway" && entries.first?["reason"] == "self")
        #expect(entries.first?["text"]?.stringValue?.hasPrefix("Gateway: ") == true)
        #expect(entries.last?["mode"] == "ui" && entries.last?["reason"] == "connect")
        // Newest first; the gateway's own entry is touched by every call.
        let stamps = entries.compactMap { $0["ts"]?.intValue }
        #expect(stamps.count == 2 && stamps == stamps.sorted(by: >))
        // A client without operator.read is refused, as for every read method.
        let scopeless = try TestGatewayClient.connected(sim, scopes: [])
        #expect(try scopeless.call(GatewayMethod.systemPresence)["ok"] == false)
    }

    @Test func agentAnswersTwiceWithTheSameId() throws {
        let sim = try SimulatorProcess(["--reply", "lorem:3"])
        let client = try TestGatewayClient.connected(sim)
        let id = try client.request("agent", ["message": "hi", "idempotencyKey": "a1"])
        var responses: [JSONValue] = []
        var events: [JSONValue] = []
        _ = try client.frame { frame in
            if frame["type"]?.stringValue == "res" && frame["id"]?.stringValue == id { responses.append(frame) }
            if frame["type"]?.stringValue == "event" && frame["event"]?.stringValue != "tick" { events.append(frame) }
            return responses.count == 2
        }
        #expect(responses[0]["payload"]?["status"]?.stringValue == "accepted")
        #expect(responses[0]["payload"]?["runId"]?.stringValue == "a1")
        #expect(responses[1]["payload"]?["status"]?.stringValue == "ok")
        #expect(responses[1]["payload"]?["result"]?["payloads"]?.arrayValue?.first?["text"]?.stringValue == "lorem ipsum dolor")
        #expect(events.last?.isChatEnd == true)
        let extra = try client.call("agent", ["message": "hi", "idempotencyKey": "a2", "bogus": 1])
        #expect(extra["error"]?["message"]?.stringValue == "invalid agent params: at root: unexpected property 'bogus'")
    }

    @Test func nodeRoleMayUseProtocol3ButNotOperatorMethods() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        let hello = try client.handshake(try .v3Node())
        #expect(hello["protocol"]?.intValue == 3)
        let response = try client.call("chat.history", ["sessionKey": "main"])
        #expect(response["error"] == ["code": "INVALID_REQUEST", "message": "unauthorized role: node"])
    }
}
