import Testing
@_spi(Engine) @testable import ClawJSON
@_spi(Engine) @testable import ClawState

@Suite struct DeviceAuthStoreTests {
    @Test func roundTripInTheOfficialFormat() throws {
        let dir = ConfigTestDirectory()
        let store = DeviceAuthStore(stateDirectory: dir.sub("state"))
        #expect(store.token(deviceId: "dev1", role: "operator") == nil)
        let saved = try store.save(deviceId: "dev1", role: "operator", token: Secret("dt_one"), scopes: ["operator.write"])
        #expect(saved.scopes == ["operator.read", "operator.write"])
        #expect(permissionBits(store.path) == 0o600)
        #expect(store.path == dir.sub("state/identity/device-auth.json"))

        let loaded = try #require(store.token(deviceId: "dev1", role: "operator"))
        #expect(loaded.token.value == "dt_one")
        #expect(loaded.role == "operator")
        #expect(loaded.scopes == ["operator.read", "operator.write"])
        #expect(loaded.updatedAtMs == saved.updatedAtMs)
        #expect(store.token(deviceId: "other", role: "operator") == nil)
        #expect(store.token(deviceId: "dev1", role: "node") == nil)

        let value = try JSONValue.parse(try #require(dir.read(store.path)))
        #expect(value.objectValue?.keys == ["version", "deviceId", "tokens"])
        #expect(value["version"]?.intValue == 1)
        #expect(value["deviceId"]?.stringValue == "dev1")
        #expect(value["tokens"]?["operator"]?.objectValue?.keys == ["token", "role", "scopes", "updatedAtMs"])
    }

    @Test func otherRolesAreKeptAndRemoveForgetsOne() throws {
        let dir = ConfigTestDirectory()
        let store = DeviceAuthStore(stateDirectory: dir.sub("state"))
        try store.save(deviceId: "dev1", role: "operator", token: Secret("dt_op"), scopes: ["operator.admin"])
        try store.save(deviceId: "dev1", role: "node", token: Secret("dt_node"), scopes: [])
        #expect(store.token(deviceId: "dev1", role: "operator")?.scopes == ["operator.admin", "operator.read", "operator.write"])
        try store.remove(deviceId: "dev1", role: "operator")
        #expect(store.token(deviceId: "dev1", role: "operator") == nil)
        #expect(store.token(deviceId: "dev1", role: "node")?.token.value == "dt_node")
        // Another device's save replaces the file (one device per file, as in the official store).
        try store.save(deviceId: "dev2", role: "operator", token: Secret("dt_2"), scopes: [" operator.read ", "operator.read"])
        #expect(store.token(deviceId: "dev1", role: "node") == nil)
        #expect(store.token(deviceId: "dev2", role: "operator")?.scopes == ["operator.read"])
        try store.remove(deviceId: "dev1", role: "operator")  // no-op for a foreign device
        #expect(store.token(deviceId: "dev2", role: "operator") != nil)
    }

    @Test func readsAFileWrittenByTheOfficialClient() throws {
        let dir = ConfigTestDirectory()
        dir.write("state/identity/device-auth.json", """
            {
              "version": 1,
              "deviceId": "abc",
              "tokens": {
                "operator": {
                  "token": "dt_official",
                  "role": "operator",
                  "scopes": ["operator.admin", "operator.read"],
                  "updatedAtMs": 1737264000000
                },
                "broken": { "token": 5 }
              }
            }
            """)
        let store = DeviceAuthStore(stateDirectory: dir.sub("state"))
        let entry = try #require(store.token(deviceId: "abc", role: "operator"))
        #expect(entry.token == Secret("dt_official"))
        #expect(entry.updatedAtMs == 1_737_264_000_000)
        #expect(store.token(deviceId: "abc", role: "broken") == nil)
    }

    @Test func corruptStoreReadsAsEmptyAndIsReplacedOnSave() throws {
        let dir = ConfigTestDirectory()
        dir.write("state/identity/device-auth.json", "{ nope")
        let store = DeviceAuthStore(stateDirectory: dir.sub("state"))
        #expect(store.token(deviceId: "d", role: "operator") == nil)
        try store.save(deviceId: "d", role: "operator", token: Secret("t"), scopes: [])
        #expect(store.token(deviceId: "d", role: "operator")?.token.value == "t")
    }
}
