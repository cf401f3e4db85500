import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// An operator the access policy grants nothing (`OPERATOR_ACCESS_DENIED`): its own error line, credentials kept, watch retries.
@Suite struct CLIAccessPolicyTests {
    func snapshot(_ directory: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if let data = try? Data(contentsOf: url) { files[url.path] = data }
        }
        return files
    }

    @Test func anOperatorWithoutAccessGetsItsOwnLineAndKeepsItsStoredCredentials() throws {
        let access = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: access) }
        try Data().write(to: access)
        let gateway = try GatewayFixture(["--operator-access-file", access.path])
        // The configured local gateway: its device token is kept in the state directory.
        let cli = CLIEnvironment()
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let config = "{ gateway: { mode: 'local', port: \(gateway.simulator.port), auth: { token: '\(GatewayFixture.token)' } } }\n"
        try Data(config.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        #expect(try cli.run(["history"]).status == 0)
        let before = snapshot(cli.stateDirectory)
        #expect(before.values.contains { $0.range(of: Data("dt_".utf8)) != nil }, "a device token is stored")

        try FileManager.default.removeItem(at: access)
        let denied = try cli.run(["history"])
        #expect(denied.status == 4, "\(denied.stderr)")
        #expect(denied.stdout.isEmpty)
        #expect(denied.stderr == "openclaw: error: access denied: the gateway accepted this device's credentials, but its access policy "
            + "grants it nothing; a gateway administrator must grant access (stored credentials are kept)\n")
        #expect(snapshot(cli.stateDirectory) == before, "nothing in the state directory changed")

        try Data().write(to: access)
        #expect(try cli.run(["history"]).status == 0)
    }

    @Test func watchKeepsAskingAnOperatorWithoutAccessAndGetsInOnceGranted() throws {
        let access = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: access) }
        let gateway = try GatewayFixture(["--operator-access-file", access.path])
        let watch = try gateway.cli.start(["watch", "--client-events", "--backoff-base", "0.05", "--backoff-max", "0.4"])
        #expect(watch.waitForStdout(#""code":"OPERATOR_ACCESS_DENIED""#, count: 3))
        try Data().write(to: access)
        #expect(watch.waitForStdout(#""event":"connected""#))
        watch.send(signal: SIGTERM)
        let result = watch.finish()
        #expect(result.status == 143, "\(result.stderr)")
        let failed = result.frames.filter { $0["event"]?.stringValue == "connect-failed" }
        #expect(failed.count >= 3)
        #expect(failed.allSatisfy { $0["code"] == "OPERATOR_ACCESS_DENIED" })
        let delays = failed.compactMap { $0["delayMs"]?.intValue }
        #expect(delays.count >= 3 && delays[1] > delays[0] && delays[2] > delays[1], "backoff grows: \(delays)")
        #expect(result.stderr.contains("access denied: "), "\(result.stderr)")
    }
}
