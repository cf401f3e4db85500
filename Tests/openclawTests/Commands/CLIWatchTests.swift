import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// `openclaw watch` against a simulator that restarts, shuts down, goes silent and floods, and its
/// `--sessions`/`--messages` subscriptions, made again after a reconnect.
@Suite struct CLIWatchTests {
    static let fastReconnect = ["--backoff-base", "0.05", "--backoff-max", "0.2", "--client-events"]

    @Test func reconnectsAfterTheGatewayIsKilledAndRestarted() throws {
        let first = try SimulatorProcess(["--token", GatewayFixture.token, "--reply", "echo"])
        let cli = CLIEnvironment(url: first.url, token: GatewayFixture.token)
        let watch = try cli.start(["watch", "--event", "chat"] + Self.fastReconnect)
        try waitUntilConnected(first)
        #expect(try cli.run(["send", "before"]).status == 0)
        // Each run's final, not just its text (the deltas carry the text too, and a signal between
        // the last delta and the final would end the watch before the final is printed).
        #expect(watch.waitForStdout("\"text\":\"before\"}],\"timestamp\""))
        #expect(watch.waitForStdout("\"state\":\"final\"", count: 1))
        first.kill()
        #expect(watch.waitForStderr("reconnecting"))
        let second = try SimulatorProcess(["--token", GatewayFixture.token, "--reply", "echo"], port: first.port)
        #expect(watch.waitForStderr("reconnected"))
        #expect(try cli.run(["send", "after"]).status == 0)
        #expect(watch.waitForStdout("\"text\":\"after\"}],\"timestamp\""))
        #expect(watch.waitForStdout("\"state\":\"final\"", count: 2))
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        #expect(result.status == 143)
        let frames = result.frames
        #expect(frames.contains { $0["type"]?.stringValue == "client" && $0["event"]?.stringValue == "reconnected" })
        let finals = frames.filter { $0["payload"]?["state"]?.stringValue == "final" }.map { TextOf.final([$0]) }
        #expect(finals == ["before", "after"])
        _ = second
    }

    @Test func honoursShutdownRestartExpectedMs() throws {
        let first = try SimulatorProcess(["--token", GatewayFixture.token, "--restart-ms", "300"])
        let cli = CLIEnvironment(url: first.url, token: GatewayFixture.token)
        let watch = try cli.start(["watch"] + Self.fastReconnect)
        try waitUntilConnected(first)
        first.stop()
        #expect(watch.waitForStderr("reconnecting"))
        let second = try SimulatorProcess(["--token", GatewayFixture.token], port: first.port)
        #expect(watch.waitForStderr("reconnected"))
        watch.send(signal: SIGINT)
        let result = watch.finish()
        #expect(result.status == 130)
        let shutdown = result.frames.first { $0["event"]?.stringValue == "shutdown" }
        #expect(shutdown?["payload"]?["restartExpectedMs"]?.intValue == 300)
        let disconnected = result.frames.first { $0["event"]?.stringValue == "disconnected" }
        #expect(disconnected?["delayMs"]?.intValue == 300)
        _ = second
    }

    @Test func watchdogDropsASilentLinkAndReconnects() throws {
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--tick-ms", "100", "--fault", "stop-ticks"])
        let cli = CLIEnvironment(url: simulator.url, token: GatewayFixture.token)
        let watch = try cli.start(["watch"] + Self.fastReconnect)
        #expect(watch.waitForStderr("2 × tickIntervalMs"))
        #expect(watch.waitForStderr("reconnected"))
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        #expect(result.status == 143)
        let reason = result.frames.first { $0["event"]?.stringValue == "disconnected" }?["reason"]?.stringValue
        #expect(reason?.contains("no frame from the gateway for 0.2 s") == true)
    }

    @Test func authFailureExitsWithoutRetrying() throws {
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        let result = try CLIEnvironment(url: simulator.url, token: "wrong").run(["watch"] + Self.fastReconnect, timeout: 30)
        #expect(result.status == 4)
        #expect(result.stderr.split(separator: "\n").count == 1)
        let connects = simulator.logEntries().filter { $0["frame"]?["method"]?.stringValue == "connect" }
        #expect(connects.count == 1)
    }

    @Test func noReconnectExitsThreeWhenTheLinkDrops() throws {
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token])
        let cli = CLIEnvironment(url: simulator.url, token: GatewayFixture.token)
        let watch = try cli.start(["watch", "--no-reconnect"])
        try waitUntilConnected(simulator)
        simulator.kill()
        let result = watch.finish()
        #expect(result.status == 3)
    }

    @Test func maxRetriesGivesUp() throws {
        let simulator = try SimulatorProcess([], log: false)
        let url = simulator.url
        simulator.kill()
        let result = try CLIEnvironment(url: url, token: "t").run(["watch", "--max-retries", "2", "--backoff-base", "0.01"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("gave up after 2 retries"))
    }

    /// The gateway's numbering skips one event in three (a lost event): protocol 4 numbers each
    /// connection's events, so watch says so; protocol 3 numbers broadcasts globally, so it does not.
    @Test(arguments: [4, 3]) func aSkipInTheEventNumbersIsReportedOnProtocolFour(_ version: Int) throws {
        let gateway = try GatewayFixture(["--protocol", String(version), "--tick-ms", "20", "--fault", "seq-gap:3"])
        let result = try gateway.run(["watch", "--event", "tick", "--count", "6"])
        #expect(result.status == 0 && result.lines.count == 6)
        #expect(result.stderr.contains("sequence gap") == (version == 4), "\(result.stderr)")
    }

    @Test func filtersCountAndUntilFinal() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:3"])
        let chatOnly = try gateway.cli.start(["watch", "--event", "chat", "--until-final"])
        let agentOnly = try gateway.cli.start(["watch", "-e", "agent", "--count", "2"])
        let otherSession = try gateway.cli.start(["watch", "--session", "agent:main:other", "--count", "1"])
        let mainAlias = try gateway.cli.start(["watch", "--session", "agent:main:main", "--run", "filter-run", "--count", "1"])
        try waitUntilConnected(gateway.simulator, connections: 4)
        #expect(try gateway.run(["send", "--idempotency-key", "filter-run", "x"]).status == 0)

        let chat = chatOnly.finish(timeout: 30)
        #expect(chat.status == 0)
        #expect(chat.frames.allSatisfy { $0["event"]?.stringValue == "chat" })
        #expect(chat.frames.last?["payload"]?["state"]?.stringValue == "final")

        let agent = agentOnly.finish(timeout: 30)
        #expect(agent.status == 0 && agent.lines.count == 2)
        #expect(agent.frames.allSatisfy { $0["event"]?.stringValue == "agent" })

        let aliased = mainAlias.finish(timeout: 30)
        #expect(aliased.status == 0 && aliased.lines.count == 1)
        #expect(aliased.frames[0]["payload"]?["runId"]?.stringValue == "filter-run")

        #expect(otherSession.process.isRunning)
        #expect(otherSession.stdout.isEmpty)
    }

    @Test func resyncPrintsHistoryAfterEachReconnect() throws {
        let first = try SimulatorProcess(["--token", GatewayFixture.token, "--history-fixture", "2:10"])
        let cli = CLIEnvironment(url: first.url, token: GatewayFixture.token)
        let watch = try cli.start(["watch", "--resync", "--event", "none"] + Self.fastReconnect)
        try waitUntilConnected(first)
        first.kill()
        let second = try SimulatorProcess(["--token", GatewayFixture.token, "--history-fixture", "2:10"], port: first.port)
        #expect(watch.waitForStderr("reconnected"))
        #expect(watch.waitForStdout(#""type":"res""#))
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        let history = result.frames.first { $0["type"]?.stringValue == "res" }
        #expect(history?["payload"]?["messages"]?.arrayValue?.count == 2)
        _ = second
    }

    @Test func sigtermLeavesOnlyCompleteLines() throws {
        let gateway = try GatewayFixture(["--blast", "2000000", "--blast-bytes", "300"])
        let watch = try gateway.cli.start(["watch"])
        #expect(watch.waitForLines(1000))
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        #expect(result.status == 143)
        #expect(result.stdout.hasSuffix("\n"))
        let lines = result.lines
        #expect(lines.count >= 1000)
        #expect(lines.allSatisfy { (try? JSONValue.parse($0)) != nil })
    }

    @Test func aStalledReaderDoesNotGrowMemory() throws {
        let gateway = try GatewayFixture(["--blast", "2000000", "--blast-bytes", "300"])
        let watch = try CLIProcess(["watch"], environment: gateway.cli.variables, stdinIsPipe: false, stdoutIsUnreadPipe: true)
        // Let the gateway flood a reader whose pipe is full for a while.
        var samples: [Int] = []
        for _ in 0..<6 {
            Thread.sleep(forTimeInterval: 0.5)
            samples.append(residentKilobytes(watch.process.processIdentifier))
        }
        #expect(watch.process.isRunning)
        #expect(samples.allSatisfy { $0 > 0 && $0 < 48 * 1024 }, "RSS samples (KiB): \(samples)")
        #expect(samples.last! - samples[1] < 4 * 1024, "RSS samples (KiB): \(samples)")
    }

    @Test(.notUnderQEMU("its peak RSS, read by /usr/bin/time, would be the emulator's, not the program's"))
    func aMillionEventBlastKeepsMemoryFlat() throws {
        func peak(_ events: Int) throws -> (kilobytes: Int, lines: Int) {
            let gateway = try GatewayFixture(["--blast", String(events), "--blast-bytes", "300"])
            let output = gateway.cli.home.appendingPathComponent("peak.txt")
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
                throw SupportError("/usr/bin/time is not installed (Debian package time): make test installs it")
            }
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            shell.arguments = ["-f", "%M", "-o", output.path, BuiltProducts.executable("openclaw").path,
                               "watch", "--count", String(events)]
            shell.environment = gateway.cli.variables
            let counter = Pipe()
            shell.standardOutput = counter
            try shell.run()
            var lines = 0
            let handle = counter.fileHandleForReading
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                lines += data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
            let text = try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return (Int(text.split(separator: "\n").last ?? "") ?? -1, lines)
        }
        let small = try peak(10_000)
        let large = try peak(1_000_000)
        #expect(small.lines == 10_000 && large.lines == 1_000_000)
        #expect(large.kilobytes > 0 && large.kilobytes < 32 * 1024, "peak RSS \(large.kilobytes) KiB")
        #expect(large.kilobytes - small.kilobytes < 4 * 1024, "10k events: \(small.kilobytes) KiB, 1M: \(large.kilobytes) KiB")
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
        #expect(result.status == 143)
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
        #expect(watch.finish().status == 143)
    }

    private func residentKilobytes(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return -1 }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return Int(line?.split(separator: " ").dropFirst().first ?? "") ?? -1
    }
}
