import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Every frame the simulator sends in a realistic session conforms to our JSON Schema of the
/// official TypeBox definitions (Schema/gateway-frames.schema.json), and the schema check itself
/// rejects the shapes the simulator used to get wrong.
@Suite(.serialized) struct SimulatorSchemaConformanceTests {
    @Test func aWholeSessionConformsToTheSchema() throws {
        let sim = try SimulatorProcess(["--reply", "lorem:12", "--delta-ms", "150", "--tick-ms", "400"])
        let watcher = try TestGatewayClient.connected(sim)
        let admin = try TestGatewayClient.connected(sim, scopes: ["operator.admin"])
        let client = try TestGatewayClient.connected(sim)

        _ = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main"])
        // A run that completes, with its agent events.
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hello", "idempotencyKey": "k1"])
        _ = try client.frame { $0.isChatEnd }
        // A run aborted by chat.abort, and one stopped by a stop command.
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "again", "idempotencyKey": "k2"])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "delta" }
        _ = try client.call(GatewayMethod.chatAbort, ["sessionKey": "main", "runId": "k2"])
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "third", "idempotencyKey": "k3"])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "delta" }
        let stop = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "/stop", "idempotencyKey": "s1"])
        #expect(stop["payload"] == ["ok": true, "aborted": true, "runIds": ["k3"]])
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hello", "idempotencyKey": "k1"])
        _ = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "limit": 10])
        _ = try client.call(GatewayMethod.health)
        _ = try client.call(GatewayMethod.sessionsList, ["includeLastMessage": true])
        _ = try client.call(GatewayMethod.systemPresence)
        _ = try watcher.call(GatewayMethod.systemPresence, [:])
        _ = try admin.call(GatewayMethod.chatInject, ["sessionKey": "main", "message": "note"])
        _ = try client.frame { $0["payload"]?["runId"]?.stringValue?.hasPrefix("inject-") == true }
        // The watcher sees the whole stream, ticks included.
        _ = try watcher.frame { $0["payload"]?["runId"]?.stringValue?.hasPrefix("inject-") == true }
        _ = try watcher.frame { $0["event"]?.stringValue == GatewayEventName.tick }

        let entries = sim.logEntries()
        let sent = FrameSchema.sent(entries)
        let events = Set(sent.compactMap { $0["event"]?.stringValue })
        #expect(events.isSuperset(of: ["connect.challenge", "chat", "agent", "tick"]))
        let states = Set(sent.compactMap { $0["event"]?.stringValue == "chat" ? $0["payload"]?["state"]?.stringValue : nil })
        #expect(states == ["delta", "final", "aborted"])
        let problems = try FrameSchema().problems(inLog: entries)
        #expect(problems == [], "\(problems.count) of \(sent.count) frames fail the schema")
    }

    @Test func aScriptedRunWithStatusToolAndReplaceConforms() throws {
        let script = try ScriptFile([
            ["state": "status", "phase": "preparing_workspace"],
            ["agent": "lifecycle", "data": ["phase": "start"]],
            ["state": "delta", "deltaText": "Hel", "message": "Hel"],
            ["agent": "tool", "data": ["phase": "start", "name": "read", "toolCallId": "c1", "args": ["path": "a"]]],
            ["agent": "tool", "data": ["phase": "result", "toolCallId": "c1", "isError": false]],
            ["state": "delta", "deltaText": "Hello", "replace": true, "message": "Hello"],
            ["state": "final", "stopReason": "stop", "message": "Hello"],
        ])
        let sim = try SimulatorProcess(["--script", script.path])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hi", "idempotencyKey": "k1"])
        _ = try client.frame { $0.isChatEnd }
        let problems = try FrameSchema().problems(inLog: sim.logEntries())
        #expect(problems == [])
    }

    @Test func theSchemaRejectsTheOldHealthSnapshotAndV3Deltas() throws {
        let schema = try FrameSchema()
        let sim = try SimulatorProcess()
        let hello = try TestGatewayClient(sim).handshake(try .device())
        #expect(try schema.validator.violations(of: hello, against: "#/$defs/HelloOk") == [])

        guard case .object(var snapshot) = hello["snapshot"], case .object(var health) = snapshot["health"] else {
            Issue.record("no health snapshot")
            return
        }
        health["agents"] = [["agentId": "main", "isDefault": true, "heartbeat": ["enabled": false]]]
        snapshot["health"] = .object(health)
        let oldShape = try schema.validator.violations(of: .object(snapshot), against: "#/$defs/Snapshot")
        #expect(oldShape.contains { $0.contains("missing required 'sessions'") })
        #expect(oldShape.contains { $0.contains("missing required 'everyMs'") })

        let v3Delta: JSONValue = ["runId": "k", "sessionKey": "main", "seq": 1, "state": "delta",
                                  "message": ["role": "assistant", "content": [], "timestamp": 1]]
        #expect(try schema.validator.violations(of: v3Delta, against: "#/$defs/events/chat") != [])
        let extra: JSONValue = ["type": "event", "event": "tick", "payload": ["ts": 1], "colour": "red"]
        #expect(try schema.validator.violations(of: extra, against: "#/$defs/GatewayFrame") != [])
    }

    /// Paging fields, subscriptions and their targeted events, retry status events, an interrupting
    /// send, attachments and the policy that announces them.
    @Test func aSessionWithPagingSubscriptionsRetriesAndAttachmentsConformsToTheSchema() throws {
        let sim = try SimulatorProcess(["--reply", "retry:1", "--attachment-max-bytes", "4096", "--write-rate-limit", "30"])
        let watcher = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let admin = try TestGatewayClient.connected(sim, scopes: ["operator.admin"])
        let client = try TestGatewayClient.connected(sim)
        _ = try watcher.call(GatewayMethod.sessionsSubscribe, [:])
        _ = try watcher.call(GatewayMethod.sessionsMessagesSubscribe, ["key": "main"])
        for i in 0..<3 { _ = try admin.call(GatewayMethod.chatInject, ["sessionKey": "main", "message": .string("note \(i)")]) }
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hello", "idempotencyKey": "k1",
                                                     "attachments": [["type": "file", "mimeType": "text/plain", "fileName": "a.txt",
                                                                      "content": "aGVsbG8="]]])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "status" }
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "next", "idempotencyKey": "k2",
                                                     "queueMode": "interrupt"])
        _ = try client.frame { $0["payload"]?["runId"]?.stringValue == "k2" && $0.isChatEnd }
        _ = try watcher.frame { $0["payload"]?["runId"]?.stringValue == "k2" && $0.isChatEnd }
        _ = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "limit": 2])
        _ = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main", "limit": 2, "offset": 2, "maxBytes": 2048])
        _ = try client.call(GatewayMethod.chatHistory, ["sessionKey": "agent:main:nobody"])
        _ = try watcher.call(GatewayMethod.sessionsMessagesUnsubscribe, ["key": "main"])
        _ = try watcher.call(GatewayMethod.sessionsUnsubscribe, [:])

        let entries = sim.logEntries()
        let sent = FrameSchema.sent(entries)
        let events = Set(sent.compactMap { $0["event"]?.stringValue })
        #expect(events.isSuperset(of: ["chat", "agent", "session.message", "sessions.changed"]))
        let states = Set(sent.compactMap { $0["event"]?.stringValue == "chat" ? $0["payload"]?["state"]?.stringValue : nil })
        #expect(states.isSuperset(of: ["status", "delta", "final", "aborted"]))
        #expect(sent.contains { $0["payload"]?["interruptedActiveRun"] == true })
        #expect(sent.contains { $0["payload"]?["nextOffset"] != nil })
        let problems = try FrameSchema().problems(inLog: entries)
        #expect(problems == [], "\(problems.count) of \(sent.count) frames fail the schema")

        let failing = try SimulatorProcess(["--reply", "error"])
        let other = try TestGatewayClient.connected(failing)
        _ = try other.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "boom", "idempotencyKey": "k1"])
        _ = try other.frame { $0.isChatEnd }
        #expect(try FrameSchema().problems(inLog: failing.logEntries()) == [])
    }

    @Test func theSchemaHoldsTheRetrySubscriptionAndSessionEventShapesClosed() throws {
        let validator = try FrameSchema().validator
        let status: JSONValue = ["runId": "k", "sessionKey": "main", "seq": 1, "state": "status", "phase": "starting_model",
                                 "retry": ["attempt": 11, "maxAttempts": 11, "reason": "rate_limit"]]
        #expect(try validator.violations(of: status, against: "#/$defs/events/chat") != [])
        let error: JSONValue = ["runId": "k", "sessionKey": "main", "seq": 1, "state": "error", "errorDetail": ["httpStatus": 99]]
        #expect(try validator.violations(of: error, against: "#/$defs/events/chat") != [])
        let changed: JSONValue = ["sessionKey": "main", "phase": "start", "runId": "k", "ts": 1, "hasActiveRun": true,
                                  "status": "running", "startedAt": 1, "seq": 3]
        #expect(try validator.violations(of: changed, against: "#/$defs/events/sessions.changed") != [])
        let message: JSONValue = ["sessionKey": "main", "message": ["role": "user", "content": [], "timestamp": 1],
                                  "messageId": "m", "messageSeq": 0]
        #expect(try validator.violations(of: message, against: "#/$defs/events/session.message") != [])
        let subscribed: JSONValue = ["subscribed": true, "sessionKey": "main"]
        #expect(try validator.violations(of: subscribed, against: "#/$defs/results/sessions.messages.subscribe") != [])
    }

    /// A restarting gateway's refusal, pairing waits, approvals and rejections.
    @Test func aSessionWithRestartsAndPairingDecisionsConformsToTheSchema() throws {
        let (sim, admin) = try pairingGateway(["--fault", "restarting:1"])
        _ = try admin.call(GatewayMethod.chatHistory, ["sessionKey": "main"])  // refused: restarting
        let waiter = try TestGatewayClient(sim)
        let id = try #require(try waiter.connect(waiting(try TestDevice()))["error"]?["details"]?["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairApprove, ["requestId": .string(id)])
        _ = waiter.readUntilClosed()
        let other = try TestGatewayClient(sim)
        let otherId = try #require(try other.connect(waiting(try TestDevice()))["error"]?["details"]?["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairReject, ["requestId": .string(otherId)])
        _ = other.readUntilClosed()
        signal(sim, SIGUSR1)
        #expect(try eventually { try admin.call(GatewayMethod.chatHistory, ["sessionKey": "main"])["ok"] == false })
        _ = try HandshakeRejection.probe(sim, try .device())

        let entries = sim.logEntries()
        let sent = FrameSchema.sent(entries)
        #expect(sent.contains { $0["error"]?["details"]?["reason"] == "gateway-suspending" })
        #expect(sent.contains { $0["error"]?["details"]?["waitForResolution"] == true })
        let problems = try FrameSchema().problems(inLog: entries)
        #expect(problems == [], "\(problems.count) of \(sent.count) frames fail the schema")
    }

    /// The scripting verbs' methods (logs.tail, wake, cron.*, paged sessions.list) and every kind of
    /// `agent` final response, with the `cron` events of finished runs.
    @Test func aScriptingSessionConformsToTheSchema() throws {
        let sim = try SimulatorProcess(["--reply", "slow", "--delta-ms", "300", "--log-lines", "3000", "--log-raw-line", "not json",
                                        "--log-rotate-after-polls", "3", "--sessions", "30", "--cron-job", "quick,ok,0",
                                        "--cron-job", "broken,error,0", "--cron-job", "parked,disabled", "--cron-job", "late,ok,0,due"])
        let admin = try TestGatewayClient.connected(sim, scopes: ["operator.admin"])
        var cursor: JSONValue = 0
        for _ in 0..<4 {  // the fourth poll follows a rotation
            cursor = try admin.call(GatewayMethod.logsTail, ["cursor": cursor, "limit": 5000, "maxBytes": 1_000_000])["payload"]?["cursor"] ?? 0
        }
        _ = try admin.call(GatewayMethod.logsTail, [:])
        _ = try admin.call(GatewayMethod.wake, ["mode": "now", "text": "deploy finished"])
        _ = try admin.call(GatewayMethod.wake, ["mode": "next-heartbeat", "text": " "])
        _ = try admin.call(GatewayMethod.sessionsList, ["limit": 10, "offset": 5])
        _ = try admin.call(GatewayMethod.sessionsList, ["limit": 10, "offset": 25, "includeLastMessage": true])
        _ = try admin.call(GatewayMethod.cronList, [:])
        _ = try admin.call(GatewayMethod.cronList, ["compact": true, "includeDisabled": true])
        for job in ["quick", "broken", "late"] {
            _ = try admin.call(GatewayMethod.cronRun, ["id": .string(job), "mode": job == "late" ? "due" : "force"])
            _ = try admin.frame { $0["event"] == "cron" && $0["payload"]?["jobId"] == .string(job) && $0["payload"]?["action"] == "finished" }
        }
        _ = try admin.call(GatewayMethod.cronRun, ["id": "quick", "mode": "due"])
        _ = try admin.call(GatewayMethod.cronList, ["includeDisabled": true])
        _ = try admin.call(GatewayMethod.cronList, ["compact": true])
        _ = try admin.call(GatewayMethod.cronRuns, ["id": "quick"])
        _ = try admin.call(GatewayMethod.cronRuns, ["limit": 1])
        // Agent runs: aborted by chat.abort, by a stop command, by their timeout; replayed once settled.
        for (key, stop) in [("a1", "abort"), ("a2", "stop"), ("a3", "timeout")] {
            let id = try admin.request(GatewayMethod.agent, ["message": "x", "idempotencyKey": .string(key), "sessionKey": "main",
                                                            "timeout": stop == "timeout" ? 1 : 0])
            _ = try admin.frame { $0["payload"]?["stream"] == "assistant" }
            if stop == "abort" { try admin.request(GatewayMethod.chatAbort, ["sessionKey": "main", "runId": .string(key)]) }
            if stop == "stop" { try admin.request(GatewayMethod.chatSend, ["sessionKey": "main", "message": "/stop", "idempotencyKey": .string("s-\(key)")]) }
            _ = try admin.frame(timeout: 30) { $0["id"]?.stringValue == id && $0["payload"]?["summary"] != nil }
        }
        _ = try admin.call(GatewayMethod.agent, ["message": "x", "idempotencyKey": "a1"])

        let entries = sim.logEntries()
        let sent = FrameSchema.sent(entries)
        #expect(sent.contains { $0["payload"]?["reset"] == true })
        #expect(sent.contains { $0["event"] == "cron" && $0["payload"]?["status"] == "error" })
        let stopReasons = Set(sent.compactMap { $0["payload"]?["stopReason"]?.stringValue })
        #expect(stopReasons.isSuperset(of: ["rpc", "stop", "timeout"]))
        let problems = try FrameSchema().problems(inLog: entries)
        #expect(problems == [], "\(problems.count) of \(sent.count) frames fail the schema")

        // Completed and failed agent runs.
        for reply in ["lorem:2", "error"] {
            let other = try SimulatorProcess(["--reply", reply])
            let client = try TestGatewayClient.connected(other)
            let id = try client.request(GatewayMethod.agent, ["message": "x", "idempotencyKey": "k1"])
            _ = try client.frame { $0["id"]?.stringValue == id && $0["payload"]?["summary"] != nil }
            #expect(try FrameSchema().problems(inLog: other.logEntries()) == [], "\(reply)")
        }
    }

    /// The new result schemas are closed where the official ones are: wrong shapes fail.
    @Test func theSchemaRejectsWrongScriptingShapes() throws {
        let validator = try FrameSchema().validator
        let final: JSONValue = ["runId": "r", "status": "ok", "summary": "completed",
                                "result": ["payloads": [["text": "hi", "mediaUrl": .null]], "meta": ["durationMs": 1]]]
        #expect(try validator.violations(of: final, against: "#/$defs/results/agent") == [])
        #expect(try validator.violations(of: ["runId": "r", "status": "ok", "summary": "done", "result": final["result"] ?? .null],
                                         against: "#/$defs/results/agent") != [])
        #expect(try validator.violations(of: ["runId": "r", "status": "ok", "result": final["result"] ?? .null],
                                         against: "#/$defs/results/agent") != [])
        let tail: JSONValue = ["file": "/f", "cursor": 1, "size": 1, "lines": ["a"], "truncated": false, "reset": false]
        #expect(try validator.violations(of: tail, against: "#/$defs/results/logs.tail") == [])
        #expect(try validator.violations(of: ["file": "/f", "cursor": -1, "size": 1, "lines": []], against: "#/$defs/results/logs.tail") != [])
        #expect(try validator.violations(of: ["file": "/f", "cursor": 1, "size": 1, "lines": [], "skippedBytes": 3],
                                         against: "#/$defs/results/logs.tail") != [])
        let entry: JSONValue = ["ts": 1, "jobId": "j", "action": "finished", "status": "ok"]
        #expect(try validator.violations(of: entry, against: "#/$defs/CronRunLogEntry") == [])
        #expect(try validator.violations(of: ["ts": 1, "jobId": "j", "action": "started"], against: "#/$defs/CronRunLogEntry") != [])
        #expect(try validator.violations(of: ["ok": true, "enqueued": true], against: "#/$defs/results/cron.run") != [])
        let page: JSONValue = ["entries": [entry], "total": 1, "offset": 0, "limit": 50, "hasMore": false, "nextOffset": .null]
        #expect(try validator.violations(of: page, against: "#/$defs/results/cron.runs") == [])
        #expect(try validator.violations(of: ["entries": [], "total": 0, "offset": 0, "limit": 500, "hasMore": false, "nextOffset": .null],
                                         against: "#/$defs/results/cron.runs") != [])
        #expect(try validator.violations(of: ["ok": "yes"], against: "#/$defs/results/wake") != [])
    }

    @Test func theValidatorRefusesKeywordsItDoesNotImplement() throws {
        let validator = JSONSchemaValidator(schema: ["$defs": ["S": ["type": "string", "pattern": "^a"]]])
        #expect(throws: JSONSchemaValidator.Failure.self) { try validator.violations(of: "b", against: "#/$defs/S") }
    }
}
