import Glibc
import Testing
import ClawGatewayClient
import ClawGatewayTesting

extension GatewayFixture {
    /// The `chat.abort` requests the gateway received for `runId`.
    func aborts(of runId: String) -> Int {
        requests("chat.abort").filter { $0["params"]?["runId"]?.stringValue == runId }.count
    }
}

/// The first run id a test's task reports; "" when the task ended without one.
private func firstRunId(_ stream: AsyncStream<String>) async -> String {
    for await id in stream { return id }
    return ""
}

extension ClientLibraryTests {
    /// Cancelling the task that started a run aborts the run once, at once, whichever await sees it.
    @Suite struct RunCancellation {
        /// A reply that outlasts every test: 3,000 words, one every 5 ms (15 s; each delta carries the
        /// whole text so far, so the gateway's log stays some tens of megabytes).
        static let longReply = ["--reply", "lorem:3000", "--delta-ms", "5"]

        @Test func aCancellationSeenByTaskSleepInTheLoopAbortsTheRun() async throws {
            let fixture = try GatewayFixture(Self.longReply)
            let started = AsyncStream<String>.makeStream()
            let reader = Task {
                defer { started.continuation.finish() }
                try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                    let run = try await gateway.send("a story read slowly")
                    started.continuation.yield(run.runId)
                    for try await _ in run { try await Task.sleep(for: .milliseconds(10)) }
                }
            }
            let runId = await firstRunId(started.stream)
            try #require(!runId.isEmpty, "the run started")
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
            // withConnection has closed the connection: what it posted went out before the close.
            #expect(await eventually { fixture.aborts(of: runId) == 1 })
            #expect(fixture.aborts(of: runId) == 1, "one abort, not one per await that saw it")
        }

        @Test func aRunDroppedByACancelledTaskOutsideAScopeIsAborted() async throws {
            let fixture = try GatewayFixture(Self.longReply)
            let gateway = try await GatewayConnection.connect(fixture.configuration)
            let started = AsyncStream<String>.makeStream()
            let reader = Task {
                defer { started.continuation.finish() }
                let run = try await gateway.send("a story read slowly")
                started.continuation.yield(run.runId)
                for try await _ in run { try await Task.sleep(for: .milliseconds(10)) }
            }
            let runId = await firstRunId(started.stream)
            try #require(!runId.isEmpty, "the run started")
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
            #expect(await eventually { fixture.aborts(of: runId) == 1 })
            await gateway.close()
            #expect(fixture.aborts(of: runId) == 1)
        }

        @Test func aCancellationWhileTheReaderIsBlockedWritingAbortsAtOnce() async throws {
            let fixture = try GatewayFixture(Self.longReply)
            let gate = Gate()
            let started = AsyncStream<String>.makeStream()
            let reader = Task {
                defer { started.continuation.finish() }
                try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                    let run = try await gateway.send("a story for a stalled pipe")
                    for try await _ in run {
                        started.continuation.yield(run.runId)
                        gate.wait()  // as print() into a pipe nobody reads: no await sees the cancellation
                    }
                }
            }
            let runId = await firstRunId(started.stream)
            try #require(!runId.isEmpty, "the run started")
            reader.cancel()
            // The reader is still blocked: the abort was posted by the cancellation itself.
            #expect(await eventually { fixture.aborts(of: runId) == 1 })
            gate.release()
            await #expect(throws: CancellationError.self) { try await reader.value }
            #expect(fixture.aborts(of: runId) == 1)
        }

        @Test func aCancelledReplyAbortsTheRunOnce() async throws {
            let fixture = try GatewayFixture(Self.longReply)
            let gateway = try await GatewayConnection.connect(fixture.configuration)
            let run = try await gateway.send("the whole story at once")
            let waiting = Task { try await run.reply() }
            #expect(await eventually { fixture.logBytes().count > 4096 }, "the reply is streaming")
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            #expect(await eventually { fixture.aborts(of: run.runId) == 1 })
            await gateway.close()
            #expect(fixture.aborts(of: run.runId) == 1)
        }

        @Test func aRunThatEndedIsNotAbortedWhenItsTaskIsCancelledLater() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:5", "--delta-ms", "0"])
            let finished = AsyncStream<String>.makeStream()
            let gate = Gate()
            let reader = Task {
                defer { finished.continuation.finish() }
                try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                    let run = try await gateway.send("a short one")
                    for try await _ in run {}
                    finished.continuation.yield(run.runId)
                    gate.wait()
                    try await gateway.request("health")
                }
            }
            let runId = await firstRunId(finished.stream)
            try #require(!runId.isEmpty, "the run ended")
            reader.cancel()
            gate.release()
            _ = try? await reader.value
            #expect(fixture.requests("chat.send").count == 1)
            #expect(fixture.aborts(of: runId) == 0)
        }
    }
}
