import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// The `agent` method's final response as the official gateway sends it, for runs that complete,
/// fail, are aborted (chat.abort, a stop command) or outlive their `timeout`.
@Suite(.serialized) struct SimulatorAgentFinalTests {
    /// Sends an `agent` request and collects its two `res` frames and the events between them.
    private func runAgent(_ client: TestGatewayClient, _ params: JSONValue, whileRunning: ((TestGatewayClient) throws -> Void)? = nil)
        throws -> (ack: JSONValue, final: JSONValue, events: [JSONValue]) {
        let id = try client.request(GatewayMethod.agent, params)
        var responses: [JSONValue] = []
        var events: [JSONValue] = []
        var acted = whileRunning == nil
        _ = try client.frame(timeout: 30) { frame in
            if frame["type"] == "res" && frame["id"]?.stringValue == id { responses.append(frame) }
            if frame["type"] == "event" && frame["event"] != "tick" { events.append(frame) }
            return responses.count == 2 || (!acted && frame["payload"]?["stream"] == "assistant")
        }
        if !acted, let whileRunning {
            acted = true
            try whileRunning(client)
            _ = try client.frame(timeout: 30) { frame in
                if frame["type"] == "res" && frame["id"]?.stringValue == id { responses.append(frame) }
                if frame["type"] == "event" && frame["event"] != "tick" { events.append(frame) }
                return responses.count == 2
            }
        }
        return (responses[0], responses[1], events)
    }

    @Test func aCompletedRunEndsWithTheOfficialFinalPayload() throws {
        let sim = try SimulatorProcess(["--reply", "lorem:3"])
        let client = try TestGatewayClient.connected(sim)
        let run = try runAgent(client, ["message": "hi", "idempotencyKey": "a1", "cleanupBundleMcpOnRunEnd": true, "timeout": 600])
        #expect(run.ack["payload"]?["status"] == "accepted")
        let final = run.final
        #expect(final["ok"] == true)
        let payload = try #require(final["payload"])
        #expect(payload.objectValue?.keys == ["runId", "status", "summary", "result"])
        #expect(payload["runId"] == "a1" && payload["status"] == "ok" && payload["summary"] == "completed")
        #expect(payload["result"]?["payloads"] == [["text": "lorem ipsum dolor", "mediaUrl": .null]])
        let meta = try #require(payload["result"]?["meta"])
        #expect(meta["stopReason"] == "stop" && (meta["durationMs"]?.intValue ?? -1) >= 0 && meta["aborted"] == nil)
        #expect(meta["agentMeta"]?["provider"] == "openclaw-sim" && meta["agentMeta"]?["model"] == "sim-1")
        #expect(meta["agentMeta"]?["sessionId"]?.stringValue?.isEmpty == false)
        // The run streamed as before: lifecycle start, assistant deltas, lifecycle end.
        let agent = run.events.filter { $0["event"] == "agent" }
        #expect(agent.first?["payload"]?["data"]?["phase"] == "start" && agent.last?["payload"]?["data"]?["phase"] == "end")
        #expect(agent.filter { $0["payload"]?["stream"] == "assistant" }.count == 3)
        // Asked again with the same key: the settled answer, once.
        let again = try client.call(GatewayMethod.agent, ["message": "hi", "idempotencyKey": "a1"])
        #expect(again["payload"] == payload)
    }

    @Test func aFailedRunIsStatusErrorSummaryFailed() throws {
        let sim = try SimulatorProcess(["--reply", "error"])
        let client = try TestGatewayClient.connected(sim)
        let final = try runAgent(client, ["message": "boom now", "idempotencyKey": "e1"]).final
        #expect(final["ok"] == true)
        #expect(final["payload"]?["status"] == "error" && final["payload"]?["summary"] == "failed")
        #expect(final["payload"]?["stopReason"] == "error" && final["payload"]?["result"]?["meta"]?["stopReason"] == "error")
    }

    @Test func anAbortedRunStillGetsItsFinalResponse() throws {
        let sim = try SimulatorProcess(["--reply", "slow", "--delta-ms", "300"])
        let client = try TestGatewayClient.connected(sim)
        let run = try runAgent(client, ["message": "x", "idempotencyKey": "r1", "sessionKey": "main"]) { client in
            try client.request(GatewayMethod.chatAbort, ["sessionKey": "main", "runId": "r1"])
        }
        let payload = try #require(run.final["payload"])
        #expect(run.final["ok"] == true)
        #expect(payload["status"] == "timeout" && payload["summary"] == "aborted" && payload["stopReason"] == "rpc")
        #expect(payload["result"]?["meta"]?["aborted"] == true && payload["result"]?["meta"]?["stopReason"] == "rpc")

        let stopped = try runAgent(client, ["message": "y", "idempotencyKey": "r2", "sessionKey": "main"]) { client in
            try client.request(GatewayMethod.chatSend, ["sessionKey": "main", "message": "/stop", "idempotencyKey": "s1"])
        }
        #expect(stopped.final["payload"]?["summary"] == "aborted" && stopped.final["payload"]?["stopReason"] == "stop")
    }

    @Test func aRunLongerThanItsTimeoutEndsInTimeout() throws {
        let sim = try SimulatorProcess(["--reply", "slow", "--delta-ms", "500"])
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.sessionsSubscribe, [:])
        let run = try runAgent(client, ["message": "x", "idempotencyKey": "t1", "timeout": 1])
        let payload = try #require(run.final["payload"])
        #expect(payload["status"] == "timeout" && payload["summary"] == "aborted" && payload["stopReason"] == "timeout")
        // The run ended as one that ran out of time, for session subscribers too.
        let changes = run.events.filter { $0["event"] == "sessions.changed" }.compactMap { $0["payload"]?["status"]?.stringValue }
        #expect(changes == ["running", "timeout"])
        // A timeout of 0 is none: the same slow run completes.
        let untimed = try SimulatorProcess(["--reply", "lorem:2", "--delta-ms", "200"])
        let other = try TestGatewayClient.connected(untimed)
        #expect(try runAgent(other, ["message": "x", "idempotencyKey": "t2", "timeout": 0]).final["payload"]?["status"] == "ok")
    }

    @Test func agentParamsAreTheOfficialClosedSchema() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        let empty = try client.call(GatewayMethod.agent, ["message": "", "idempotencyKey": "x1"])
        #expect(empty["error"]?["message"] == "invalid agent params: at /message: must NOT have fewer than 1 characters")
        let negative = try client.call(GatewayMethod.agent, ["message": "hi", "idempotencyKey": "x2", "timeout": -1])
        #expect(negative["error"]?["message"] == "invalid agent params: at /timeout: must be >= 0")
    }
}
