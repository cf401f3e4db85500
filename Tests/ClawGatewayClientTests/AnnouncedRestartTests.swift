import Testing
import ClawGatewayClient
import ClawGatewayTesting

extension ClientLibraryTests {
    /// A gateway that announces its restart (`shutdown` with `restartExpectedMs`, then close 1012) ends
    /// a connection as `.gatewayRestarting` with the announced delay, not as a lost link.
    @Suite struct AnnouncedRestart {
        @Test func aRunCutByAnAnnouncedRestartEndsAsGatewayRestartingWithItsDelay() async throws {
            let fixture = try GatewayFixture(["--restart-ms", "2500", "--reply", "lorem:3000", "--delta-ms", "5"])
            let started = AsyncStream<Void>.makeStream()
            let reading = Task {
                try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                    let run = try await gateway.send("a long reply")
                    started.continuation.yield()
                    for try await _ in run {}
                }
            }
            for await _ in started.stream { break }
            fixture.gateway.stop()
            do {
                try await reading.value
                Issue.record("the run ended normally")
            } catch let error as GatewayClientError {
                #expect(error.code == .gatewayRestarting, "\(error)")
                #expect(error.retryAfter == .milliseconds(2500))
                #expect(error.isRetryable)
            }
        }

        @Test func aLinkLostWithoutAnAnnouncementIsStillConnectionLost() async throws {
            let fixture = try GatewayFixture(["--reply", "lorem:3000", "--delta-ms", "5", "--fault", "drop-after:20"])
            do {
                try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                    for try await _ in try await gateway.send("a long reply") {}
                }
                Issue.record("the run ended normally")
            } catch let error as GatewayClientError {
                #expect(error.code == .connectionLost, "\(error)")
            }
        }
    }
}
