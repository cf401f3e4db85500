import Testing
@_spi(Engine) @testable import ClawState

@Suite struct DeviceAuthPayloadTests {
    @Test func v2MatchesTheProtocolExample() {
        let payload = DeviceAuthPayload.v2(
            deviceId: "9f86d081", clientId: "cli", clientMode: "cli", role: "operator",
            scopes: ["operator.read", "operator.write"], signedAtMs: 1_737_264_000_000,
            token: "s3cret", nonce: "5f8a2c1e-7d3b-4c9a-9e2f-1b6d0a4c8e77")
        #expect(payload == "v2|9f86d081|cli|cli|operator|operator.read,operator.write|1737264000000|s3cret|5f8a2c1e-7d3b-4c9a-9e2f-1b6d0a4c8e77")
    }

    @Test func v2WithoutTokenOrScopesLeavesEmptyFields() {
        let payload = DeviceAuthPayload.v2(
            deviceId: "d", clientId: "cli", clientMode: "cli", role: "operator",
            scopes: [], signedAtMs: 5, token: nil, nonce: "n")
        #expect(payload == "v2|d|cli|cli|operator||5||n")
    }

    @Test func v3AppendsTrimmedAsciiLowercasedMetadata() {
        let payload = DeviceAuthPayload.v3(
            deviceId: "d", clientId: "cli", clientMode: "cli", role: "operator",
            scopes: ["operator.write", "operator.read"], signedAtMs: 1_737_264_000_000,
            token: "t", nonce: "n", platform: "  Linux\t", deviceFamily: "ÉMac\u{00A0}")
        // Only A–Z are lowercased: "É" stays as it is.
        #expect(payload == "v3|d|cli|cli|operator|operator.write,operator.read|1737264000000|t|n|linux|Émac")
    }

    @Test func v3MissingMetadataIsEmpty() {
        let payload = DeviceAuthPayload.v3(
            deviceId: "d", clientId: "cli", clientMode: "cli", role: "operator",
            scopes: ["operator.read"], signedAtMs: 1, token: nil, nonce: "n", platform: nil, deviceFamily: nil)
        #expect(payload == "v3|d|cli|cli|operator|operator.read|1||n||")
    }
}
