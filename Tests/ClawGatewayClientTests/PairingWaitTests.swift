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

        /// A gateway that holds the socket open for the decision (the simulator for any client, as the
        /// gateway does for its Control UI): the client advertises the wait and decides on that socket.
        static let heldSocket = ["--require-pairing", "--pairing-wait-any-client"]

        /// The refusal of the gateway's pending request, as `fixture` logged it.
        static func heldRefusals(_ fixture: GatewayFixture) -> Int {
            fixture.logLines().filter { $0["dir"]?.stringValue == "out" && $0["frame"]?["error"]?["code"]?.stringValue == "NOT_PAIRED" }.count
        }

        @Test func anApprovalOnTheHeldSocketConnects() async throws {
            let fixture = try GatewayFixture(Self.heldSocket)
            let connecting = Task {
                try await GatewayConnection.withConnection(Self.configuration(fixture)) { try await $0.request("health") }
            }
            #expect(await eventually { !fixture.gateway.approvePairings().isEmpty })
            #expect(try await connecting.value["ok"]?.boolValue == true)
            let connects = fixture.requests("connect")
            #expect(connects.first?["params"]?["caps"]?.arrayValue?.contains { $0.stringValue == "device-pairing-wait" } == true)
            #expect(connects.count == 2, "one held for the decision, one after the approval")
        }

        /// A refusal ends the wait at once with the decision, not at the limit after asking again.
        @Test func aRefusalOnTheHeldSocketEndsTheWait() async throws {
            let fixture = try GatewayFixture(Self.heldSocket)
            let connecting = Task {
                try await GatewayConnection.withConnection(Self.configuration(fixture, limit: .seconds(120))) { try await $0.request("health") }
            }
            #expect(await eventually { !fixture.gateway.rejectPairings().isEmpty })
            do {
                _ = try await connecting.value
                Issue.record("connected although the pairing was rejected")
            } catch let error as GatewayClientError {
                #expect(error.authenticationProblem == .pairingRequired)
                #expect(error.description.contains("rejected"), "\(error)")
            }
        }

        @Test func theWaitEndsAtItsLimit() async throws {
            let fixture = try GatewayFixture(Self.heldSocket)
            do {
                _ = try await GatewayConnection.withConnection(Self.configuration(fixture, limit: .seconds(1))) { try await $0.request("health") }
                Issue.record("connected although nobody approved")
            } catch let error as GatewayClientError {
                #expect(error.authenticationProblem == .pairingRequired)
                #expect(error.description.contains("still not approved"), "\(error)")
            }
        }

        @Test func cancellingTheTaskEndsTheWait() async throws {
            let fixture = try GatewayFixture(Self.heldSocket)
            let connecting = Task {
                try await GatewayConnection.withConnection(Self.configuration(fixture)) { try await $0.request("health") }
            }
            #expect(await eventually { Self.heldRefusals(fixture) == 1 })
            connecting.cancel()
            await #expect(throws: CancellationError.self) { try await connecting.value }
            #expect(fixture.requests("connect").count == 1, "no second attempt after the cancel")
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
