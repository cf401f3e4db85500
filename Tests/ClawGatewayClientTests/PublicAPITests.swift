import Testing
import ClawGatewayClient
import ClawGatewayTesting

// The library as its users meet it: only the public products, no @testable. The suites run one at a
// time because they count the library's I/O threads of this process.
@Suite(.serialized) struct ClientLibraryTests {

    @Suite struct Handshakes {
        @Test func connectsAnswersARequestAndCloses() async throws {
            let fixture = try GatewayFixture()
            let payload = try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                #expect(gateway.hello.protocolVersion == 4)
                #expect(gateway.isOpen)
                return try await gateway.request("health")
            }
            #expect(payload["ok"]?.boolValue == true || payload.objectValue != nil)
            let connect = fixture.requests("connect").first
            #expect(connect?["params"]?["client"]?["id"]?.stringValue == "gateway-client")
            #expect(connect?["params"]?["client"]?["mode"]?.stringValue == "backend")
            #expect(await eventually { fixture.gateway.connectionCount == 0 && ioThreadCount() == 0 })
        }

        @Test func speaksProtocolThree() async throws {
            let fixture = try GatewayFixture(["--protocol", "3"])
            let version = try await GatewayConnection.withConnection(fixture.configuration) { $0.hello.protocolVersion }
            #expect(version == 3)
        }

        @Test func aWrongTokenIsRefusedForGoodWithoutShowingIt() async throws {
            let fixture = try GatewayFixture()
            var configuration = fixture.configuration
            configuration.token = Secret("not-the-token-7f3a")
            await #expect {
                try await GatewayConnection.withConnection(configuration) { _ in }
            } throws: { error in
                guard let error = error as? GatewayClientError, error.code == .authenticationFailed,
                      error.authenticationProblem == .tokenRefused else { return false }
                return !error.isRetryable && !error.description.isEmpty
                    && !error.description.contains("not-the-token-7f3a") && !"\(configuration)".contains("not-the-token-7f3a")
            }
            #expect(ioThreadCount() == 0)
        }

        @Test func aDeviceIdentitySignsTheConnect() async throws {
            let fixture = try GatewayFixture()
            var configuration = fixture.configuration
            configuration.deviceIdentity = .ephemeral
            try await GatewayConnection.withConnection(configuration) { _ in }
            let device = fixture.requests("connect").first?["params"]?["device"]
            #expect(device?["signature"]?.stringValue?.isEmpty == false)
        }

        @Test func aURLThatIsNotAWebSocketURLIsAConfigurationError() async throws {
            await #expect {
                try await GatewayConnection.withConnection(GatewayConfiguration(url: "http://example.com")) { _ in }
            } throws: { error in
                guard let error = error as? GatewayClientError else { return false }
                return error.code == .invalidConfiguration && error.configurationProblem == .invalidURL
                    && error.description == #"invalid gateway URL "http://example.com": expected ws://host[:port][/path] or wss://…"#
            }
        }
    }

    @Suite struct Streaming {
        @Test func aReplyGrowsInOrderAndEndsFinal() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:300", "--delta-ms", "0"])
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let run = try await gateway.send("tell me a story")
                var previous = ""
                var updates = 0
                var final: ChatUpdate?
                for try await update in run {
                    updates += 1
                    if let appended = update.appended { #expect(update.text == previous + appended) }
                    #expect(final == nil, "nothing after the final update")
                    if update.isFinal { final = update }
                    previous = update.text
                }
                #expect(updates >= 1, "a reader slower than the gateway gets merged updates: as few as one")
                #expect(final?.text.split(separator: " ").count == 300)
                let sent = fixture.requests("chat.send").first
                #expect(sent?["params"]?["idempotencyKey"]?.stringValue == run.runId)
            }
        }

        @Test func replyReturnsTheFinalTextAndHistoryHasIt() async throws {
            let fixture = try GatewayFixture()
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let reply = try await gateway.send("ping pong").reply()
                #expect(reply.contains("ping pong"))
                let history = try await gateway.history()
                #expect(history.count >= 2)
            }
        }

        @Test func aFailedRunThrowsRunFailed() async throws {
            let fixture = try GatewayFixture(["--reply", "error"])
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                await #expect {
                    _ = try await gateway.send("fail please").reply()
                } throws: { error in
                    guard let error = error as? GatewayClientError, error.code == .runFailed else { return false }
                    return error.runState == "error" && error.runId != nil && !error.isRetryable
                }
            }
        }

        @Test func aRunLeftUnreadDoesNotHoldUpOtherRequests() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:3000", "--delta-ms", "0"])
            var configuration = fixture.configuration
            configuration.eventBufferLimit = 4
            try await GatewayConnection.withConnection(configuration) { gateway in
                let run = try await gateway.send("a long story nobody reads")
                #expect(await eventually { fixture.count(of: "out") > 100 })
                let payload = try await gateway.request("health", timeout: .seconds(20))
                #expect(payload.objectValue != nil)
                _ = run
            }
        }

        @Test func cancellingTheTaskAbortsTheRunAndClosingLeavesNothing() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:3000", "--delta-ms", "20"])
            let connection = try await GatewayConnection.connect(fixture.configuration)
            let run = try await connection.send("a very long story")
            let started = AsyncStream<Void>.makeStream()
            let reader = Task {
                var signalled = false
                for try await _ in run where !signalled {
                    signalled = true
                    started.continuation.yield()
                }
            }
            for await _ in started.stream { break }
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
            #expect(await eventually {
                fixture.requests("chat.abort").contains { $0["params"]?["runId"]?.stringValue == run.runId }
            })
            await connection.close()
            #expect(!connection.isOpen)
            #expect(await connection.closed() == nil, "closed by this side")
            #expect(await eventually {
                fixture.gateway.connectionCount == 0 && socketsConnected(toPort: fixture.gateway.port) == 0 && ioThreadCount() == 0
            })
            await #expect(throws: GatewayClientError.self) { try await connection.request("health") }
        }
    }

    @Suite struct Concurrency {
        @Test func manyConcurrentRequestsEachGetTheirOwnAnswer() async throws {
            let fixture = try GatewayFixture()
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let answers = try await withThrowingTaskGroup(of: JSONValue.self) { group in
                    for _ in 0..<200 { group.addTask { try await gateway.request("health") } }
                    var answers: [JSONValue] = []
                    for try await answer in group { answers.append(answer) }
                    return answers
                }
                #expect(answers.count == 200)
            }
            let ids = fixture.requests("health").compactMap { $0["id"]?.stringValue }
            #expect(ids.count == 200 && Set(ids).count == 200)
        }

        @Test func aRefusedRequestCarriesTheGatewaysError() async throws {
            let fixture = try GatewayFixture()
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                await #expect {
                    _ = try await gateway.request("no.such.method")
                } throws: { error in
                    guard let error = error as? GatewayClientError, error.code == .requestFailed else { return false }
                    return error.method == "no.such.method" && error.gatewayError?.code.isEmpty == false
                }
            }
        }
    }

    @Suite struct Lifecycle {
        @Test func aGatewayShutdownEndsAConnectionWithARetryableError() async throws {
            let fixture = try GatewayFixture()
            let connection = try await GatewayConnection.connect(fixture.configuration)
            fixture.gateway.stop()
            let failure = await connection.closed()
            #expect(failure?.isRetryable == true)
            await connection.close()
            #expect(ioThreadCount() == 0)
        }

        @Test func aConnectionDroppedWithoutCloseStillEnds() async throws {
            let fixture = try GatewayFixture()
            var connection: GatewayConnection? = try await GatewayConnection.connect(fixture.configuration)
            #expect(connection?.isOpen == true)
            connection = nil
            #expect(await eventually { fixture.gateway.connectionCount == 0 && ioThreadCount() == 0 })
        }

        // A listener that never answers the upgrade, and 2-minute connect limits: only the
        // cancellation can end the attempt within the test's time limit.
        @Test(.timeLimit(.minutes(1))) func cancellingAConnectStopsIt() async throws {
            let listener = SilentListener()
            var configuration = GatewayConfiguration(url: "ws://127.0.0.1:\(listener.port)")
            configuration.connectTimeout = .seconds(120)
            configuration.handshakeTimeout = .seconds(120)
            let attempt = Task { try await GatewayConnection.connect(configuration) }
            #expect(await eventually { listener.hasWaitingConnection })
            attempt.cancel()
            await #expect(throws: CancellationError.self) { _ = try await attempt.value }
            #expect(await eventually { ioThreadCount() == 0 })
        }

        @Test func theClientReconnectsAndSubscribesAgainAfterARestart() async throws {
            let first = try GatewayFixture(["--restart-ms", "0"])
            var configuration = first.configuration
            configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
            let client = GatewayClient(configuration: configuration)
            let states = client.states()
            let running = Task { try await client.run() }
            let subscribed = Task {
                try await client.withSubscription(.sessions) { events in
                    for try await _ in events {}
                }
            }
            #expect(await eventually { first.requests("sessions.subscribe").count == 1 })
            let port = first.gateway.port
            first.gateway.stop()
            let second = try GatewayFixture(port: port)
            #expect(await eventually { second.requests("sessions.subscribe").count == 1 })
            running.cancel()
            try await running.value
            subscribed.cancel()
            _ = try? await subscribed.value
            var seen: [ConnectionState] = []
            for await state in states { seen.append(state) }
            #expect(seen.filter { $0 == .connected }.count == 2)
            #expect(seen.contains { if case .waitingToReconnect = $0 { return true }; return false })
            #expect(seen.last == .closed)
            #expect(await eventually { ioThreadCount() == 0 && second.gateway.connectionCount == 0 })
        }

        @Test func aClientThatCannotConnectGivesUpAfterItsAttempts() async throws {
            let fixture = try GatewayFixture()
            let port = fixture.gateway.port
            fixture.gateway.stop()
            var configuration = GatewayConfiguration(url: "ws://127.0.0.1:\(port)")
            configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(20), maxAttempts: 2)
            let client = GatewayClient(configuration: configuration)
            let states = client.states()
            await #expect(throws: GatewayClientError.self) { try await client.run() }
            var attempts = 0
            for await state in states { if case .connecting = state { attempts += 1 } }
            #expect(attempts == 2)
            await #expect(throws: GatewayClientError.self) { try await client.run() }  // once only
        }

        // A 10-minute backoff: only the cancellation can end the wait within the test's time limit.
        @Test(.timeLimit(.minutes(1))) func cancellingRunDuringAReconnectWaitEndsItAtOnce() async throws {
            let fixture = try GatewayFixture()
            var configuration = fixture.configuration
            configuration.reconnect = ReconnectPolicy(initialDelay: .seconds(600), maximumDelay: .seconds(600))
            let client = GatewayClient(configuration: configuration)
            let states = client.states()
            let running = Task { try await client.run() }
            var seen: [ConnectionState] = []
            for await state in states {
                seen.append(state)
                if state == .connected { fixture.gateway.stop() }
                if case .waitingToReconnect(let delay, let reason) = state {
                    #expect(delay >= .seconds(600) && reason.isRetryable, "\(delay) \(reason)")
                    running.cancel()
                }
            }
            try await running.value
            #expect(seen.first == .connecting(attempt: 1) && seen.last == .closed, "\(seen)")
            #expect(await eventually { ioThreadCount() == 0 })
        }

        @Test func waitersLearnWhyTheClientStopped() async throws {
            let fixture = try GatewayFixture()
            var configuration = fixture.configuration
            configuration.token = Secret("wrong")
            let client = GatewayClient(configuration: configuration)
            let waiting = Task { try await client.request("health") }
            await #expect(throws: GatewayClientError.self) { try await client.run() }
            await #expect {
                _ = try await waiting.value
            } throws: { error in
                guard let error = error as? GatewayClientError else { return false }
                return error.code == .authenticationFailed && error.authenticationProblem == .tokenRefused
            }
        }

        @Test func aConnectionLentByTheClientIsNotClosedByItsBorrower() async throws {
            let fixture = try GatewayFixture()
            let client = GatewayClient(configuration: fixture.configuration)
            let running = Task { try await client.run() }
            try await client.withConnection { connection in await connection.close() }
            let payload = try await client.request("health")
            #expect(payload.objectValue != nil)
            #expect(fixture.requests("connect").count == 1)
            running.cancel()
            try await running.value
        }
    }

    @Suite struct Events {
        @Test func gapsInTheGatewaysNumberingAreReported() async throws {
            let fixture = try GatewayFixture(["--fault", "seq-gap:3", "--tick-ms", "20"])
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                var gap: SequenceGap?
                var seen = 0
                for try await event in gateway.events() {
                    if let found = event.gap { gap = found; #expect(event.seq == found.received); break }
                    seen += 1
                    if seen == 200 { break }  // the gateway skips every third number: far fewer than this
                }
                #expect(gap.map { $0.received > $0.expected } == true)
            }
        }

        @Test func aSlowConsumerStillAnswersPingsAndLosesNothing() async throws {
            let count = 3000
            let fixture = try GatewayFixture(["--blast", String(count), "--ping-ms", "50", "--pong-timeout-ms", "1000"])
            var configuration = fixture.configuration
            configuration.eventBufferLimit = 8
            let client = GatewayClient(configuration: configuration)
            let events = client.events()
            let running = Task { try await client.run() }
            // Not reading: the link must stay up on pongs alone.
            #expect(await eventually { fixture.count(of: "pong") >= 3 })
            var received = 0
            var lastSeq: Int64?
            for try await event in events where event.name == "chat" {
                if let seq = event.seq, let last = lastSeq { #expect(seq == last + 1) }
                lastSeq = event.seq ?? lastSeq
                #expect(event.gap == nil)
                received += 1
                if received == count { break }
            }
            #expect(received == count)
            #expect(fixture.count(of: "dropped") == 0)
            running.cancel()
            try await running.value
        }
    }
}
