import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// Commands wait out a gateway that is suspended, restarting (1013) or not listening yet (`--retry-connrefused`).
@Suite struct CLIGatewayRestartTests {
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
        #expect(result.status == 143, "\(result.stderr)")
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
}
