import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `--write-rate-limit`: control-plane writes per window, method and client, refused UNAVAILABLE
/// retryable with retryAfterMs; idempotent replays neither count nor are refused.
@Suite(.serialized) struct SimulatorWriteLimitTests {
    private func send(_ client: TestGatewayClient, _ key: String) throws -> JSONValue {
        try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hi", "idempotencyKey": .string(key)])
    }

    @Test func writesPastTheLimitAreRefusedUntilTheWindowMoves() throws {
        let sim = try SimulatorProcess(["--write-rate-limit", "2", "--write-rate-window-ms", "3000"])
        let client = try TestGatewayClient.connected(sim)
        #expect(try send(client, "k1")["payload"]?["status"]?.stringValue == "started")
        #expect(try send(client, "k2")["payload"]?["status"]?.stringValue == "started")
        let refused = try send(client, "k3")
        #expect(refused["ok"]?.boolValue == false)
        let error = refused["error"] ?? .null
        #expect(error["code"]?.stringValue == "UNAVAILABLE")
        #expect(error["retryable"] == true)
        #expect(error["message"]?.stringValue?.hasPrefix("rate limit exceeded for chat.send; retry after ") == true)
        #expect(error["details"] == ["method": "chat.send", "limit": "2 per 3s"])
        let retryAfterMs = try #require(error["retryAfterMs"]?.intValue)
        #expect(retryAfterMs > 0 && retryAfterMs <= 3000)

        // A replay of a known key is answered from the cache, not counted and not refused.
        for _ in 0..<3 {
            let replay = try send(client, "k1")
            #expect(replay["ok"]?.boolValue == true, "\(replay.compactText)")
            #expect(["in_flight", "ok"].contains(replay["payload"]?["status"]?.stringValue ?? ""))
        }
        // Per method: chat.abort has its own budget.
        #expect(try client.call(GatewayMethod.chatAbort, ["sessionKey": "agent:main:none"])["ok"]?.boolValue == true)
        // Per client: another device starts with a full budget.
        let other = try TestGatewayClient.connected(sim)
        #expect(try send(other, "o1")["payload"]?["status"]?.stringValue == "started")

        // As the refusal says: after retryAfterMs the same key is accepted.
        Thread.sleep(forTimeInterval: Double(retryAfterMs) / 1000)
        #expect(try send(client, "k3")["payload"] == ["runId": "k3", "status": "started"])
    }

    @Test func withoutTheFlagNothingIsLimited() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        for i in 0..<40 {
            #expect(try send(client, "k\(i)")["ok"]?.boolValue == true)
        }
    }
}
