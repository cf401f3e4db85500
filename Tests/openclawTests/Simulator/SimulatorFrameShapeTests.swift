import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// The frames the simulator sends, field for field against docs/protocol.md's JSON examples
/// (key names, order where the document shows it, and value types).
@Suite(.serialized) struct SimulatorFrameShapeTests {
    private func isInteger(_ value: JSONValue?) -> Bool { value?.int64Value != nil }
    private func isString(_ value: JSONValue?) -> Bool { value?.stringValue != nil }

    @Test func helloOkV4MatchesSection3_7() throws {
        let sim = try SimulatorProcess(["--tick-ms", "15000"])
        let client = try TestGatewayClient(sim)
        let response = try client.connect(try .device())
        #expect(response.objectValue?.keys == ["type", "id", "ok", "payload"])
        let hello = response["payload"] ?? .null
        #expect(hello.objectValue?.keys == ["type", "protocol", "server", "features", "snapshot", "auth", "policy"])
        #expect(hello["server"]?.objectValue?.keys == ["version", "connId"])
        #expect(isString(hello["server"]?["version"]) && isString(hello["server"]?["connId"]))
        #expect(hello["features"]?.objectValue?.keys == ["methods", "events", "capabilities"])
        for method in ["health", "chat.history", "chat.send", "chat.abort"] {
            #expect(hello["features"]?["methods"]?.arrayValue?.contains(.string(method)) == true)
        }
        for event in ["connect.challenge", "agent", "chat", "presence", "tick", "shutdown"] {
            #expect(hello["features"]?["events"]?.arrayValue?.contains(.string(event)) == true)
        }
        let snapshot = hello["snapshot"] ?? .null
        #expect(snapshot.objectValue?.keys == ["presence", "health", "stateVersion", "uptimeMs", "configPath", "stateDir",
                                               "sessionDefaults", "authMode"])
        #expect(snapshot["presence"]?.arrayValue?.isEmpty == false)
        #expect(snapshot["presence"]?.arrayValue?.allSatisfy { isInteger($0["ts"]) } == true)
        #expect(snapshot["health"]?.objectValue != nil)
        #expect(snapshot["stateVersion"]?.objectValue?.keys == ["presence", "health"])
        #expect(isInteger(snapshot["stateVersion"]?["presence"]) && isInteger(snapshot["uptimeMs"]))
        #expect(snapshot["sessionDefaults"] == ["defaultAgentId": "main", "mainKey": "main", "mainSessionKey": "agent:main:main",
                                                "scope": "per-sender"])
        #expect(snapshot["authMode"]?.stringValue == "none")
        #expect(hello["auth"]?.objectValue?.keys == ["deviceToken", "role", "scopes", "issuedAtMs"])
        #expect(hello["policy"] == ["maxPayload": 26214400, "maxBufferedBytes": 52428800, "tickIntervalMs": 15000])
    }

    @Test func helloOkV3HasNoCapabilitiesAndAuthOnlyWithADeviceToken() throws {
        let sim = try SimulatorProcess(["--protocol", "3", "--token", "t"])
        let withDevice = try TestGatewayClient(sim)
        let hello = try withDevice.handshake(try .device(token: "t"))
        #expect(hello["protocol"]?.intValue == 3)
        #expect(hello["features"]?.objectValue?.keys == ["methods", "events"])
        #expect(hello["auth"]?.objectValue?.keys == ["deviceToken", "role", "scopes", "issuedAtMs"])
        #expect(hello["snapshot"]?["authMode"]?.stringValue == "token")
        let tokenOnly = try TestGatewayClient(sim)
        var options = TestGatewayClient.ConnectOptions()
        options.token = "t"
        let bare = try tokenOnly.handshake(options)
        #expect(bare.objectValue?.keys == ["type", "protocol", "server", "features", "snapshot", "policy"])
    }

    @Test func chatAndAgentEventsMatchSection5() throws {
        let sim = try SimulatorProcess(["--reply", "lorem:2"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call("chat.send", ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        let events = try client.events(until: { $0.isChatEnd })
        for event in events {
            #expect(event.objectValue?.keys == ["type", "event", "payload", "seq"])
            #expect(isInteger(event["seq"]))
        }
        let agent = events.first { $0["payload"]?["stream"]?.stringValue == "assistant" }
        #expect(agent?["payload"]?.objectValue?.keys == ["runId", "seq", "stream", "ts", "data", "sessionKey"])
        #expect(agent?["payload"]?["data"]?.objectValue?.keys == ["text", "delta"])
        #expect(isInteger(agent?["payload"]?["ts"]))
        let lifecycle = events.first { $0["payload"]?["stream"]?.stringValue == "lifecycle" }
        #expect(lifecycle?["payload"]?["data"]?.objectValue?.keys == ["phase", "startedAt"])
        let delta = events.first { $0["payload"]?["state"]?.stringValue == "delta" }
        #expect(delta?["payload"]?.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "message", "deltaText"])
        #expect(delta?["payload"]?["message"]?.objectValue?.keys == ["role", "content", "timestamp"])
        #expect(delta?["payload"]?["message"]?["content"]?.arrayValue?.first?.objectValue?.keys == ["type", "text"])
        let final = events.last
        #expect(final?["payload"]?.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "stopReason", "message"])
        #expect(final?["payload"]?["stopReason"]?.stringValue == "stop")
        #expect(final?["payload"]?["sessionKey"]?.stringValue == "main")
    }

    @Test func historyMessagesArePiAiTranscriptRows() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call("chat.send", ["sessionKey": "main", "message": "hi", "idempotencyKey": "k1"])
        _ = try client.frame { $0.isChatEnd }
        let history = try client.call("chat.history", ["sessionKey": "main", "limit": 50])
        let messages = history["payload"]?["messages"]?.arrayValue ?? []
        #expect(messages.count == 2)
        #expect(messages.first?.objectValue?.keys == ["role", "content", "timestamp"])
        #expect(messages.first?["content"] == [["type": "text", "text": "hi"]])
        #expect(messages.last?.objectValue?.keys == ["role", "content", "api", "provider", "model", "stopReason", "timestamp"])
        #expect(messages.last?["role"]?.stringValue == "assistant")
        #expect(isInteger(messages.last?["timestamp"]))
    }

    @Test func errorResponsesHaveTheErrorShape() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: [])
        let response = try client.call("chat.history", ["sessionKey": "main"])
        #expect(response.objectValue?.keys == ["type", "id", "ok", "error"])
        #expect(response["error"]?.objectValue?.keys == ["code", "message", "details"])
    }

    @Test func presenceEventWhenANonCliClientConnects() throws {
        let sim = try SimulatorProcess()
        let watcher = try TestGatewayClient.connected(sim)
        let app = try TestGatewayClient(sim)
        var options = try TestGatewayClient.ConnectOptions.device()
        options.clientId = "openclaw-macos"
        options.clientMode = "ui"
        try app.handshake(options)
        let event = try watcher.frame { $0["event"]?.stringValue == "presence" }
        #expect(event.objectValue?.keys == ["type", "event", "payload", "seq", "stateVersion"])
        #expect(event["stateVersion"]?.objectValue?.keys == ["presence", "health"])
        let entries = event["payload"]?["presence"]?.arrayValue ?? []
        #expect(entries.contains { $0["mode"]?.stringValue == "ui" && $0["reason"]?.stringValue == "connect" && isInteger($0["ts"]) })
    }
}
