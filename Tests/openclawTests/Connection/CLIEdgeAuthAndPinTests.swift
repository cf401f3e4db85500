import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// A gateway behind an identity-aware proxy (`gateway.remote.edgeAuth`) and TLS pins in the forms
/// the official config uses, end to end: the simulator serves `wss://` and, with `--edge-auth`,
/// answers an upgrade without the proxy's headers as Cloudflare Access does (302 to a login page).
@Suite struct CLIEdgeAuthAndPinTests {
    static let secret = "edge-s3cret-9c1f"

    /// A CLI environment with no gateway variables and `config` as its official `openclaw.json`.
    func environment(config: JSONValue) throws -> CLIEnvironment {
        var cli = CLIEnvironment()
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        try Data(config.prettyText.utf8).write(to: cli.stateDirectory.appendingPathComponent("openclaw.json"))
        cli.variables["CF_ACCESS_SECRET"] = Self.secret
        return cli
    }

    func remoteConfig(url: String, pin: String?, edgeAuth: JSONValue?) -> JSONValue {
        var remote: JSONObject = ["url": .string(url), "token": .string(GatewayFixture.token)]
        if let pin { remote["tlsFingerprint"] = .string(pin) }
        if let edgeAuth { remote["edgeAuth"] = edgeAuth }
        return ["gateway": ["mode": "remote", "remote": .object(remote)]]
    }

    static let edgeAuth: JSONValue = [
        "CF-Access-Client-Id": "client-7",
        "CF-Access-Client-Secret": ["source": "env", "provider": "default", "id": "CF_ACCESS_SECRET"],
    ]

    /// `sha256:` and 64 lower-case hex digits, as the official docs write pins.
    func officialPin(_ certificate: TestCertificate) throws -> String {
        "sha256:" + (try certificate.fingerprint()).replacingOccurrences(of: ":", with: "").lowercased()
    }

    func upgradeHeaderNames(_ simulator: SimulatorProcess) -> [[String]] {
        simulator.logEntries().filter { $0["dir"]?.stringValue == "upgrade" }
            .map { $0["frame"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    }

    @Test func edgeAuthHeadersGetThroughTheProxyAndAreNeverShown() throws {
        let certificate = try TestCertificate()
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--tls-cert", certificate.cert,
                                              "--tls-key", certificate.key, "--edge-auth", "CF-Access-Client-Id=client-7",
                                              "--edge-auth", "CF-Access-Client-Secret=\(Self.secret)"])
        let cli = try environment(config: remoteConfig(url: simulator.url, pin: try officialPin(certificate), edgeAuth: Self.edgeAuth))
        let result = try cli.run(["history", "--trace"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(Self.secret) && !result.stderr.contains(Self.secret))
        let names = try #require(upgradeHeaderNames(simulator).last)
        #expect(names.contains("CF-Access-Client-Id") && names.contains("CF-Access-Client-Secret"), "\(names)")
    }

    @Test func withoutEdgeAuthTheProxysRedirectIsOneLineWithTheHint() throws {
        let certificate = try TestCertificate()
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--tls-cert", certificate.cert,
                                              "--tls-key", certificate.key, "--edge-auth", "CF-Access-Client-Id=client-7"])
        let bare = try environment(config: remoteConfig(url: simulator.url, pin: try officialPin(certificate), edgeAuth: nil))
        let result = try bare.run(["history"])
        #expect(result.status == 3)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("HTTP 302") && result.stderr.contains("give it the headers it needs in gateway.remote.edgeAuth"))

        let wrong = try environment(config: remoteConfig(url: simulator.url, pin: try officialPin(certificate),
                                                         edgeAuth: ["CF-Access-Client-Id": "someone-else"]))
        let refused = try wrong.run(["history"])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("refused the headers of gateway.remote.edgeAuth") && !refused.stderr.contains("someone-else"))
    }

    @Test func edgeAuthGoesOnlyToTheConfiguredOriginAndOnlyOverWSS() throws {
        let certificate = try TestCertificate()
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--tls-cert", certificate.cert, "--tls-key", certificate.key])
        // The configured gateway is elsewhere: a --url to this one gets no edge-auth headers.
        let elsewhere = try environment(config: remoteConfig(url: "wss://gateway.example", pin: nil, edgeAuth: Self.edgeAuth))
        let other = try elsewhere.run(["history", "--url", simulator.url, "--token", GatewayFixture.token,
                                       "--tls-fingerprint", try certificate.fingerprint()])
        #expect(other.status == 0, "\(other.stderr)")
        let names = try #require(upgradeHeaderNames(simulator).last)
        #expect(!names.contains { $0.lowercased().hasPrefix("cf-access") }, "\(names)")

        // A ws:// gateway in the configured scope would get them in clear text: refused.
        let plain = try SimulatorProcess(["--token", GatewayFixture.token])
        let clear = try environment(config: remoteConfig(url: plain.url, pin: nil, edgeAuth: Self.edgeAuth))
        let refused = try clear.run(["history"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("gateway.remote.edgeAuth requires a wss:// gateway URL"), "\(refused.stderr)")
        #expect(upgradeHeaderNames(plain).isEmpty)
    }

    @Test func badEdgeAuthHeadersAreConfigErrors() throws {
        for (edgeAuth, words) in [(["Host": "x"] as JSONValue, "which the WebSocket upgrade sets itself"),
                                  (["Bad Name": "x"], "is not one"),
                                  (["X-A": "1", "x-a": "2"], "differ by more than case"),
                                  ([:], "non-empty object")] {
            let cli = try environment(config: remoteConfig(url: "wss://127.0.0.1:9", pin: nil, edgeAuth: edgeAuth))
            let result = try cli.run(["history"])
            #expect(result.status == 2, "\(edgeAuth)")
            #expect(result.stderr.contains(words), "\(result.stderr)")
        }
    }

    @Test func pinsInTheOfficialFormsAndWhereTheyApply() throws {
        let certificate = try TestCertificate()
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--tls-cert", certificate.cert, "--tls-key", certificate.key])
        let colons = "SHA256:" + (try certificate.fingerprint())
        for pin in [try officialPin(certificate), colons] {
            let cli = try environment(config: remoteConfig(url: simulator.url, pin: pin, edgeAuth: nil))
            #expect(try cli.run(["history"]).status == 0, "\(pin)")
            // OPENCLAW_GATEWAY_URL in remote mode keeps the config's pin too.
            var viaEnvironment = cli
            viaEnvironment.variables["OPENCLAW_GATEWAY_URL"] = simulator.url
            viaEnvironment.variables["OPENCLAW_GATEWAY_TOKEN"] = GatewayFixture.token
            #expect(try viaEnvironment.run(["history"]).status == 0, "\(pin)")
        }
        let short = try environment(config: remoteConfig(url: simulator.url, pin: String((try officialPin(certificate)).dropLast()), edgeAuth: nil))
        let invalid = try short.run(["history"])
        #expect(invalid.status == 2 && invalid.stderr.contains("expected a SHA-256 certificate fingerprint"), "\(invalid.stderr)")

        let plain = try SimulatorProcess(["--token", GatewayFixture.token])
        let clear = try environment(config: remoteConfig(url: plain.url, pin: try officialPin(certificate), edgeAuth: nil))
        let refused = try clear.run(["history"])
        #expect(refused.status == 2 && refused.stderr.contains("needs a wss:// gateway URL"), "\(refused.stderr)")
    }

    @Test func aLocalWSSGatewayIsPinnedFromItsOwnCertificate() throws {
        let certificate = try TestCertificate()
        let simulator = try SimulatorProcess(["--token", GatewayFixture.token, "--tls-cert", certificate.cert, "--tls-key", certificate.key])
        let port = try #require(Int(simulator.url.split(separator: ":").last.map(String.init) ?? ""))
        let local: JSONValue = ["gateway": ["port": JSONValue(port), "auth": ["token": .string(GatewayFixture.token)],
                                            "tls": ["enabled": true, "certPath": .string(certificate.cert)]]]
        let cli = try environment(config: local)
        let result = try cli.run(["history"])
        #expect(result.status == 0, "\(result.stderr)")
        // Without the certificate file there is nothing to pin: the self-signed certificate is refused.
        let missing: JSONValue = ["gateway": ["port": JSONValue(port), "auth": ["token": .string(GatewayFixture.token)],
                                              "tls": ["enabled": true, "certPath": "/nonexistent/cert.pem"]]]
        let unpinned = try environment(config: missing).run(["history"])
        #expect(unpinned.status == 3 && unpinned.stderr.contains("certificate verify failed"), "\(unpinned.stderr)")
    }
}
