import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// `--script FILE`: each chat.send replays the file exactly, with its own runId and sessionKey.
@Suite(.serialized) struct SimulatorScriptTests {
    private static func message(_ text: String) -> JSONValue {
        ["role": "assistant", "content": [["type": "text", "text": .string(text)]], "timestamp": 5]
    }

    /// Duplicates, a forward gap and a late seq, status, a tool event, `replace`, an unknown event,
    /// an unknown frame type and a text frame that is not JSON, then final.
    private static let steps: [JSONValue] = [
        ["state": "status", "phase": "preparing_workspace"],
        ["state": "delta", "deltaText": "Hel", "message": message("Hel")],
        ["state": "delta", "deltaText": "Hel", "message": message("Hel"), "seq": 2],
        ["state": "delta", "deltaText": "lo", "message": message("Hello"), "seq": 4],
        ["state": "delta", "deltaText": "lo", "message": message("Hello"), "seq": 3],
        ["agent": "tool", "data": ["phase": "start", "name": "read", "toolCallId": "c1", "args": ["path": "a.txt"]]],
        ["state": "delta", "deltaText": "Hello!", "replace": true, "message": message("Hello!")],
        ["frame": ["type": "event", "event": "future.event", "payload": ["runId": "$runId", "x": .number("1.5")]]],
        ["frame": ["type": "mystery", "id": 7]],
        ["text": "not json {"],
        ["state": "final", "stopReason": "stop", "message": message("Hello!")],
    ]

    /// What a client must receive after the ack, with agent `ts` removed (it is the send time).
    private static func expected(runId: String, sessionKey: String, firstOuterSeq: Int) -> [JSONValue] {
        var outer = firstOuterSeq
        func chat(_ seq: Int, _ rest: [(String, JSONValue)]) -> JSONValue {
            var payload: JSONObject = ["runId": .string(runId), "sessionKey": .string(sessionKey), "seq": JSONValue(seq)]
            for (key, value) in rest { payload[key] = value }
            defer { outer += 1 }
            return ["type": "event", "event": "chat", "payload": .object(payload), "seq": JSONValue(outer)]
        }
        let status = chat(1, [("state", "status"), ("phase", "preparing_workspace")])
        let d1 = chat(2, [("state", "delta"), ("deltaText", "Hel"), ("message", message("Hel"))])
        let d1again = chat(2, [("state", "delta"), ("deltaText", "Hel"), ("message", message("Hel"))])
        let d4 = chat(4, [("state", "delta"), ("deltaText", "lo"), ("message", message("Hello"))])
        let d3 = chat(3, [("state", "delta"), ("deltaText", "lo"), ("message", message("Hello"))])
        let tool: JSONValue = [
            "type": "event", "event": "agent",
            "payload": ["runId": .string(runId), "seq": 5, "stream": "tool",
                        "data": ["phase": "start", "name": "read", "toolCallId": "c1", "args": ["path": "a.txt"]],
                        "sessionKey": .string(sessionKey)],
            "seq": JSONValue(outer),
        ]
        outer += 1
        let replace = chat(6, [("state", "delta"), ("deltaText", "Hello!"), ("replace", true), ("message", message("Hello!"))])
        let future: JSONValue = ["type": "event", "event": "future.event", "payload": ["runId": .string(runId), "x": .number("1.5")]]
        let mystery: JSONValue = ["type": "mystery", "id": 7]
        let garbage: JSONValue = .string("not json {")
        let final = chat(7, [("state", "final"), ("stopReason", "stop"), ("message", message("Hello!"))])
        return [status, d1, d1again, d4, d3, tool, replace, future, mystery, garbage, final]
    }

    /// Frames after the ack up to the final chat event; agent `ts` checked and removed.
    private func replay(_ client: TestGatewayClient, until runId: String) throws -> [JSONValue] {
        var frames: [JSONValue] = []
        _ = try client.frame { frame in
            guard frame["event"]?.stringValue != GatewayEventName.tick else { return false }
            var kept = frame
            if frame["event"]?.stringValue == GatewayEventName.agent, case .object(var event) = frame,
               case .object(var payload)? = event["payload"] {
                #expect(payload["ts"]?.int64Value != nil)
                payload["ts"] = nil
                event["payload"] = .object(payload)
                kept = .object(event)
            }
            frames.append(kept)
            return frame["payload"]?["runId"]?.stringValue == runId && frame["payload"]?["state"]?.stringValue == "final"
        }
        return frames
    }

    @Test func eachChatSendReplaysTheScriptExactlyWithItsOwnRunAndSession() throws {
        let script = try ScriptFile(Self.steps)
        let sim = try SimulatorProcess(["--script", script.path])
        let client = try TestGatewayClient.connected(sim)

        let ack = try client.call(GatewayMethod.chatSend, ["sessionKey": "agent:main:work", "message": "go", "idempotencyKey": "k1"])
        #expect(ack["payload"] == ["runId": "k1", "status": "started"])
        let first = try replay(client, until: "k1")
        #expect(first == Self.expected(runId: "k1", sessionKey: "agent:main:work", firstOuterSeq: 1))

        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "again", "idempotencyKey": "k2"])
        let second = try replay(client, until: "k2")
        #expect(second == Self.expected(runId: "k2", sessionKey: "main", firstOuterSeq: 9))

        // The run is over: its key is cached, and the reply is in the transcript.
        let cached = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "again", "idempotencyKey": "k2"])
        #expect(cached["payload"] == ["runId": "k2", "status": "ok"])
        let history = try client.call(GatewayMethod.chatHistory, ["sessionKey": "agent:main:work"])
        let texts = (history["payload"]?["messages"]?.arrayValue ?? []).map { $0["content"]?.arrayValue?.first?["text"]?.stringValue }
        #expect(texts == ["go", "Hello!"])
    }

    @Test func textFramesArriveAsTextOpcodeAndStringMessagesExpand() throws {
        let script = try ScriptFile([["text": "{\"half\":"], ["state": "final", "message": "Done."]])
        let sim = try SimulatorProcess(["--script", script.path])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        guard case .frame(let garbage, let message) = client.next(timeout: 10) else {
            Issue.record("no text frame")
            return
        }
        #expect(garbage == .string("{\"half\":"))
        #expect(message == .text(Array("{\"half\":".utf8)))
        let final = try client.frame { $0.isChatEnd }
        let payload = final["payload"] ?? .null
        #expect(payload.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "message"])
        #expect(payload["seq"] == 1)
        #expect(payload["message"]?.objectValue?.keys == ["role", "content", "timestamp"])
        #expect(payload["message"]?["content"] == [["type": "text", "text": "Done."]])
    }

    @Test func aScriptedRunCanBeAbortedBetweenSteps() throws {
        let script = try ScriptFile([
            ["state": "delta", "deltaText": "part", "message": "part"],
            ["state": "final", "message": "never", "delayMs": 60_000],
        ])
        let sim = try SimulatorProcess(["--script", script.path])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        _ = try client.frame { $0["payload"]?["state"]?.stringValue == "delta" }
        let abortId = try client.request(GatewayMethod.chatAbort, ["sessionKey": "main"])
        var aborted: JSONValue = .null
        let response = try client.frame { frame in
            if frame["payload"]?["state"]?.stringValue == "aborted" { aborted = frame }
            return frame["id"]?.stringValue == abortId
        }
        #expect(response["payload"] == ["ok": true, "aborted": true, "runIds": ["k1"]])
        #expect(aborted["payload"]?["seq"] == 2)
        #expect(aborted["payload"]?["message"]?["content"] == [["type": "text", "text": "part"]])
    }

    /// The example in docs/simulator.md's "Scripts" section is a working script.
    @Test func theDocumentedExampleScriptRuns() throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/simulator.md"), encoding: .utf8)
        guard let section = readme.range(of: "\n## Scripts\n"),
              let open = readme.range(of: "```json\n", range: section.upperBound..<readme.endIndex),
              let close = readme.range(of: "```", range: open.upperBound..<readme.endIndex) else {
            Issue.record("no json example in docs/simulator.md's Scripts section")
            return
        }
        let steps = try JSONValue.parse(Array(readme[open.upperBound..<close.lowerBound].utf8)).arrayValue ?? []
        #expect(steps.count == 8)
        let script = try ScriptFile(steps)
        let sim = try SimulatorProcess(["--script", script.path])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"])
        var texts: [String] = []
        let final = try client.frame { frame in
            if case .string(let text) = frame { texts.append(text) }
            return frame.isChatEnd
        }
        #expect(texts == ["not json {"])
        #expect(final["payload"]?["message"]?["content"] == [["type": "text", "text": "Hello"]])
    }

    @Test(arguments: [
        #"{"state":"delta"}"#, #"[{"state":"delta","agent":"tool"}]"#, #"[{"agent":"tool","extra":1}]"#,
        #"[{"text":1}]"#, #"[{"frame":{},"seq":1}]"#, #"[{"state":"final","delayMs":-1}]"#, "[not json",
    ])
    func badScriptsExit2WithOneLine(_ content: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-script-\(UUID().uuidString).json")
        try Data(content.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let process = Process()
        process.executableURL = BuiltProducts.executable("openclaw-gateway-sim")
        process.arguments = ["--port", "0", "--script", url.path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(stderr.hasPrefix("openclaw-gateway-sim: --script"))
        #expect(stderr.split(separator: "\n").count == 1)
    }
}
