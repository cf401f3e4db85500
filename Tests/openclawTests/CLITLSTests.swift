import Foundation
import Testing

/// `wss://` end to end: the simulator serves TLS with a certificate the test makes with openssl.
@Suite struct CLITLSTests {
    struct Certificate {
        let directory: URL
        var cert: String { directory.appendingPathComponent("cert.pem").path }
        var key: String { directory.appendingPathComponent("key.pem").path }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                              "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                              "-days", "2", "-keyout", directory.appendingPathComponent("key.pem").path,
                              "-out", directory.appendingPathComponent("cert.pem").path])
        }

        /// `AA:BB:…` SHA-256 of the certificate, as `openssl x509 -fingerprint` prints it.
        func fingerprint() throws -> String {
            let line = try Self.openssl(["x509", "-noout", "-fingerprint", "-sha256", "-in", cert])
            return String(line.split(separator: "=").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        }

        @discardableResult
        static func openssl(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = Pipe()
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CLIProcessError(description: "openssl \(arguments[0]) failed") }
            return String(decoding: data, as: UTF8.self)
        }
    }

    @Test func wssWithCABundlePinningAndAnUntrustedCertificate() throws {
        let certificate = try Certificate()
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
