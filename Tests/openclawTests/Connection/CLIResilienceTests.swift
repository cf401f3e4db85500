import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// Sessions that survive what real gateways and networks do: frames the client does not
/// understand, stop commands, silent links, a starting gateway, flapping connections.
@Suite struct CLIResilienceTests {
    /// A reply with one of every frame kind the client must skip, between ordinary events.
    static let noisyReply: [JSONValue] = [
        ["state": "delta", "deltaText": "Hel", "message": "Hel"],
        ["text": "this is not JSON {"],
        ["frame": [1, 2, 3]],
        ["frame": ["type": "mystery", "runId": "$runId"]],
        ["frame": ["type": "res", "id": "never-sent", "ok": true, "payload": [:]]],
        ["text": "still not JSON"],
        ["state": "final", "message": "Hello"],
    ]

    @Test func framesItDoesNotUnderstandAreSkippedOncePerKindAndCounted() throws {
        let script = try ScriptFile(Self.noisyReply)
        let gateway = try GatewayFixture(["--script", script.path])
        let result = try gateway.run(["send", "-o", "text", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Hello\n")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("skipped a frame") }
        #expect(notes.count == 4, "\(result.stderr)")  // not JSON, not an object, unknown type, unexpected res
        #expect(result.stderr.contains("skipped 5 frame(s) this client does not understand: 2 not JSON"), "\(result.stderr)")
        // -q keeps them all quiet.
        let quiet = try gateway.run(["send", "-q", "-o", "text", "hi"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test func strictMakesThemAnError() throws {
        let script = try ScriptFile(Self.noisyReply)
        let gateway = try GatewayFixture(["--script", script.path])
        let result = try gateway.run(["send", "--strict", "hi"])
        #expect(result.status == 6, "\(result.stderr)")
        #expect(result.stderr.contains("does not understand"))
    }

    @Test func rawStillPrintsUnknownObjectsButNeverNonJSON() throws {
        let script = try ScriptFile(Self.noisyReply)
        let gateway = try GatewayFixture(["--script", script.path])
        let result = try gateway.run(["send", "--raw", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains(#""type":"mystery""#) })
        #expect(lines.contains { $0.contains(#""id":"never-sent""#) })
        #expect(!lines.contains { $0.contains("not JSON") })
        for line in lines { #expect((try? JSONValue.parse(Array(line.utf8)))?.objectValue != nil, "\(line)") }
    }

    @Test func watchCarriesOnPastThemToLaterEvents() throws {
        let script = try ScriptFile(Self.noisyReply)
        let gateway = try GatewayFixture(["--script", script.path])
        let watcher = try gateway.cli.start(["watch", "--until-final", "--client-events", "--timeout", "60"])
        #expect(watcher.waitForStdout(#""event":"connected""#))
        #expect(try gateway.run(["send", "--no-wait", "hi"]).status == 0)
        let result = watcher.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""state":"final""#))
        #expect(!result.stdout.contains(#""event":"reconnected""#) && !result.stdout.contains(#""event":"disconnected""#))
    }

    @Test func historyCompletesPastAMessageThatIsNotJSON() throws {
        let gateway = try GatewayFixture(["--fault", "bad-json"])
        let result = try gateway.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""ok":true"#))
        #expect(result.stderr.contains("skipped a frame this client does not understand (not JSON)"))
    }

    @Test func sendingAStopCommandPrintsTheAbortAckAndExits0() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let running = try gateway.cli.start(["send", "--timeout", "60", "tell me a long story"])
        #expect(running.waitForStdout(#""state":"delta""#))
        let text = try gateway.run(["send", "-o", "text", "--timeout", "60", "/stop"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "aborted 1 run(s)\n")
        #expect(running.finish().status == 1)
        let json = try gateway.run(["send", "--timeout", "60", "stop"])
        #expect(json.status == 0, "\(json.stderr)")
        let ack = try JSONValue.parse(Array(json.stdout.utf8))
        #expect(ack["payload"]?["aborted"]?.boolValue == false)
        #expect(ack["payload"]?["runIds"]?.arrayValue?.isEmpty == true)
    }

    @Test func aSilentGatewayEndsSendWithStatus3AfterTwoTicks() throws {
        // The ack arrives, then nothing: no events, no ticks.
        let script = try ScriptFile([["delayMs": 120_000, "state": "final", "message": "too late"]])
        let gateway = try GatewayFixture(["--script", script.path, "--tick-ms", "300", "--fault", "stop-ticks"])
        let result = try gateway.run(["send", "--timeout", "100", "hi"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("no frame from the gateway for 0.6 s (2 × tickIntervalMs)"), "\(result.stderr)")
    }

    @Test(.notUnderQEMU("its connect limits (0.2 s) are sized for native speed; emulated, a handshake takes longer"))
    func aStartingGatewayIsAskedAgainWithinTheTimeout() throws {
        let gateway = try GatewayFixture(["--fault", "starting:2"])
        let result = try gateway.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "trying again in").count == 3, "\(result.stderr)")
        #expect(result.stderr.contains("(startup-sidecars)"), "\(result.stderr)")
        // Each try has its own --connect-timeout; the waits between them fit in --timeout.
        let patient = try GatewayFixture(["--fault", "starting:2"])
        #expect(try patient.run(["history", "--connect-timeout", "0.2"]).status == 0)
        // Too short a --timeout to wait: exit 3 at once, as before.
        let impatient = try GatewayFixture(["--fault", "starting:1"])
        let refused = try impatient.run(["history", "--timeout", "0.2"])
        #expect(refused.status == 3, "\(refused.stderr)")
    }

    @Test func aGatewayThatDropsEveryConnectionMakesWatchBackOffAndGiveUp() throws {
        let gateway = try GatewayFixture(["--fault", "drop-after:2"])
        let result = try gateway.run(["watch", "--client-events", "--max-retries", "3", "--backoff-base", "0.05",
                                      "--backoff-max", "5", "--timeout", "120"])
        #expect(result.status == 3, "\(result.stderr)")
        let events = result.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
            .filter { $0["type"]?.stringValue == "client" }
        let names = events.compactMap { $0["event"]?.stringValue }
        #expect(names.first == "connected", "\(names)")
        #expect(names.last == "gave-up", "\(names)")
        let connected = try #require(events.first)
        #expect(connected["protocol"]?.intValue == 4)
        #expect(connected["serverVersion"]?.stringValue != nil && connected["connId"]?.stringValue != nil)
        // Each drop came before the link was healthy, so each waited longer than the one before.
        let delays = events.filter { $0["event"]?.stringValue == "disconnected" }.compactMap { $0["delayMs"]?.intValue }
        #expect(delays.count == 3, "\(names)")
        #expect(delays == delays.sorted() && Set(delays).count == delays.count, "\(delays)")
        #expect(delays.allSatisfy { $0 >= 50 }, "jitter never shortens the base: \(delays)")
        #expect(result.stderr.contains("gave up after 3 retries"))
    }

    /// A gateway whose TCP port accepts (the kernel completes the handshake) but never answers the
    /// upgrade, as over a dead link: Ctrl-C ends the connect at once with 130, not at --connect-timeout.
    @Test func aSignalEndsAConnectThatHangs() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(listener >= 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        try #require(bound && listen(listener, 8) == 0)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let history = try CLIEnvironment(url: "ws://127.0.0.1:\(port)", token: "t").start(["history", "--connect-timeout", "120"])
        // The client's connection waits in the backlog: the listening socket turns readable.
        var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entry, 1, 30_000) == 1)
        history.send(signal: SIGINT)
        let result = history.finish(timeout: 60)
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr == "openclaw: error: interrupted while connecting\n", "\(result.stderr)")
    }

    /// The reconnect rule's other half: a connection that carried a frame after hello-ok (here the answer
    /// to its subscription, then cut as a proxy cuts an idle tunnel) was healthy, so every reconnect
    /// waits the first attempt's delay again and `--max-retries` is never reached.
    @Test func aHealthyConnectionResetsTheBackoff() throws {
        let gateway = try GatewayFixture(["--fault", "drop-after:3"])
        let watch = try gateway.cli.start(["watch", "--sessions", "--client-events", "--max-retries", "1",
                                           "--backoff-base", "0.05", "--backoff-max", "5"])
        #expect(watch.waitForStdout("\"event\":\"reconnected\"", count: 4, timeout: 60))
        watch.send(signal: SIGINT)
        let result = watch.finish(timeout: 20)
        let events = result.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
            .filter { $0["type"]?.stringValue == "client" }
        let delays = events.filter { $0["event"]?.stringValue == "disconnected" }.compactMap { $0["delayMs"]?.intValue }
        #expect(delays.count >= 4, "\(result.stdout)")
        // The first attempt's delay: the base plus at most a quarter of jitter.
        #expect(delays.allSatisfy { $0 >= 50 && $0 <= 62 }, "\(delays)")
        #expect(!result.stdout.contains("gave-up"), "\(result.stdout)")
    }

    @Test(.notUnderQEMU("its connect limits (0.2 s) are sized for native speed; emulated, a handshake takes longer"))
    func connectFailuresCarryTheirCodeAndMessage() throws {
        let failing = try GatewayFixture(["--fault", "starting:2", "--tick-ms", "200"])
        let watched = try failing.run(["watch", "--client-events", "--count", "1", "-e", "tick",
                                       "--connect-timeout", "0.2", "--timeout", "60"])
        #expect(watched.status == 0, "\(watched.stderr)")
        let failures = watched.stdout.split(separator: "\n").compactMap { try? JSONValue.parse(Array($0.utf8)) }
            .filter { $0["event"]?.stringValue == "connect-failed" }
        #expect(failures.count == 2, "\(watched.stdout)")
        #expect(failures.first?["code"]?.stringValue == "UNAVAILABLE")
        #expect(failures.first?["message"]?.stringValue?.contains("gateway starting") == true)
        // The gateway's retryAfterMs (500) is the delay, not the 1 s backoff base.
        #expect(failures.first?["delayMs"]?.intValue == 500, "\(failures)")
    }

    @Test func agentEventsAdvertiseToolEventsAndAStoredDeviceTokenIsAlsoSentAsSuch() throws {
        let gateway = try GatewayFixture()
        #expect(try gateway.run(["send", "--agent-events", "hi"]).status == 0)
        let connects = gateway.simulator.logEntries().filter { $0["frame"]?["method"]?.stringValue == "connect" }
        #expect(connects.last?["frame"]?["params"]?["caps"] == ["tool-events"])

        // A configured gateway: its device token is stored, then sent as auth.token and auth.deviceToken.
        let cli = CLIEnvironment()
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let config = "{ gateway: { mode: 'local', port: \(gateway.simulator.port), auth: { token: '\(GatewayFixture.token)' } } }\n"
        try Data(config.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        #expect(try cli.run(["history"]).status == 0)
        try Data("{ gateway: { mode: 'local', port: \(gateway.simulator.port) } }\n".utf8)
            .write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        #expect(try cli.run(["history"]).status == 0)
        let last = gateway.simulator.logEntries().filter { $0["frame"]?["method"]?.stringValue == "connect" }.last
        let auth = last?["frame"]?["params"]?["auth"]
        #expect(auth?["deviceToken"]?.stringValue != nil)
        #expect(auth?["deviceToken"] == auth?["token"])
    }
}
