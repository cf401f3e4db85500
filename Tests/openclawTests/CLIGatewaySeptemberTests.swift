import Foundation
import Testing
import ClawJSON

/// The gateway as of September 2026, end to end against the simulator: paging, the write rate
/// limit, scope errors, provider detail, attachment limits, queue modes and subscriptions.
@Suite struct CLIGatewaySeptemberTests {
    /// Waits until the simulator has received `count` requests for `method` (an event, not a sleep).
    func waitForRequests(_ simulator: SimulatorProcess, _ method: String, count: Int = 1) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let seen = simulator.logEntries().filter {
                $0["dir"]?.stringValue == "in" && $0["frame"]?["method"]?.stringValue == method
            }
            if seen.count >= count { return true }
            usleep(20_000)
        }
        return false
    }

    func requests(_ gateway: GatewayFixture, _ method: String) -> [JSONValue] {
        gateway.simulator.logEntries().compactMap { entry in
            guard entry["dir"]?.stringValue == "in", entry["frame"]?["method"]?.stringValue == method else { return nil }
            return entry["frame"]?["params"]
        }
    }

    // MARK: history --all

    @Test func historyAllExportsEveryPageOldestFirst() throws {
        let gateway = try GatewayFixture(["--history-fixture", "2500:16"])
        let result = try gateway.run(["history", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        let pages = result.frames
        #expect(pages.count == 3)
        let messages = pages.flatMap { $0["payload"]?["messages"]?.arrayValue ?? [] }
        #expect(messages.count == 2500)
        let stamps = messages.compactMap { $0["timestamp"]?.intValue }
        #expect(stamps.count == 2500 && zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 }, "not oldest first")
        let asked = requests(gateway, "chat.history")
        #expect(asked.map { $0["offset"]?.intValue } == [0, 1000, 2000])
        #expect(asked.allSatisfy { ($0["limit"]?.intValue ?? 0) <= 1000 })
    }

    @Test func historyAllInTextIsEveryMessageOnceWithThePageSizeFromLimit() throws {
        let gateway = try GatewayFixture(["--history-fixture", "1501:12"])
        let result = try gateway.run(["history", "--all", "--limit", "500", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 1501)
        #expect(result.lines.first?.hasPrefix("user: ") == true && result.lines.last?.hasPrefix("user: ") == true)
        #expect(requests(gateway, "chat.history").map { $0["limit"]?.intValue } == [500, 500, 500, 500])
    }

    // MARK: the write rate limit

    @Test func sendWaitsAndResendsTheSameKeyWhenTheGatewayAsks() throws {
        let gateway = try GatewayFixture(["--write-rate-limit", "1", "--write-rate-window-ms", "1500"])
        #expect(try gateway.run(["send", "first", "--idempotency-key", "k-first"]).status == 0)
        let result = try gateway.run(["send", "second", "--idempotency-key", "k-second", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "second\n")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("chat.send refused for now") }
        #expect(notes.count == 1, "\(result.stderr)")
        let keys = requests(gateway, "chat.send").compactMap { $0["idempotencyKey"]?.stringValue }
        #expect(keys == ["k-first", "k-second", "k-second"])
    }

    @Test func aRetryThatWouldPassTheTimeoutIsNotWaitedFor() throws {
        let gateway = try GatewayFixture(["--write-rate-limit", "1"])
        #expect(try gateway.run(["send", "first"]).status == 0)
        let result = try gateway.run(["send", "second", "--timeout", "5", "-q"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("UNAVAILABLE"), "\(result.stderr)")
        #expect(!result.stderr.contains("refused for now"))
        #expect(requests(gateway, "chat.send").count == 2)
    }

    // MARK: scopes, provider detail, attachments, queue modes

    @Test func aMissingScopeIsExit4NamingTheScopeAndTheWaysOut() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["call", "nosuch.method"])
        #expect(result.status == 4)
        #expect(result.stderr.contains("needs the operator.admin scope"), "\(result.stderr)")
        #expect(result.stderr.contains("--scope operator.admin") && result.stderr.contains("approve the scope upgrade"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func aProviderFailureNamesProviderModelAndHTTPStatus() throws {
        let gateway = try GatewayFixture(["--reply", "error"])
        let result = try gateway.run(["send", "hi", "-o", "text"])
        #expect(result.status == 1)
        let line = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(line.contains("failed:") && line.contains("provider ") && line.contains("model ") && line.contains("HTTP "), "\(result.stderr)")
    }

    @Test func anAttachmentOverThePolicyLimitIsRefusedBeforeAnythingIsSent() throws {
        let gateway = try GatewayFixture(["--attachment-max-bytes", "1000"])
        let file = gateway.cli.home.appendingPathComponent("notes.txt")
        try Data(repeating: 0x61, count: 2000).write(to: file)
        let result = try gateway.run(["send", "see attached", "--attach", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(file.path) && result.stderr.contains("2000 bytes") && result.stderr.contains("1000 bytes"), "\(result.stderr)")
        #expect(requests(gateway, "chat.send").isEmpty)
        let small = gateway.cli.home.appendingPathComponent("small.txt")
        try Data(repeating: 0x62, count: 500).write(to: small)
        #expect(try gateway.run(["send", "see attached", "--attach", small.path]).status == 0)
    }

    @Test func queueModeIsSentAndAnInterruptIsNoted() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        #expect(try gateway.run(["send", "x", "--queue-mode", "sideways"]).status == 2)
        let first = try gateway.cli.start(["send", "long one"])
        #expect(waitForRequests(gateway.simulator, "chat.send"))
        #expect(first.waitForStdout("\"status\":\"started\""))
        let second = try gateway.run(["send", "now this", "--queue-mode", "interrupt", "-o", "text", "--no-wait"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("interrupted the session's active run"), "\(second.stderr)")
        #expect(requests(gateway, "chat.send").last?["queueMode"]?.stringValue == "interrupt")
        #expect(first.finish().status == 1)
    }

    // MARK: subscriptions

    @Test func watchSessionsAndMessagesSubscribeAndPrintTheEvents() throws {
        let gateway = try GatewayFixture()
        let watch = try gateway.cli.start(["watch", "--sessions", "--messages", "--event", "sessions.changed",
                                           "--event", "session.message"])
        #expect(waitForRequests(gateway.simulator, "sessions.messages.subscribe"))
        #expect(requests(gateway, "sessions.messages.subscribe").first?["key"]?.stringValue == "main")
        #expect(try gateway.run(["send", "hello subscribers"]).status == 0)
        #expect(watch.waitForStdout("\"event\":\"session.message\""))
        #expect(watch.waitForStdout("\"event\":\"sessions.changed\""))
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        #expect(result.status == 0)
        #expect(result.frames.allSatisfy { ["sessions.changed", "session.message"].contains($0["event"]?.stringValue ?? "") })
        #expect(!result.stderr.contains("sequence gap"), "\(result.stderr)")
    }

    @Test func subscriptionsAreMadeAgainAfterAReconnect() throws {
        let first = try SimulatorProcess(["--token", GatewayFixture.token])
        let cli = CLIEnvironment(url: first.url, token: GatewayFixture.token)
        let watch = try cli.start(["watch", "--messages", "--event", "session.message"] + CLIWatchTests.fastReconnect)
        #expect(waitForRequests(first, "sessions.messages.subscribe"))
        first.kill()
        #expect(watch.waitForStderr("reconnecting"))
        let second = try SimulatorProcess(["--token", GatewayFixture.token], port: first.port)
        #expect(waitForRequests(second, "sessions.messages.subscribe"))
        #expect(try cli.run(["send", "after the restart"]).status == 0)
        #expect(watch.waitForStdout("after the restart"))
        watch.send(signal: SIGTERM)
        #expect(watch.finish().status == 0)
    }
}
