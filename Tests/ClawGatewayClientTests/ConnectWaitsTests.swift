import Glibc
import Testing
import ClawGatewayClient
import ClawGatewayTesting

/// `GatewayConfiguration.waits`: what a connect waits out before it fails, as the CLI does within
/// `--timeout`, against the test gateway over real sockets.
@Suite struct ConnectWaitsTests {
    @Test func aConnectWaitsOutASuspendedGatewayByDefault() async throws {
        let fixture = try GatewayFixture()
        fixture.gateway.suspend()
        let attempt = Task { try await GatewayConnection.connect(fixture.configuration) }
        // Refused at least once (UNAVAILABLE, then closed 1013), then let in once the suspension ends.
        // The wait is for the refusal itself: a connect received but not yet answered would be let in.
        #expect(await eventually { fixture.sent().contains { $0["ok"]?.boolValue == false } })
        fixture.gateway.resume()
        let connection = try await attempt.value
        #expect(connection.isOpen)
        #expect(fixture.requests("connect").count >= 2)
        await connection.close()
        #expect(await eventually { ioThreadCount() == 0 })
    }

    @Test func withoutTheWaitASuspendedGatewayIsTheError() async throws {
        let fixture = try GatewayFixture()
        fixture.gateway.suspend()
        var configuration = fixture.configuration
        configuration.waits.unavailableGateway = false
        await #expect {
            _ = try await GatewayConnection.connect(configuration)
        } throws: { error in
            (error as? GatewayClientError)?.code == .gatewayRestarting
        }
        #expect(fixture.requests("connect").count == 1)
    }

    @Test func theLimitEndsTheWait() async throws {
        let fixture = try GatewayFixture()
        fixture.gateway.suspend()
        var configuration = fixture.configuration
        configuration.waits.limit = .milliseconds(1500)
        await #expect {
            _ = try await GatewayConnection.connect(configuration)
        } throws: { error in
            (error as? GatewayClientError)?.code == .gatewayRestarting
        }
        // The suspension asks for 1 s between tries: within the limit, one more try at most. Without the
        // limit the connect would have gone on asking for 30 s.
        #expect((1...3).contains(fixture.requests("connect").count), "\(fixture.requests("connect").count)")
        #expect(await eventually { ioThreadCount() == 0 })
    }

    /// A limit shorter than the connect timeout: the error names the limit, not the 10 s it never reached.
    @Test func aConnectCutShortByTheLimitNamesIt() async throws {
        let listener = SilentListener()
        var configuration = GatewayConfiguration(url: "ws://127.0.0.1:\(listener.port)")
        configuration.token = Secret("test-token")
        configuration.waits.limit = .milliseconds(500)
        await #expect {
            _ = try await GatewayConnection.connect(configuration)
        } throws: { error in
            let error = error as? GatewayClientError
            return error?.code == .timedOut && error?.description.contains("waits.limit (0.5 s) ran out") == true
        }
    }

    @Test func aRefusedConnectIsAskedAgainOnlyWhenAllowed() async throws {
        let port = try GatewayFixture().gateway.port  // stopped when the fixture goes: nothing listens there
        var configuration = GatewayConfiguration(url: "ws://127.0.0.1:\(port)")
        configuration.token = Secret("test-token")
        await #expect {
            _ = try await GatewayConnection.connect(configuration)
        } throws: { error in
            (error as? GatewayClientError)?.code == .connectionRefused
        }
        configuration.waits.refusedConnections = true
        let attempt = Task { try await GatewayConnection.connect(configuration) }
        let late = try GatewayFixture(port: port)
        let connection = try await attempt.value
        #expect(connection.isOpen)
        #expect(late.requests("connect").count == 1)
        await connection.close()
    }

    @Test func cancellingAWaitingConnectStopsIt() async throws {
        let fixture = try GatewayFixture()
        fixture.gateway.suspend()
        let attempt = Task { try await GatewayConnection.connect(fixture.configuration) }
        #expect(await eventually { fixture.requests("connect").count >= 1 })
        attempt.cancel()
        await #expect(throws: CancellationError.self) { _ = try await attempt.value }
        #expect(await eventually { ioThreadCount() == 0 })
    }
}
