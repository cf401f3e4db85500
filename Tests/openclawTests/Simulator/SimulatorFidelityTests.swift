import Foundation
import Testing
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// Smaller points where the simulator follows the official server: silence on non-JSON, the
/// order of connect admission checks, the hello of each generation, the challenge.
@Suite(.serialized) struct SimulatorFidelityTests {
    /// The real server only logs a message that is not JSON. Frames leave in order, so an answer to
    /// the garbage would arrive before the answer to the request sent after it.
    @Test func nonJSONAfterHelloGetsNoAnswer() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        try client.send(text: "this is not JSON {")
        try client.socket.send(binary: Array("\u{1}\u{2}garbage".utf8), deadline: .after(seconds: 5))
        try client.request(GatewayMethod.health, id: "after")
        let next = try client.frame { $0["event"]?.stringValue != GatewayEventName.tick }
        #expect(next["id"]?.stringValue == "after")
        #expect(next["ok"]?.boolValue == true)
        let sent = FrameSchema.sent(sim.logEntries())
        #expect(!sent.contains { $0["id"]?.stringValue == "invalid" })
    }

    @Test func gatewayStartingIsCheckedBeforeProtocolAndRole() throws {
        let sim = try SimulatorProcess(["--fault", "starting:1"])
        var options = try TestGatewayClient.ConnectOptions.device()
        options.minProtocol = 1
        options.maxProtocol = 1
        let starting = try HandshakeRejection.probe(sim, options) { $0["role"] = "wizard" }
        #expect(starting.error?["code"]?.stringValue == "UNAVAILABLE")
        #expect(starting.code == 1013)
        let mismatch = try HandshakeRejection.probe(sim, options)
        #expect(mismatch.error?["message"]?.stringValue == "protocol mismatch")
        #expect(mismatch.code == 1002)
    }

    @Test func aV4ServerGivesAV3NodeItsV4Hello() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        let hello = try client.handshake(try .v3Node())
        #expect(hello["protocol"]?.intValue == 3)
        #expect(hello["auth"]?["role"]?.stringValue == "node")
        #expect(hello["features"]?["capabilities"] != nil)
    }

    /// Official servers (every ws-connection.ts read, and the docs) send exactly `{nonce, ts}`.
    @Test func theChallengeCarriesNonceAndTs() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient(sim)
        #expect(client.challenge.objectValue?.keys == ["nonce", "ts"])
    }

    @Test func healthSnapshotRowsAreComplete() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call(GatewayMethod.chatSend, ["sessionKey": "main", "message": "hi", "idempotencyKey": "k1"])
        _ = try client.frame { $0.isChatEnd }
        let health = try client.call(GatewayMethod.health)["payload"] ?? .null
        let agent = health["agents"]?.arrayValue?.first
        #expect(agent?.objectValue?.keys == ["agentId", "isDefault", "heartbeat", "sessions"])
        #expect(agent?["heartbeat"]?.objectValue?.keys == ["enabled", "every", "everyMs", "prompt", "target", "ackMaxChars"])
        let recent = health["sessions"]?["recent"]?.arrayValue?.first
        #expect(recent?.objectValue?.keys == ["key", "updatedAt", "age"])
        #expect(recent?["key"]?.stringValue == "agent:main:main")
        #expect(health["sessions"] == agent?["sessions"])
    }
}
