import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// The simulator's keepalive (`--ping-ms`, `--pong-timeout-ms`): a client that answers pings stays, a silent one is dropped.
@Suite(.serialized) struct SimulatorKeepaliveTests {
    /// Connects token-only over a raw socket, which answers no ping (nothing reads it).
    func rawConnected(_ sim: SimulatorProcess) throws -> RawFrameClient {
        let raw = try RawFrameClient(port: sim.port)
        var controls: [RawFrameClient.Frame] = [], fragments: [RawFrameClient.Frame] = []
        _ = try raw.nextMessage(controls: &controls, fragments: &fragments)  // connect.challenge
        try raw.send(json: ["type": "req", "id": "1", "method": "connect", "params": [
            "minProtocol": 4, "maxProtocol": 4, "client": ["id": "cli", "version": "1", "platform": "linux", "mode": "cli"],
            "role": "operator", "scopes": ["operator.read"], "auth": ["token": "t"]]])
        let hello = try #require(try raw.nextMessage(controls: &controls, fragments: &fragments))
        #expect(hello.text.contains("hello-ok"))
        return raw
    }

    @Test func aClientThatAnswersPingsStaysAndASilentOneIsDropped() throws {
        let sim = try SimulatorProcess(["--token", "t", "--ping-ms", "100", "--pong-timeout-ms", "1000"])
        // Our WebSocket answers every ping while it reads.
        let alive = try TestGatewayClient.connected(sim, token: "t")
        let aliveConn = try #require(sim.logEntries().last { $0["frame"]?["payload"]?["type"]?.stringValue == "hello-ok" }?["conn"]?.intValue)
        #expect(eventually {
            _ = alive.next(timeout: 0.05)
            return keepAliveLines(sim, "pong").filter { $0["conn"]?.intValue == aliveConn }.count >= 3
        })
        // A client that never answers: pinged, then dropped without a close frame.
        let silent = try rawConnected(sim)
        #expect(eventually {
            _ = alive.next(timeout: 0.05)  // keeps answering its own pings meanwhile
            return keepAliveLines(sim, "dropped").count == 1
        })
        let dropped = try #require(keepAliveLines(sim, "dropped").first)
        #expect(dropped["conn"]?.intValue != aliveConn)
        #expect(dropped["reason"] == "no pong within 1000 ms")
        var sawPing = false
        while let frame = try silent.nextFrame(timeout: 10) { if frame.opcode == 0x9 { sawPing = true } }
        #expect(sawPing && silent.reachedEnd)
        // The answering client is still there.
        #expect(try alive.call(GatewayMethod.health)["ok"] == true)
        #expect(keepAliveLines(sim, "dropped").count == 1)
    }
}
