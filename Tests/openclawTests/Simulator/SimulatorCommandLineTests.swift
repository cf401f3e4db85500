import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// The simulator's own command line: bad flags, help, TLS.
@Suite(.serialized) struct SimulatorCommandLineTests {
    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = BuiltProducts.executable("openclaw-gateway-sim")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test(arguments: [["--bogus"], ["--port"], ["--port", "x"], ["--protocol", "5"], ["--reply", "loud"],
                      ["--fault", "explode"], ["--tls-cert", "a.pem"], ["--token", "a", "--password", "b"],
                      ["--history-fixture", "10"], ["--approve", "not-hex"], ["--script", "/nonexistent/script.json"],
                      ["--reply", "retry:0"], ["--reply", "retry:10"], ["--write-rate-limit", "0"], ["--write-rate-window-ms", "x"],
                      ["--attachment-max-bytes", "0"], ["--attachment-max-image-bytes"],
                      ["--suspend-reason", "napping"], ["--suspend-ms", "0"], ["--ping-ms", "x"], ["--pong-timeout-ms", "0"],
                      ["--operator-access-file"], ["--pairing-ttl-ms", "-1"], ["--fault", "restarting:x"], ["--fault", "close-1013:-1"]])
    func badFlagsExit2WithOneLine(_ arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("openclaw-gateway-sim: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpExits0AndListsTheFlags() throws {
        let result = try run(["--help"])
        #expect(result.status == 0)
        for flag in ["--port", "--protocol", "--token", "--tick-ms", "--fault", "--blast", "--history-fixture", "--require-pairing",
                     "--script", "deltaText", "$runId", "delayMs", "/stop", "retry:N", "--write-rate-limit",
                     "--write-rate-window-ms", "--attachment-max-bytes", "--attachment-max-image-bytes", "sessions.subscribe",
                     "sessions.messages.subscribe", "queueMode", "nextOffset", "maxBytes", "--suspended", "--suspend-reason",
                     "--suspend-ms", "SIGUSR1", "SIGUSR2", "--ping-ms", "--pong-timeout-ms", "--operator-access-file",
                     "OPERATOR_ACCESS_DENIED", "--pairing-wait-any-client", "--pairing-ttl-ms", "device-pairing-wait",
                     "device.pair.approve", "restarting:N", "close-1013:N"] {
            #expect(result.stdout.contains(flag))
        }
    }

    @Test func tlsServesWss() throws {
        let certificate = try TestCertificate(subjectAltName: nil, days: 1)
        defer { try? FileManager.default.removeItem(at: certificate.directory) }
        let cert = certificate.cert, key = certificate.key
        let sim = try SimulatorProcess(["--tls-cert", cert, "--tls-key", key])
        #expect(sim.url.hasPrefix("wss://127.0.0.1:"))
        // Pin the certificate so the self-signed leaf is accepted.
        let pem = try String(contentsOfFile: cert, encoding: .utf8)
        let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = Base64.decode(body) ?? []
        guard let url = WebSocketURL(sim.url) else { Issue.record("bad url"); return }
        let socket = try WebSocketConnection.connect(url: url, tls: TLSClientOptions(serverName: "localhost", pinnedSHA256: Digest.sha256(der)),
                                                     deadline: .after(seconds: 10))
        let message = try socket.receive(deadline: .after(seconds: 10))
        let frame = try JSONValue.parse(message?.bytes ?? [])
        #expect(frame["event"]?.stringValue == "connect.challenge")
    }
}
