import Testing
import ClawGatewayClient
import ClawGatewayTesting

extension ClientLibraryTests {
    /// `withSubscription`'s stream carries what the subscription adds, not every event again
    /// (`events()` has those).
    @Suite struct SubscriptionStream {
        @Test func aSessionsSubscriptionStreamCarriesOnlySessionsChanged() async throws {
            let fixture = try GatewayFixture(["--protocol", "4"])
            let names = try await GatewayConnection.withConnection(fixture.configuration) { gateway in
                try await gateway.withSubscription(.sessions) { events in
                    // A run: chat and agent events on the connection, sessions.changed for the feed.
                    _ = try await gateway.send("hello").reply()
                    var names: [String] = []
                    for try await event in events {
                        names.append(event.name)
                        if names.count == 2 { break }  // the run's start and end
                    }
                    return names
                }
            }
            #expect(names == ["sessions.changed", "sessions.changed"], "\(names)")
        }
    }
}
