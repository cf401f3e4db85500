import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// The simulator suspended (`--suspended`, SIGUSR1/SIGUSR2) or draining for a restart (`restarting:N`, `close-1013:N`).
@Suite(.serialized) struct SimulatorSuspensionTests {
    @Test func aSuspendedGatewayRefusesConnectsWith1013UntilResumed() throws {
        let sim = try SimulatorProcess(["--suspended"])
        let refused = try HandshakeRejection.probe(sim, try .device())
        #expect(refused.error == ["code": "UNAVAILABLE", "message": "connect unavailable during gateway suspension",
                                  "details": ["reason": "gateway-suspending", "phase": "prepared"],
                                  "retryable": true, "retryAfterMs": 1000])
        #expect(refused.code == 1013)
        #expect(refused.reason == "gateway suspended")
        signal(sim, SIGUSR2)
        #expect(try eventually { (try? TestGatewayClient(sim).handshake(try .device())) != nil })
    }

    @Test func aRestartDrainNamesItsReasonAndASuspensionCanEndByItself() throws {
        let draining = try SimulatorProcess(["--suspended", "--suspend-reason", "gateway-restarting", "--suspend-ms", "600000"])
        let refused = try HandshakeRejection.probe(draining, try .device())
        #expect(refused.error?["message"] == "connect unavailable during gateway restart")
        #expect(refused.details == ["reason": "gateway-restarting", "phase": "draining"])
        #expect(refused.reason == "gateway restarting")
        #expect(refused.code == 1013)

        let brief = try SimulatorProcess(["--suspended", "--suspend-ms", "300"])
        #expect(try eventually { (try? TestGatewayClient(brief).handshake(try .device())) != nil })
    }

    @Test func sigusr1SuspendsConnectedClientsRequestsButNotHealth() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        signal(sim, SIGUSR1)
        var refusal: JSONValue = .null
        #expect(try eventually {
            refusal = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main"])
            return refusal["ok"] == false
        })
        #expect(refusal["error"] == ["code": "UNAVAILABLE", "message": "chat.history unavailable during gateway suspension",
                                     "details": ["method": "chat.history", "reason": "gateway-suspending", "phase": "prepared"],
                                     "retryable": true, "retryAfterMs": 1000])
        #expect(try client.call(GatewayMethod.health)["ok"] == true)
        signal(sim, SIGUSR2)
        #expect(try eventually { try client.call(GatewayMethod.chatHistory, ["sessionKey": "main"])["ok"] == true })
    }

    @Test func theRestartingFaultRefusesTheFirstRequestsOnly() throws {
        let sim = try SimulatorProcess(["--fault", "restarting:1"])
        let client = try TestGatewayClient.connected(sim)
        #expect(try client.call(GatewayMethod.health)["ok"] == true)  // health is not counted
        let first = try client.call(GatewayMethod.chatHistory, ["sessionKey": "main"])
        #expect(first["error"]?["details"] == ["method": "chat.history", "reason": "gateway-restarting", "phase": "draining"])
        #expect(first["error"]?["retryAfterMs"] == 1000)
        #expect(try client.call(GatewayMethod.chatHistory, ["sessionKey": "main"])["ok"] == true)
    }

    @Test func theClose1013FaultClosesBeforeAnyFrame() throws {
        let sim = try SimulatorProcess(["--fault", "close-1013:1"])
        let first = try TestGatewayClient(url: sim.url, readChallenge: false)
        let (frames, code, reason) = first.readUntilClosed()
        #expect(frames.isEmpty)
        #expect(code == 1013)
        #expect(reason == "gateway suspended")
        #expect((try? TestGatewayClient(sim).handshake(try .device())) != nil)
    }
}
