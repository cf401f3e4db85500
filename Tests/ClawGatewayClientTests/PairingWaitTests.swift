import Testing
import ClawGatewayClient
import ClawGatewayTesting

extension ClientLibraryTests {
    /// `waits.pairingApproval`: a new device waits for the administrator's decision within the limit,
    /// and connects once approved (`TestGateway.approvePairings()`, what `openclaw devices approve` does).
    @Suite struct PairingWait {
        static func configuration(_ fixture: GatewayFixture, limit: Duration = .seconds(30)) -> GatewayConfiguration {
            var configuration = fixture.configuration
            configuration.deviceIdentity = .ephemeral
            configuration.waits.pairingApproval = true
            configuration.waits.limit = limit
            return configuration
        }

        @Test func anApprovedDeviceConnects() async throws {
            let fixture = try GatewayFixture(["--require-pairing"])
            let connecting = Task {
                try await GatewayConnection.withConnection(Self.configuration(fixture)) { try await $0.request("health") }
            }
            // The administrator approves once the request is there.
            var approved: [String] = []
            #expect(await eventually { approved = fixture.gateway.approvePairings(); return !approved.isEmpty })
            let health = try await connecting.value
            #expect(health["ok"]?.boolValue == true)
            #expect(approved.count == 1 && approved[0].count == 64)
        }

        /// Without the wait, the error names the device the administrator is to approve: the same id
        /// the gateway's pending request holds.
        @Test func thePairingErrorNamesTheDevice() async throws {
            let fixture = try GatewayFixture(["--require-pairing"])
            var configuration = fixture.configuration
            configuration.deviceIdentity = .ephemeral
            var failure: GatewayClientError?
            do { _ = try await GatewayConnection.withConnection(configuration) { try await $0.request("health") } }
            catch let error as GatewayClientError { failure = error }
            let error = try #require(failure)
            #expect(error.authenticationProblem == .pairingRequired)
            let pending = fixture.gateway.approvePairings()
            #expect(pending.count == 1 && error.deviceId == pending.first)
            #expect(error.description.contains(try #require(error.deviceId)))
        }

        @Test func theSimulatorsAutoApprovalLetsANewDeviceIn() async throws {
            let fixture = try GatewayFixture(["--require-pairing", "--auto-approve-ms", "100"])
            let health = try await GatewayConnection.withConnection(Self.configuration(fixture)) { try await $0.request("health") }
            #expect(health["ok"]?.boolValue == true)
        }
    }
}
