import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// The fault knobs, ticks and shutdown, observed on the wire.
@Suite(.serialized) struct SimulatorFaultTests {
    /// Connects a raw client and completes the handshake (token-less, fresh device).
    private func rawConnected(_ sim: SimulatorProcess) throws -> RawFrameClient {
        let raw = try RawFrameClient(port: sim.port)
        var controls: [RawFrameClient.Frame] = [], fragments: [RawFrameClient.Frame] = []
        guard let challenge = try raw.nextMessage(controls: &controls, fragments: &fragments),
              let nonce = (try JSONValue.parse(challenge.payload))["payload"]?["nonce"]?.stringValue else {
            throw RawFrameClient.Failure(description: "no challenge")
        }
        let helper = try TestGatewayClient(sim)  // only to build signed params for this nonce
        defer { helper.close() }
        var options = try TestGatewayClient.ConnectOptions.device()
        options.nonce = nonce
        try raw.send(json: ["type": "req", "id": "c1", "method": "connect", "params": try helper.connectParams(options)])
        return raw
    }

    @Test func tickArrivesEveryIntervalWithSeq() throws {
        let sim = try SimulatorProcess(["--tick-ms", "100"])
        let client = try TestGatewayClient.connected(sim)
        let tick = try client.frame { $0["event"]?.stringValue == "tick" }
        #expect(tick.objectValue?.keys == ["type", "event", "payload", "seq"])
        #expect(tick["payload"]?.objectValue?.keys == ["ts"])
        #expect(tick["seq"]?.intValue == 1)
        let next = try client.frame { $0["event"]?.stringValue == "tick" }
        #expect(next["seq"]?.intValue == 2)
    }

    @Test(arguments: [3, 4]) func seqGapSkipsOneNumberEveryNEvents(_ version: Int) throws {
        let sim = try SimulatorProcess(["--protocol", String(version), "--tick-ms", "20", "--fault", "seq-gap:3"])
        let client = try TestGatewayClient.connected(sim)
        var seqs: [Int] = []
        for _ in 0..<6 { seqs.append(try client.frame { $0["event"]?.stringValue == "tick" }["seq"]?.intValue ?? -1) }
        let steps = zip(seqs.dropFirst(), seqs).map { $0 - $1 }
        #expect(steps.contains(2))
        #expect(steps.allSatisfy { $0 == 1 || $0 == 2 })
    }

    @Test func stopTicksSendsNoTicks() throws {
        let sim = try SimulatorProcess(["--tick-ms", "50", "--fault", "stop-ticks"])
        let client = try TestGatewayClient.connected(sim)
        #expect(throws: (any Error).self) { try client.frame(timeout: 0.5) { $0["event"]?.stringValue == "tick" } }
    }

    @Test(arguments: [3, 4]) func shutdownOnSIGTERMSendsEventThenCloses1012(_ version: Int) throws {
        let sim = try SimulatorProcess(["--protocol", String(version), "--restart-ms", "1500"])
        let client = try TestGatewayClient.connected(sim)
        let status = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var exitStatus: Int32 = -1
        DispatchQueue.global().async { exitStatus = sim.stop(); status.signal() }
        let (frames, code, reason) = client.readUntilClosed()
        let shutdown = frames.first { $0["event"]?.stringValue == "shutdown" }
        #expect(shutdown?.objectValue?.keys == ["type", "event", "payload", "seq"])
        #expect(shutdown?["payload"] == ["reason": "gateway stopping", "restartExpectedMs": 1500])
        #expect(code == 1012)
        #expect(reason == "service restart")
        status.wait()
        #expect(exitStatus == 0)
    }

    @Test func shutdownOnSIGINTWithoutRestartMsSendsNull() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        kill(sim.process.processIdentifier, SIGINT)
        let (frames, code, _) = client.readUntilClosed()
        #expect(frames.last?["payload"] == ["reason": "gateway stopping", "restartExpectedMs": nil])
        #expect(code == 1012)
        #expect(sim.waitForExit(timeout: 10) == 0)
    }

    @Test func dropAfterCutsTheConnectionWithoutACloseFrame() throws {
        let sim = try SimulatorProcess(["--fault", "drop-after:2"])
        let raw = try rawConnected(sim)
        var frames: [RawFrameClient.Frame] = []
        while let frame = try raw.nextFrame(timeout: 10) { frames.append(frame) }
        // The challenge (read by rawConnected) and hello-ok, then the end of the stream with no close frame.
        #expect(raw.reachedEnd)
        #expect(frames.count == 1)
        #expect(frames.allSatisfy { $0.opcode != 8 })
        #expect((try? JSONValue.parse(frames[0].payload))?["payload"]?["type"]?.stringValue == "hello-ok")
    }

    @Test func garbageIsNotAWebSocketFrame() throws {
        let sim = try SimulatorProcess(["--fault", "garbage"])
        let client = try TestGatewayClient(sim)
        _ = try client.connect(try .device())
        guard case .failed(.protocolViolation(let code, _)) = client.next() else { Issue.record("expected a protocol failure"); return }
        #expect(code == 1002)
        let raw = try rawConnected(sim)
        _ = try raw.nextFrame()  // hello-ok
        let bytes = try raw.rawBytes(atLeast: 9)
        #expect(Array(bytes.prefix(9)) == [0xff, 0x13, 0x37, 0x00, 0x42, 0xde, 0xad, 0xbe, 0xef])
    }

    @Test func badJSONSendsATextFrameThatIsNotJSON() throws {
        let sim = try SimulatorProcess(["--fault", "bad-json"])
        let client = try TestGatewayClient(sim)
        _ = try client.connect(try .device())
        guard case .frame(let frame, let message) = client.next(), case .text = message else { Issue.record("no text frame"); return }
        #expect(frame == .string("this is not JSON {"))
    }

    @Test func oversizeExceedsMaxPayload() throws {
        let sim = try SimulatorProcess(["--fault", "oversize"], log: false)
        let client = try TestGatewayClient(sim)
        _ = try client.connect(try .device())
        guard case .failed(.protocolViolation(let code, _)) = client.next(timeout: 30) else { Issue.record("expected a 1009 failure"); return }
        #expect(code == 1009)
    }

    @Test func fragmentSplitsMessagesIntoContinuationFramesWithPings() throws {
        let sim = try SimulatorProcess(["--fault", "fragment"])
        let raw = try RawFrameClient(port: sim.port)
        var controls: [RawFrameClient.Frame] = [], fragments: [RawFrameClient.Frame] = []
        let challenge = try raw.nextMessage(controls: &controls, fragments: &fragments)
        #expect((try? JSONValue.parse(challenge?.payload ?? []))?["event"]?.stringValue == "connect.challenge")
        #expect(fragments.map(\.opcode) == [1, 0, 0])
        #expect(fragments.map(\.fin) == [false, false, true])
        #expect(controls.map(\.opcode) == [9])
        // The client library reassembles them.
        let client = try TestGatewayClient(sim)
        #expect(try client.handshake(try .device())["type"]?.stringValue == "hello-ok")
    }

    @Test func binarySendsEveryMessageAsBinary() throws {
        let sim = try SimulatorProcess(["--fault", "binary"])
        let client = try TestGatewayClient(url: sim.url, readChallenge: false)
        guard case .frame(let frame, let message) = client.next(), case .binary = message else { Issue.record("no binary frame"); return }
        #expect(frame["event"]?.stringValue == "connect.challenge")
    }

    @Test func pingFaultPingsAfterHelloAndOnTicks() throws {
        let sim = try SimulatorProcess(["--fault", "ping", "--tick-ms", "200"])
        let raw = try rawConnected(sim)
        var controls: [RawFrameClient.Frame] = [], fragments: [RawFrameClient.Frame] = []
        _ = try raw.nextMessage(controls: &controls, fragments: &fragments)  // hello-ok
        _ = try raw.nextMessage(controls: &controls, fragments: &fragments)  // tick
        #expect(controls.filter { $0.opcode == 9 }.count >= 1)
        // A well-behaved client answers; the connection stays usable.
        let client = try TestGatewayClient.connected(sim)
        _ = try client.frame { $0["event"]?.stringValue == "tick" }
        #expect(try client.call("health")["ok"]?.boolValue == true)
    }

    @Test func blastSendsNPreEncodedDeltasWithIncreasingSeq() throws {
        let sim = try SimulatorProcess(["--blast", "1000", "--blast-bytes", "300"])
        let client = try TestGatewayClient.connected(sim)
        var previous = 0
        for i in 1...1000 {
            let frame = try client.frame()
            #expect(frame["event"]?.stringValue == "chat")
            #expect(frame["seq"]?.intValue == previous + 1)
            previous = frame["seq"]?.intValue ?? previous
            if i == 1 || i == 1000 {
                #expect(frame["payload"]?.objectValue?.keys == ["runId", "sessionKey", "seq", "state", "message", "deltaText"])
                #expect(frame["payload"]?["seq"]?.intValue == i)
                #expect(FrameText.encode(frame).count >= 250 && FrameText.encode(frame).count <= 310)
            }
        }
        #expect(previous == 1000)
        let summary = sim.logEntries().first { $0["blast"] != nil }
        #expect(summary?["blast"]?["count"]?.intValue == 1000)
        #expect(summary?["blast"]?["firstSeq"]?.intValue == 1)
    }

    @Test func logRecordsFramesInAndOut() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim)
        _ = try client.call("health")
        let all = sim.logEntries()
        // The first line is the upgrade request's header names, then the frames.
        #expect(all.first?["dir"]?.stringValue == "upgrade")
        #expect(all.first?["frame"]?.arrayValue?.compactMap(\.stringValue).contains("Sec-WebSocket-Key") == true)
        let entries = all.filter { $0["dir"]?.stringValue != "upgrade" }
        #expect(entries.first?.objectValue?.keys == ["dir", "conn", "frame"])
        #expect(entries.first?["dir"]?.stringValue == "out")
        #expect(entries.first?["conn"]?.intValue == 1)
        #expect(entries.first?["frame"]?["event"]?.stringValue == "connect.challenge")
        #expect(entries.contains { $0["dir"]?.stringValue == "in" && $0["frame"]?["method"]?.stringValue == "connect" })
        #expect(entries.contains { $0["dir"]?.stringValue == "out" && $0["frame"]?["payload"]?["type"]?.stringValue == "hello-ok" })
        #expect(entries.contains { $0["dir"]?.stringValue == "in" && $0["frame"]?["method"]?.stringValue == "health" })
    }

    @Test func slowConsumerIsClosedWith1008() throws {
        let sim = try SimulatorProcess(["--max-buffered-bytes", "200000", "--reply", "lorem:1500", "--delta-ms", "0"], log: false)
        let sleeper = try TestGatewayClient.connected(sim)
        #expect(try sleeper.handshakeless(policyOf: sim) == 200000)
        let params: JSONValue = ["sessionKey": "main", "message": "x", "idempotencyKey": "k1"]
        // Start the run, then poll its idempotency status on short-lived connections until it is done.
        var status = ""
        let deadline = Date().addingTimeInterval(60)
        while status != "ok" && Date() < deadline {
            // A poller may itself be closed as a slow consumer while the run floods it; then poll again.
            guard let poller = try? TestGatewayClient.connected(sim) else { continue }
            status = (try? poller.call("chat.send", params))?["payload"]?["status"]?.stringValue ?? ""
            poller.socket.stream.close()
        }
        #expect(status == "ok")
        // Only now does the sleeper read: its backlog ends in the slow-consumer close, before the run's end.
        let (frames, code, reason) = sleeper.readUntilClosed(timeout: 60)
        #expect(code == 1008)
        #expect(reason == "slow consumer")
        #expect(!frames.contains { $0.isChatEnd })
    }
}
