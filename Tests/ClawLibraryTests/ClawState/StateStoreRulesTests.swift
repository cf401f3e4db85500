import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawCrypto
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawState

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

    @Test func whichLayoutAStateDirectoryHas() {
        let dir = ConfigTestDirectory()
        let database = StateDatabase(path: dir.sub("state/state/openclaw.sqlite"))
        // Nothing at all, or a config file only: the database, to be created as a native client does.
        #expect(StateLayout(stateDirectory: dir.sub("state")) == .database(database))
        dir.write("state/openclaw.json", "{}")
        #expect(StateLayout(stateDirectory: dir.sub("state")) == .database(database))
        // An install older than the database: either identity file keeps the files.
        dir.write("state/identity/device-auth.json", "{}")
        #expect(StateLayout(stateDirectory: dir.sub("state")) == .files)
        let other = ConfigTestDirectory()
        other.write("s/identity/device.json", "{}")
        #expect(StateLayout(stateDirectory: other.sub("s")) == .files)
        // The database wins over leftover files (which the identity then refuses, as the official tools do).
        dir.write("state/state/openclaw.sqlite", "")
        #expect(StateLayout(stateDirectory: dir.sub("state")) == .database(database))
    }

    @Test(arguments: [
        ([:], "/tmp"),
        (["TMPDIR": "/var/tmp/"], "/var/tmp"),
        (["TMPDIR": "", "TMP": "/t1", "TEMP": "/t2"], "/t1"),
        (["TEMP": "/t2"], "/t2"),
        (["TMPDIR": "/"], "/"),
        (["TMPDIR": " /spaced "], " /spaced "),
    ])
    func theLockDirectoryIsNodesTmpdir(_ variables: [String: String], _ expected: String) {
        #expect(IdentityCreationLock.temporaryDirectory(Environment(variables)) == expected)
    }

    @Test func theLockFilesAreNamedAfterTheCanonicalDatabasePath() throws {
        let dir = ConfigTestDirectory()
        dir.mkdir("real")
        #expect(symlink(dir.sub("real"), dir.sub("link")) == 0)
        let canonical = try #require(FileSystem.realPath(dir.sub("real"))) + "/state/state/openclaw.sqlite"
        let name = "device-identity." + Hex.encode(Digest.sha256(Array(canonical.utf8))).prefix(8) + ".lock.sqlite"
        let paths = IdentityCreationLock.paths(databasePath: dir.sub("link/state/state/openclaw.sqlite"),
                                               stateDirectory: dir.sub("link/state"), temporaryDirectory: "/var/tmp/",
                                               userID: 1000)
        #expect(paths == ["/var/tmp/openclaw-1000/" + name,
                          try #require(FileSystem.realPath(dir.sub("real"))) + "/state/tmp/openclaw-1000/" + name])
        // The temporary directory inside the state directory: one lock, taken once.
        let same = IdentityCreationLock.paths(databasePath: dir.sub("real/state/state/openclaw.sqlite"),
                                              stateDirectory: dir.sub("real/state"), temporaryDirectory: dir.sub("link/state/tmp"),
                                              userID: 7)
        #expect(same.count == 1)
    }
}
