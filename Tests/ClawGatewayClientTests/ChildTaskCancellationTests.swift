import Testing
import ClawGatewayClient
import ClawGatewayTesting

extension ClientLibraryTests {
    /// A call awaited in a child task of the connection's scope (`Task {}`, `async let`, a task group)
    /// that is cancelled throws `CancellationError`, leaves the connection usable, and a `chat.send`
    /// whose request was written is aborted on the gateway, once, before or after its answer.
    @Suite struct ChildTaskCancellation {
        /// The answer to chat.send comes 1.5 s after the request: time to cancel while it is awaited.
        static let slowAnswer = ["--ack-delay-ms", "1500", "--reply", "lorem:3000", "--delta-ms", "5"]

        /// Waits until the gateway has the chat.send request (the request was written), then cancels.
        static func cancelOnceSent(_ task: Task<Void, any Error>, _ fixture: GatewayFixture) async -> Bool {
            let sent = await eventually { !fixture.requests("chat.send").isEmpty }
            task.cancel()
            return sent
        }

        static func sentRunId(_ fixture: GatewayFixture) -> String {
            fixture.requests("chat.send").first?["params"]?["idempotencyKey"]?.stringValue ?? ""
        }

        @Test func aChildTaskCancelledBeforeTheAnswer() async throws {
            let fixture = try GatewayFixture(Self.slowAnswer)
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let child = Task { _ = try await gateway.send("cancelled while waiting for the answer") }
                #expect(await Self.cancelOnceSent(child, fixture))
                await #expect(throws: CancellationError.self) { try await child.value }
                // The connection is still usable by the scope.
                let health = try await gateway.request("health")
                #expect(health["ok"]?.boolValue == true)
            }
            let runId = Self.sentRunId(fixture)
            #expect(await eventually { fixture.aborts(of: runId) == 1 })
            #expect(fixture.aborts(of: runId) == 1)
        }

        @Test func anAsyncLetCancelledBeforeTheAnswer() async throws {
            let fixture = try GatewayFixture(Self.slowAnswer)
            let scope = Task {
                try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                    async let run = gateway.send("an async let, cancelled")
                    _ = try await run
                }
            }
            #expect(await Self.cancelOnceSent(scope, fixture))
            await #expect(throws: CancellationError.self) { try await scope.value }
            let runId = Self.sentRunId(fixture)
            #expect(await eventually { fixture.aborts(of: runId) == 1 })
            #expect(fixture.aborts(of: runId) == 1)
        }

        @Test func aTaskGroupChildCancelledBeforeTheAnswer() async throws {
            let fixture = try GatewayFixture(Self.slowAnswer)
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let outcome = await withTaskGroup(of: Bool.self) { group in
                    group.addTask {
                        do { _ = try await gateway.send("a group's child"); return false } catch is CancellationError { return true }
                        catch { return false }
                    }
                    _ = await eventually { !fixture.requests("chat.send").isEmpty }
                    group.cancelAll()
                    return await group.next() ?? false
                }
                #expect(outcome, "the child threw CancellationError")
                let health = try await gateway.request("health")
                #expect(health["ok"]?.boolValue == true)
            }
            let runId = Self.sentRunId(fixture)
            #expect(await eventually { fixture.aborts(of: runId) == 1 })
        }

        @Test func aChildTaskCancelledAfterTheAnswer() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:3000", "--delta-ms", "5"])
            let started = AsyncStream<String>.makeStream()
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let child = Task {
                    let run = try await gateway.send("cancelled while it streams")
                    started.continuation.yield(run.runId)
                    for try await _ in run {}
                }
                var runId = ""
                for await id in started.stream { runId = id; break }
                child.cancel()
                await #expect(throws: CancellationError.self) { try await child.value }
                #expect(await eventually { fixture.aborts(of: runId) == 1 })
                let health = try await gateway.request("health")
                #expect(health["ok"]?.boolValue == true)
                #expect(fixture.aborts(of: runId) == 1)
            }
        }
    }
}
