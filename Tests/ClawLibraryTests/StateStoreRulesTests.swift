import Testing
@testable import ClawCrypto
@testable import ClawTransport
@testable import ClawState

/// The rules the official client keys the state database by, written out case by case.
@Suite struct StateStoreRulesTests {
    @Test(arguments: [
        ("wss://gw.example", "wss://gw.example"),
        ("wss://gw.example/", "wss://gw.example"),
        ("wss://GW.Example:443", "wss://gw.example"),
        ("wss://gw.example:8443/", "wss://gw.example:8443"),
        ("ws://127.0.0.1:18789", "ws://127.0.0.1:18789"),
        ("ws://localhost:80/", "ws://localhost"),
        ("wss://gw.example/openclaw///", "wss://gw.example/openclaw"),
        ("wss://gw.example/a/b?token=x", "wss://gw.example/a/b"),
        ("wss://gw.example/?x=1", "wss://gw.example"),
        ("ws://[::1]:18789/", "ws://[::1]:18789"),
    ])
    func originScope(_ url: String, _ scope: String) throws {
        #expect(DeviceTokenScope.origin(try #require(WebSocketURL(url))) == scope)
    }

    @Test func aPinnedLoopbackGatewayIsKnownByItsPin() throws {
        let pin = [UInt8](repeating: 0xAB, count: 32)
        let url = try #require(WebSocketURL("wss://127.0.0.1:18789"))
        let expected = "remote:tls:" + Hex.encode(Digest.sha256(Array(("wss://127.0.0.1:18789:tls-sha256:" + String(repeating: "ab", count: 32)).utf8)))
        #expect(DeviceTokenScope.forTarget(url, pinnedSHA256: pin) == expected)
        // Not loopback, or not pinned: the origin.
        #expect(DeviceTokenScope.forTarget(try #require(WebSocketURL("wss://gw.example")), pinnedSHA256: pin) == "wss://gw.example")
        #expect(DeviceTokenScope.forTarget(url, pinnedSHA256: nil) == "wss://127.0.0.1:18789")
    }

    @Test(arguments: [
        ("OPENCLAW_GATEWAY_TOKEN", true), ("A", true), ("A1_B", true), (String(repeating: "A", count: 128), true),
        ("", false), ("a", false), ("1A", false), ("_A", false), ("A-B", false), ("A B", false),
        (String(repeating: "A", count: 129), false),
    ])
    func storedSecretNames(_ name: String, _ valid: Bool) {
        #expect(StoredSecrets.isValidName(name) == valid)
    }

    @Test func aMissingDatabaseHoldsNoSecret() {
        #expect(throws: StoredSecrets.Failure.notFound) {
            try StoredSecrets.value(named: "X", in: StateDatabase(path: "/nonexistent/state/openclaw.sqlite"))
        }
    }

    @Test func noDatabaseMeansTheOlderFiles() {
        let dir = ConfigTestDirectory()
        #expect(StateLayout(stateDirectory: dir.sub("state")) == .files)
    }
}
