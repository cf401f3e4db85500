import Foundation
import Testing
@_spi(Engine) import ClawJSON

@Suite(.serialized) struct SimulatorSmokeTests {
    @Test func deviceConnectGetsHelloOkAndChatStreams() throws {
        let sim = try SimulatorProcess(["--token", "s3cret", "--tick-ms", "60000"])
        let client = try TestGatewayClient(sim)
        var options = TestGatewayClient.ConnectOptions()
        options.token = "s3cret"
        options.device = try TestDevice()
        let hello = try client.handshake(options)
        #expect(hello["type"]?.stringValue == "hello-ok")
        #expect(hello["protocol"]?.intValue == 4)
        let ack = try client.call("chat.send", ["sessionKey": "main", "message": "hello world", "idempotencyKey": "k1"])
        #expect(ack["payload"] == ["runId": "k1", "status": "started"])
        let final = try client.frame { $0["event"]?.stringValue == "chat" && $0["payload"]?["state"]?.stringValue == "final" }
        #expect(final["payload"]?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue == "hello world")
        let history = try client.call("chat.history", ["sessionKey": "main"])
        #expect(history["payload"]?["messages"]?.arrayValue?.count == 2)
        #expect(sim.stop() == 0)
    }
}
