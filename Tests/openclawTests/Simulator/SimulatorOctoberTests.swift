import Foundation
import Testing
import ClawJSON
import ClawProtocol

/// The gateway as of October 2026 in the simulator: suspension and restart admission, the 1013
/// close, the keepalive that drops silent clients, the operator access policy and the pairing wait.
@Suite(.serialized) struct SimulatorOctoberTests {
    /// Polls `condition` until it holds (an event, not a sleep); false after 20 s.
    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return false
    }

    func signal(_ sim: SimulatorProcess, _ number: Int32) { kill(sim.process.processIdentifier, number) }

    // MARK: suspension and restart

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

    // MARK: keepalive

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

    func keepAliveLines(_ sim: SimulatorProcess, _ direction: String) -> [JSONValue] {
        sim.logEntries().filter { $0["dir"]?.stringValue == direction }
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

    // MARK: the operator access policy

    @Test func theAccessPolicyRefusesOperatorsUntilTheFileExists() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let sim = try SimulatorProcess(["--token", "t", "--operator-access-file", file.path])
        let refused = try HandshakeRejection.probe(sim, try .device(token: "t"))
        #expect(refused.error == ["code": "FORBIDDEN",
                                  "message": "Gateway access is no longer active; ask a Gateway administrator to restore it.",
                                  "details": ["code": "OPERATOR_ACCESS_DENIED"]])
        #expect(refused.code == 1008)
        #expect(refused.reason == "Gateway access is no longer active; ask a Gateway administrator to restore it.")
        try Data().write(to: file)
        #expect((try? TestGatewayClient(sim).handshake(try .device(token: "t"))) != nil)
    }

    // MARK: the pairing wait

    /// An admin with the pairing scope, pre-approved on a `--require-pairing` gateway.
    func pairingGateway(_ extra: [String] = []) throws -> (SimulatorProcess, TestGatewayClient) {
        let admin = try TestDevice()
        let sim = try SimulatorProcess(["--require-pairing", "--approve", admin.id] + extra)
        let client = try TestGatewayClient(sim)
        var options = TestGatewayClient.ConnectOptions()
        options.device = admin
        options.scopes = ["operator.read", "operator.pairing"]
        try client.handshake(options)
        return (sim, client)
    }

    func waiting(_ device: TestDevice, clientId: String = "openclaw-control-ui", scopes: [String] = ["operator.read"]) -> TestGatewayClient.ConnectOptions {
        var options = TestGatewayClient.ConnectOptions()
        options.device = device
        options.clientId = clientId
        options.clientMode = clientId == "cli" ? "cli" : "webchat"
        options.scopes = scopes
        options.caps = [ConnectRequest.pairingWaitCapability]
        return options
    }

    @Test func aControlUIWaitsOnTheOpenSocketForTheApproval() throws {
        let (sim, admin) = try pairingGateway()
        let device = try TestDevice()
        let waiter = try TestGatewayClient(sim)
        let refusal = try waiter.connect(waiting(device))
        let details = try #require(refusal["error"]?["details"])
        #expect(refusal["error"]?["code"] == "NOT_PAIRED")
        #expect(details["waitForResolution"] == true)
        let requestId = try #require(details["requestId"]?.stringValue)

        let (approved, before) = try admin.callCollecting(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])
        // Pairing-scope holders hear the decision too.
        #expect(before.contains { $0["event"]?.stringValue == GatewayEventName.devicePairResolved && $0["payload"]?["decision"] == "approved" })
        #expect(approved["payload"]?["requestId"]?.stringValue == requestId)
        #expect(approved["payload"]?["device"]?["deviceId"]?.stringValue == device.id)
        let (frames, code, _) = waiter.readUntilClosed()
        #expect(frames.map { $0["event"] } == [.string(GatewayEventName.devicePairResolved)])
        #expect(frames.first?["payload"]?["decision"] == "approved")
        #expect(frames.first?["payload"]?["requestId"]?.stringValue == requestId)
        #expect(code == 1000)
        // Paired now: the next connect is let in.
        #expect((try? TestGatewayClient(sim).handshake(waiting(device))) != nil)
    }

    @Test func theCLIClientIdIsAnsweredAsBeforeUnlessEveryClientIsHonoured() throws {
        let (sim, _) = try pairingGateway()
        let refused = try HandshakeRejection.probe(sim, waiting(try TestDevice(), clientId: "cli"))
        #expect(refused.details?["code"] == "PAIRING_REQUIRED")
        #expect(refused.details?["waitForResolution"] == nil)
        #expect(refused.code == 1008)

        let (everyone, _) = try pairingGateway(["--pairing-wait-any-client"])
        let waiter = try TestGatewayClient(everyone)
        #expect(try waiter.connect(waiting(try TestDevice(), clientId: "cli"))["error"]?["details"]?["waitForResolution"] == true)
    }

    @Test func rejectedExpiredAndSupersededDecisionsReachTheWaiters() throws {
        let (sim, admin) = try pairingGateway(["--pairing-ttl-ms", "60000"])
        let rejectedDevice = try TestDevice()
        let rejected = try TestGatewayClient(sim)
        let requestId = try #require(try rejected.connect(waiting(rejectedDevice))["error"]?["details"]?["requestId"]?.stringValue)
        let answer = try admin.call(GatewayMethod.devicePairReject, ["requestId": .string(requestId)])
        #expect(answer["payload"] == ["requestId": .string(requestId), "deviceId": .string(rejectedDevice.id)])
        #expect(rejected.readUntilClosed().frames.first?["payload"]?["decision"] == "rejected")
        #expect(try admin.call(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])["error"]?["message"] == "unknown requestId")

        // Another request of the same device for other scopes replaces the first.
        let device = try TestDevice()
        let first = try TestGatewayClient(sim)
        let firstId = try first.connect(waiting(device, scopes: ["operator.read"]))["error"]?["details"]?["requestId"]?.stringValue
        let second = try TestGatewayClient(sim)
        let secondId = try second.connect(waiting(device, scopes: ["operator.read", "operator.write"]))["error"]?["details"]?["requestId"]?.stringValue
        #expect(firstId != nil && secondId != nil && firstId != secondId)
        #expect(first.readUntilClosed().frames.first?["payload"]?["decision"] == "superseded")
        second.close()

        let (expiring, _) = try pairingGateway(["--pairing-ttl-ms", "200"])
        let late = try TestGatewayClient(expiring)
        _ = try late.connect(waiting(try TestDevice()))
        #expect(late.readUntilClosed().frames.first?["payload"]?["decision"] == "expired")
    }

    @Test func aRequestWhileWaitingEndsTheWaitWith1008() throws {
        let (sim, _) = try pairingGateway()
        let waiter = try TestGatewayClient(sim)
        _ = try waiter.connect(waiting(try TestDevice()))
        try waiter.request(GatewayMethod.health)
        let (frames, code, _) = waiter.readUntilClosed()
        #expect(frames.isEmpty)
        #expect(code == 1008)
    }

    // MARK: schema

    @Test func anOctoberSessionConformsToTheSchema() throws {
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
}
