import Testing
import ClawGatewayClient
import ClawGatewayTesting

/// A cron job's fan-out: 200 one-shot connections at once, past the gateway's cap on connections still
/// authenticating (32 here), all complete, in a debug build too: handshakes wait their turn (a
/// process-wide bound on handshakes in flight) without spending their connect limit queued for CPU.
/// It loads the machine: scripts/test-shards.sh runs it alone, after the shards, with the suites timed
/// for an idle machine.
@Suite struct BurstTests {
    @Test func twoHundredOneShotConnectionsAtOnceAllComplete() async throws {
        let fixture = try GatewayFixture(["--max-unauthenticated", "32"])
        let configuration = fixture.configuration
        let failures = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    do {
                        let health = try await GatewayConnection.withConnection(configuration) { try await $0.request("health") }
                        return health["ok"]?.boolValue == true ? nil : "not ok"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(failures.isEmpty, "\(failures.count) of 200 failed, e.g. \(failures.first ?? "")")
        #expect(fixture.requests("health").count == 200)
    }
}
