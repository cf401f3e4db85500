import Glibc
import Testing
import ClawGatewayClient
import ClawGatewayTesting

/// A gate a reader blocks on without looking at its task's cancellation (as a busy reader does).
final class Gate: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var open = false

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    func wait() {
        pthread_mutex_lock(&mutex)
        while !open { pthread_cond_wait(&condition, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    func release() {
        pthread_mutex_lock(&mutex)
        open = true
        pthread_cond_broadcast(&condition)
        pthread_mutex_unlock(&mutex)
    }
}

extension GatewayFixture {
    /// Whether the gateway has sent a run's final event (the fixture's one run: the whole reply is on its
    /// way to us). Searched as bytes: the log of a long reply is megabytes of deltas.
    func sentFinal() -> Bool {
        // The final is the run's last line: the log's last mebibyte holds it.
        logBytes().suffix(1 << 20).firstRange(of: Array(#""state":"final""#.utf8)) != nil
    }
}

/// How a reader's loop ended, and after how many elements.
enum Outcome: Equatable {
    case finished(after: Int)
    case cancelled(after: Int)
}

extension ClientLibraryTests {
    /// A reader slower than the gateway: cancellation and memory must not depend on its pace.
    @Suite struct UnderPressure {
        @Test func cancellingAReaderWithUpdatesQueuedAbortsTheRunAtOnce() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:300", "--delta-ms", "0"])
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let run = try await gateway.send("a story read slowly")
                let gate = Gate()
                let firstUpdate = AsyncStream<Void>.makeStream()
                let reader = Task { () -> Outcome in
                    var seen = 0
                    do {
                        for try await _ in run {
                            seen += 1
                            if seen == 1 { firstUpdate.continuation.yield(); gate.wait() }
                        }
                    } catch is CancellationError { return .cancelled(after: seen) }
                    return .finished(after: seen)
                }
                for await _ in firstUpdate.stream { break }
                // Everything the run will send is on its way while the reader is busy with its first update.
                #expect(await eventually { fixture.sentFinal() })
                reader.cancel()
                gate.release()
                #expect(try await reader.value == .cancelled(after: 1), "the queued updates were not handed out")
                #expect(await eventually {
                    fixture.requests("chat.abort").contains { $0["params"]?["runId"]?.stringValue == run.runId }
                })
            }
        }

        @Test func cancellingAnEventStreamWithEventsQueuedThrowsCancellation() async throws {
            let fixture = try GatewayFixture(["--blast", "200"])
            let client = GatewayClient(configuration: fixture.configuration)
            let events = client.events()  // before run(): it sees the first connection's every event
            let running = Task { try await client.run() }
            let gate = Gate()
            let firstEvent = AsyncStream<Void>.makeStream()
            let reader = Task { () -> Outcome in
                var seen = 0
                do {
                    for try await _ in events {
                        seen += 1
                        if seen == 1 { firstEvent.continuation.yield(); gate.wait() }
                    }
                } catch is CancellationError { return .cancelled(after: seen) }
                return .finished(after: seen)
            }
            for await _ in firstEvent.stream { break }
            // The blast went out right after hello-ok: once a later answer is in, every event of it is queued.
            _ = try await client.request("health")
            reader.cancel()
            gate.release()
            #expect(try await reader.value == .cancelled(after: 1), "the queued events were not handed out")
            running.cancel()
            try await running.value
        }

        @Test func aSlowReaderHoldsOneUpdateNotEveryUpdate() async throws {
            // 1,000 deltas, each with the whole text so far: queued one by one they are the square of the reply.
            let fixture = try GatewayFixture(["--reply", "lorem:1000", "--delta-ms", "0"])
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                let run = try await gateway.send("a long story nobody reads yet")
                #expect(await eventually { fixture.sentFinal() })
                // Let the connection take in every frame before the reader starts.
                _ = try await gateway.request("health")
                var updates: [ChatUpdate] = []
                var rebuilt = ""
                for try await update in run {
                    updates.append(update)
                    switch update.change {
                    case .appended(let suffix): rebuilt += suffix
                    case .rewritten: rebuilt = update.text
                    case .unchanged: break
                    }
                }
                #expect(updates.count <= 2, "what the reader had not taken was merged: \(updates.count) updates")
                #expect(updates.last?.isFinal == true)
                #expect(rebuilt == updates.last?.text)
                #expect(updates.last?.text.split(separator: " ").count == 1000)
            }
        }

        @Test func aReaderSlowerThanTheGatewaySeesAConsistentReply() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:400", "--delta-ms", "1"])
            try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                var rebuilt = ""
                var final = ""
                for try await update in try await gateway.send("a story at two speeds") {
                    switch update.change {
                    case .appended(let suffix): rebuilt += suffix
                    case .rewritten: rebuilt = update.text
                    case .unchanged: break
                    }
                    #expect(rebuilt == update.text)
                    if update.isFinal { final = update.text }
                    try await Task.sleep(for: .milliseconds(3))
                }
                #expect(final.split(separator: " ").count == 400)
            }
        }
    }
}
