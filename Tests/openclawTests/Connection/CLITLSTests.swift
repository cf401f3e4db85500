import Foundation
import Testing

/// `wss://` end to end: the simulator serves TLS with a certificate the test makes with openssl (`TestCertificate`).
@Suite struct CLITLSTests {
    @Test func wssWithCABundlePinningAndAnUntrustedCertificate() throws {
        let certificate = try TestCertificate()
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--tls-cert", certificate.cert, "--tls-key", certificate.key])
        #expect(simulator.url.hasPrefix("wss://"))
        let cli = CLIEnvironment(url: simulator.url, token: GatewayFixture.token)

        let trusted = try cli.run(["history", "--cacert", certificate.cert])
        #expect(trusted.status == 0, "\(trusted.stderr)")

        let pinned = try cli.run(["history", "--tls-fingerprint", try certificate.fingerprint()])
        #expect(pinned.status == 0, "\(pinned.stderr)")

        let untrusted = try cli.run(["history"])
        #expect(untrusted.status == 3)
        #expect(untrusted.stderr.contains("certificate verify failed") && untrusted.stderr.contains("--cacert"))

        let wrongPin = try cli.run(["history", "--tls-fingerprint", String(repeating: "AB:", count: 31) + "AB"])
        #expect(wrongPin.status == 3)
        #expect(wrongPin.stderr.contains("fingerprint mismatch"))
    }
}
