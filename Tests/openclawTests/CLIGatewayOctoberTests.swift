import Foundation
import Testing
import ClawJSON
import ClawProtocol

/// The gateway as of October 2026, end to end: the real binary against the simulator while it is
/// suspended, restarting or not listening yet, with an operator access policy, a keepalive that drops
/// silent clients, the pairing wait, and the new status phases.
@Suite struct CLIGatewayOctoberTests {
    /// Polls `condition` until it holds (an event, not a sleep); false after 30 s.
    func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return false
    }

    func signal(_ sim: SimulatorProcess, _ number: Int32) { kill(sim.process.processIdentifier, number) }

    /// The connects the simulator answered `UNAVAILABLE`.
    func refusedConnects(_ sim: SimulatorProcess) -> [JSONValue] {
        sim.logEntries().filter { $0["dir"]?.stringValue == "out" && $0["frame"]?["error"]?["code"]?.stringValue == "UNAVAILABLE"
            && $0["frame"]?["id"]?.stringValue == "1" }
    }

    func requests(_ sim: SimulatorProcess, _ method: String) -> [JSONValue] {
        sim.logEntries().compactMap { entry in
            guard entry["dir"]?.stringValue == "in", entry["frame"]?["method"]?.stringValue == method else { return nil }
            return entry["frame"]?["params"]
        }
    }

    func lines(_ text: String, containing part: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(part) }
    }

    // MARK: suspended, restarting, starting

    @Test func aScriptStartedWhileTheGatewayIsSuspendedSucceedsOnceItResumes() throws {
        for quiet in [false, true] {
            let gateway = try GatewayFixture(["--suspended"])
            let history = try gateway.cli.start(["history"] + (quiet ? ["-q"] : []))
            #expect(eventually { refusedConnects(gateway.simulator).count >= 1 }, "the script met the suspension")
            signal(gateway.simulator, SIGUSR2)
            let result = history.finish()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.frames.first?["payload"]?["messages"] == [])
            let notes = lines(result.stderr, containing: "trying again in")
            if quiet {
                #expect(result.stderr.isEmpty, "\(result.stderr)")
            } else {
                // One note per wait, each naming the reason.
                #expect(notes.count == refusedConnects(gateway.simulator).count, "\(result.stderr)")
                #expect(notes.allSatisfy { $0 == "openclaw: gateway unavailable: connect unavailable during gateway suspension (gateway-suspending); trying again in 1.0 s" },
                        "\(result.stderr)")
            }
        }
    }

    @Test func aRequestRefusedWhileTheGatewayRestartsIsSentAgainWithTheSameKey() throws {
        let gateway = try GatewayFixture(["--fault", "restarting:1"])
        let result = try gateway.run(["send", "hi", "--idempotency-key", "k-october", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hi\n")
        #expect(lines(result.stderr, containing: "refused for now") == [
            "openclaw: chat.send refused for now (chat.send unavailable during gateway restart, gateway-restarting); sending it again in 1.0 s (retry 1)",
        ])
        #expect(requests(gateway.simulator, "chat.send").compactMap { $0["idempotencyKey"]?.stringValue } == ["k-october", "k-october"])

        let reading = try GatewayFixture(["--fault", "restarting:1"])
        let history = try reading.run(["history", "-q"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stderr.isEmpty)
        #expect(requests(reading.simulator, "chat.history").count == 2)

        // call resends any method the draining gateway turned away (nothing ran), idempotency key or not.
        let calling = try GatewayFixture(["--fault", "restarting:1"])
        let call = try calling.run(["call", "sessions.list", "-q"])
        #expect(call.status == 0, "\(call.stderr)")
        #expect(requests(calling.simulator, "sessions.list").count == 2)
        #expect(call.frames.count == 1 && call.frames.first?["ok"] == true)
    }

    @Test func aConnectClosedWith1013IsTriedAgain() throws {
        let gateway = try GatewayFixture(["--fault", "close-1013:2"])
        let result = try gateway.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        let notes = lines(result.stderr, containing: "trying again in 1.0 s")
        #expect(notes.count == 2, "\(result.stderr)")
        #expect(notes.allSatisfy { $0.contains("1013 gateway suspended") }, "\(result.stderr)")
    }

    @Test func aGatewayThatStaysSuspendedEndsTheCommandWithinTimeout() throws {
        let gateway = try GatewayFixture(["--suspended"])
        let result = try gateway.run(["history", "--timeout", "2.5"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("openclaw: error: gateway unavailable: connect unavailable during gateway suspension (gateway-suspending)\n"),
                "\(result.stderr)")
        #expect(refusedConnects(gateway.simulator).count >= 2)
    }

    @Test func watchWaitsOutARestartQuietly() throws {
        let token = GatewayFixture.token
        let first = try SimulatorProcess(["--token", token, "--tick-ms", "300"])
        let cli = CLIEnvironment(url: first.url, token: token)
        let watch = try cli.start(["watch", "--client-events", "-e", "tick"])
        #expect(watch.waitForStdout(#""event":"connected""#))
        first.stop()  // shutdown, then 1012
        let second = try SimulatorProcess(["--token", token, "--tick-ms", "300", "--suspended"], port: first.port)
        #expect(eventually { refusedConnects(second).count >= 2 })
        signal(second, SIGUSR2)
        #expect(watch.waitForStdout(#""event":"reconnected""#))
        let ticksBefore = watch.stdout.components(separatedBy: #""event":"tick""#).count - 1
        #expect(watch.waitForStdout(#""event":"tick""#, count: ticksBefore + 1), "events flow again")
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let events = result.frames.filter { $0["type"]?.stringValue == "client" }
        let waits = events.filter { $0["event"]?.stringValue == "connect-failed" && $0["code"] == "UNAVAILABLE" }
        #expect(waits.count >= 2)
        #expect(waits.allSatisfy { $0["delayMs"] == 1000 }, "\(waits)")
        // Quiet: the restart's disconnect and the return are reported, the suspended gateway's refusals are not.
        #expect(lines(result.stderr, containing: "1012 service restart").count == 1, "\(result.stderr)")
        #expect(lines(result.stderr, containing: "gateway unavailable").isEmpty, "\(result.stderr)")
        #expect(lines(result.stderr, containing: "reconnected to").count == 1, "\(result.stderr)")
    }

    // MARK: not listening yet

    @Test func retryConnrefusedWaitsForAGatewayThatIsNotListeningYet() throws {
        let token = GatewayFixture.token
        let placeholder = try SimulatorProcess(["--token", token])
        let port = placeholder.port
        placeholder.stop()
        let cli = CLIEnvironment(url: "ws://127.0.0.1:\(port)", token: token)
        let refused = try cli.run(["history"])
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("Connection refused"))
        let tooShort = try cli.run(["history", "--retry-connrefused", "--timeout", "1"])
        #expect(tooShort.status == 3, "\(tooShort.stderr)")

        let history = try cli.start(["history", "--retry-connrefused"])
        let note = "openclaw: nothing is listening at ws://127.0.0.1:\(port) yet; waiting for the gateway to start (--retry-connrefused)"
        #expect(history.waitForStderr(note), "\(history.stderr)")
        let sim = try SimulatorProcess(["--token", token], port: port)
        let result = history.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(result.stderr, containing: "nothing is listening").count == 1, "\(result.stderr)")
        #expect(requests(sim, "chat.history").count == 1)
    }

    // MARK: an operator the access policy grants nothing

    func snapshot(_ directory: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if let data = try? Data(contentsOf: url) { files[url.path] = data }
        }
        return files
    }

    @Test func anOperatorWithoutAccessGetsItsOwnLineAndKeepsItsStoredCredentials() throws {
        let access = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: access) }
        try Data().write(to: access)
        let gateway = try GatewayFixture(["--operator-access-file", access.path])
        // The configured local gateway: its device token is kept in the state directory.
        let cli = CLIEnvironment()
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let config = "{ gateway: { mode: 'local', port: \(gateway.simulator.port), auth: { token: '\(GatewayFixture.token)' } } }\n"
        try Data(config.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        #expect(try cli.run(["history"]).status == 0)
        let before = snapshot(cli.stateDirectory)
        #expect(before.values.contains { $0.range(of: Data("dt_".utf8)) != nil }, "a device token is stored")

        try FileManager.default.removeItem(at: access)
        let denied = try cli.run(["history"])
        #expect(denied.status == 4, "\(denied.stderr)")
        #expect(denied.stdout.isEmpty)
        #expect(denied.stderr == "openclaw: error: access denied: the gateway accepted this device's credentials, but its access policy "
            + "grants it nothing; a gateway administrator must grant access (stored credentials are kept)\n")
        #expect(snapshot(cli.stateDirectory) == before, "nothing in the state directory changed")

        try Data().write(to: access)
        #expect(try cli.run(["history"]).status == 0)
    }

    @Test func watchKeepsAskingAnOperatorWithoutAccessAndGetsInOnceGranted() throws {
        let access = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: access) }
        let gateway = try GatewayFixture(["--operator-access-file", access.path])
        let watch = try gateway.cli.start(["watch", "--client-events", "--backoff-base", "0.05", "--backoff-max", "0.4"])
        #expect(watch.waitForStdout(#""code":"OPERATOR_ACCESS_DENIED""#, count: 3))
        try Data().write(to: access)
        #expect(watch.waitForStdout(#""event":"connected""#))
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let failed = result.frames.filter { $0["event"]?.stringValue == "connect-failed" }
        #expect(failed.count >= 3)
        #expect(failed.allSatisfy { $0["code"] == "OPERATOR_ACCESS_DENIED" })
        let delays = failed.compactMap { $0["delayMs"]?.intValue }
        #expect(delays.count >= 3 && delays[1] > delays[0] && delays[2] > delays[1], "backoff grows: \(delays)")
        #expect(result.stderr.contains("access denied: "), "\(result.stderr)")
    }

    // MARK: keepalive

    func pongs(_ sim: SimulatorProcess) -> Int { sim.logEntries().filter { $0["dir"]?.stringValue == "pong" }.count }
    func dropped(_ sim: SimulatorProcess) -> [JSONValue] { sim.logEntries().filter { $0["dir"]?.stringValue == "dropped" } }

    @Test func anIdleWatchAnswersTheGatewaysPings() throws {
        let gateway = try GatewayFixture(["--ping-ms", "100", "--pong-timeout-ms", "1000"])
        let watch = try gateway.cli.start(["watch"])
        #expect(eventually { pongs(gateway.simulator) >= 5 })
        #expect(dropped(gateway.simulator).isEmpty)
        #expect(watch.process.isRunning)
        watch.send(signal: SIGTERM)
        #expect(watch.finish().status == 0)
    }

    @Test func aStdoutBlockedByASlowReaderDoesNotStopThePongs() throws {
        // Events of about 300 bytes: half a MiB more than the pipe holds (1 MiB once openclaw has enlarged
        // it, 64 KiB where the system refuses), which is less than what openclaw reads ahead (1 MiB).
        let events = (Self.largestPipe() + 512 * 1024) / 300
        let gateway = try GatewayFixture(["--ping-ms", "100", "--pong-timeout-ms", "1000", "--blast", String(events), "--blast-bytes", "300"])
        let watch = try CLIProcess(["watch", "--count", String(events)], environment: gateway.cli.variables, stdoutIsUnreadPipe: true)
        // The pipe is full: every write of openclaw's now waits for the reader.
        #expect(eventually { watch.unreadPipeBytes >= watch.unreadPipeCapacity - 4096 }, "\(watch.unreadPipeBytes)")
        let before = pongs(gateway.simulator)
        #expect(eventually { pongs(gateway.simulator) >= before + 5 }, "pongs while stdout is blocked")
        #expect(watch.unreadPipeBytes >= watch.unreadPipeCapacity - 4096, "nothing read the pipe meanwhile")
        #expect(dropped(gateway.simulator).isEmpty)
        // Then every event arrives, in order.
        let output = watch.readUnreadPipe()
        let result = watch.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let seqs = output.split(separator: "\n").map { (try? JSONValue.parse(Array($0.utf8)))?["seq"]?.intValue ?? -1 }
        #expect(seqs.count == events)
        #expect(seqs == Array(seqs.sorted()) && Set(seqs).count == events && !seqs.contains(-1))
    }

    /// How large openclaw can make a pipe here: 1 MiB, or the default where the user's pipe quota says no.
    static func largestPipe() -> Int {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return 64 * 1024 }
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        return Int(fcntl(fds[1], 1032 /* F_GETPIPE_SZ */))
    }

    @Test(.notUnderQEMU("its pong deadline is sized for native speed; emulated, the handshake alone outlasts it"))
    func sendReadsAStdinThatTakesLongerThanAPongDeadlineBeforeItConnects() throws {
        let gateway = try GatewayFixture(["--ping-ms", "100", "--pong-timeout-ms", "1000"])
        let send = try CLIProcess(["send", "-o", "text"], environment: gateway.cli.variables, stdinIsPipe: true)
        let head = String(repeating: "x", count: 300_000)
        send.write(stdin: head)
        // A client that never answers pings: its drop shows that a pong deadline has passed.
        let silent = try TestGatewayClient(gateway.simulator)
        try silent.handshake(try .device(token: GatewayFixture.token))
        #expect(eventually { dropped(gateway.simulator).count == 1 })
        send.write(stdin: " end")
        send.closeStdin()
        let result = send.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == head + " end\n")
        #expect(dropped(gateway.simulator).count == 1, "only the silent client was dropped")
    }

    // MARK: the pairing wait

    /// A `--require-pairing` gateway with an administrator who holds the pairing scope.
    func pairingGateway(_ extra: [String] = []) throws -> (GatewayFixture, TestGatewayClient) {
        let admin = try TestDevice()
        let gateway = try GatewayFixture(["--require-pairing", "--approve", admin.id] + extra)
        let client = try TestGatewayClient(gateway.simulator)
        var options = TestGatewayClient.ConnectOptions()
        options.device = admin
        options.token = GatewayFixture.token
        options.scopes = ["operator.read", "operator.pairing"]
        try client.handshake(options)
        return (gateway, client)
    }

    /// The pairing refusals the simulator sent to openclaw's connects.
    func pairingRefusals(_ sim: SimulatorProcess) -> [JSONValue] {
        sim.logEntries().compactMap { entry in
            guard entry["dir"]?.stringValue == "out", entry["frame"]?["error"]?["code"]?.stringValue == "NOT_PAIRED" else { return nil }
            return entry["frame"]?["error"]?["details"]
        }
    }

    func connectCaps(_ sim: SimulatorProcess) -> [JSONValue] {
        // openclaw's, not the administrator's (the test client calls itself "test").
        requests(sim, "connect").filter { $0["client"]?["displayName"] != "test" }.map { $0["caps"] ?? .null }
    }

    @Test func waitForPairingAsksAgainUntilApprovedWhenTheGatewayKeepsNoSocketOpen() throws {
        let (gateway, admin) = try pairingGateway()
        let history = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(history.waitForStderr("(--wait-for-pairing)"), "\(history.stderr)")
        let refusal = try #require(pairingRefusals(gateway.simulator).first)
        #expect(refusal["waitForResolution"] == nil)
        let requestId = try #require(refusal["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])
        let result = history.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines(result.stderr, containing: "--wait-for-pairing") == [
            "openclaw: pairing required: this device is not approved yet (not-paired); approve it on the gateway host with: openclaw devices approve \(requestId); waiting for the approval, asking again every few seconds (--wait-for-pairing)",
        ])
        #expect(connectCaps(gateway.simulator).allSatisfy { $0.arrayValue?.contains(.string(ConnectRequest.pairingWaitCapability)) == true })
        #expect(connectCaps(gateway.simulator).count >= 2)
    }

    @Test func waitForPairingWaitsOnTheOpenSocketWhenTheGatewayKeepsIt() throws {
        let (gateway, admin) = try pairingGateway(["--pairing-wait-any-client"])
        let history = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(history.waitForStderr("waiting for the decision (--wait-for-pairing)"), "\(history.stderr)")
        let refusal = try #require(pairingRefusals(gateway.simulator).first)
        #expect(refusal["waitForResolution"] == true)
        let requestId = try #require(refusal["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairApprove, ["requestId": .string(requestId)])
        let result = history.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("openclaw: pairing approved (request \(requestId)); connecting again\n"), "\(result.stderr)")
        #expect(connectCaps(gateway.simulator).count == 2, "one wait, then the paired connect")
    }

    @Test func aRejectedOrExpiredRequestEndsTheWaitWithExit4() throws {
        let (gateway, admin) = try pairingGateway(["--pairing-wait-any-client"])
        let history = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(history.waitForStderr("waiting for the decision"), "\(history.stderr)")
        let requestId = try #require(pairingRefusals(gateway.simulator).first?["requestId"]?.stringValue)
        _ = try admin.call(GatewayMethod.devicePairReject, ["requestId": .string(requestId)])
        let rejected = history.finish()
        #expect(rejected.status == 4, "\(rejected.stderr)")
        #expect(rejected.stderr.hasSuffix("openclaw: error: pairing rejected (request \(requestId)): an administrator declined this device on the gateway host\n"),
                "\(rejected.stderr)")

        let (expiring, _) = try pairingGateway(["--pairing-wait-any-client", "--pairing-ttl-ms", "300"])
        let expired = try expiring.run(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(expired.status == 4, "\(expired.stderr)")
        #expect(expired.stderr.contains("openclaw: error: pairing request expired (request "), "\(expired.stderr)")
        #expect(expired.stderr.hasSuffix(") before anyone approved it: run the command again to ask anew\n"), "\(expired.stderr)")
    }

    @Test func aSupersededRequestEndsTheWaitWithExit4() throws {
        let (gateway, _) = try pairingGateway(["--pairing-wait-any-client"])
        let first = try gateway.cli.start(["history", "--wait-for-pairing", "--timeout", "120"])
        #expect(first.waitForStderr("waiting for the decision"), "\(first.stderr)")
        // The same device (same state directory) asks again for other scopes.
        let second = try gateway.cli.start(["history", "--wait-for-pairing", "--scope", "operator.read", "--timeout", "120"])
        let result = first.finish()
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("openclaw: error: pairing request superseded (request "), "\(result.stderr)")
        second.send(signal: SIGTERM)
        #expect(second.finish().status == 143)
    }

    @Test func theWaitForPairingEndsAtTimeoutWithExit4() throws {
        for extra in [[], ["--pairing-wait-any-client"]] {
            let (gateway, _) = try pairingGateway(extra)
            let result = try gateway.run(["history", "--wait-for-pairing", "--timeout", "1.5"])
            #expect(result.status == 4, "\(extra): \(result.stderr)")
            #expect(result.stderr.contains("openclaw: error: pairing required: this device was still not approved when --timeout 1.5 ran out; approve it on the gateway host with: openclaw devices approve "),
                    "\(extra): \(result.stderr)")
        }
    }

    @Test func withoutTheFlagPairingIsExit4AtOnceAndTheCapabilityIsNotAdvertised() throws {
        let (gateway, _) = try pairingGateway(["--pairing-wait-any-client"])
        let result = try gateway.run(["history"])
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stderr.contains("openclaw devices approve "))
        #expect(connectCaps(gateway.simulator) == [[]])
    }

    // MARK: status phases

    @Test func newAndUnknownStatusPhasesAreProgressNeverAnEnd() throws {
        let script = try ScriptFile([
            ["state": "status", "phase": "waiting_for_state"],
            ["state": "status", "phase": "state_contention"],
            ["state": "status", "phase": "a_phase_from_next_year"],
            ["state": "delta", "deltaText": "Hello", "message": "Hello"],
            ["state": "final", "message": "Hello"],
        ])
        let gateway = try GatewayFixture(["--script", script.path])
        let text = try gateway.run(["send", "-o", "text", "hi"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "Hello\n")
        #expect(text.stderr.isEmpty, "\(text.stderr)")
        let ndjson = try gateway.run(["send", "hi"])
        #expect(ndjson.status == 0, "\(ndjson.stderr)")
        let phases = ndjson.frames.compactMap { $0["payload"]?["phase"]?.stringValue }
        #expect(phases == ["waiting_for_state", "state_contention", "a_phase_from_next_year"])
        #expect(ndjson.frames.last?["payload"]?["state"] == "final")

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            Issue.record("script(1) is not installed (util-linux); .ci/run installs it"); return
        }
        let (status, screen) = try CLIReplyTextTests.underTerminal("send -o text hi", gateway)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("waiting for the session's state…"), "\(screen.debugDescription)")
        #expect(screen.contains("a phase from next year…"), "\(screen.debugDescription)")
        #expect(screen.hasSuffix("Hello\r\n"), "\(screen.debugDescription)")
    }
}
