import Foundation
import Testing
import ClawGatewayClient

// Inside ClientLibraryTests (serialized): its suites count the process's I/O threads.
extension ClientLibraryTests {
    /// `GatewayConfiguration.proxy = .url(…)` takes a URL: one without a scheme is a configuration error
    /// that no retry can fix, not a proxy host named `garbage` that fails, retryably, on every attempt.
    /// No proxy is needed: the error comes before any socket is opened.
    @Suite struct ProxyURLScheme {
        @Test(arguments: ["garbage", "proxy.corp:3128", "user:hunter2@proxy.corp:3128", "  proxy.corp  "])
        func aProxyURLWithoutASchemeIsAnInvalidConfiguration(_ text: String) async throws {
            var configuration = GatewayConfiguration(url: "wss://192.0.2.1:18789")
            configuration.proxy = .url(Secret(text))
            configuration.connectTimeout = .seconds(5)
            let error = await #expect(throws: GatewayClientError.self) {
                try await GatewayConnection.withConnection(configuration) { _ in }
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.configurationProblem == .proxy)
            #expect(error?.isRetryable == false)
            #expect(error?.description.contains("scheme") == true)
            #expect(error?.description.contains("hunter2") == false)
        }

        @Test func aLongLivedClientStopsAtOnceOnAProxyURLWithoutAScheme() async throws {
            var configuration = GatewayConfiguration(url: "wss://192.0.2.1:18789")
            configuration.proxy = .url(Secret("garbage"))
            configuration.reconnect = ReconnectPolicy(initialDelay: .seconds(30), maximumDelay: .seconds(30), maxAttempts: 5)
            let client = GatewayClient(configuration: configuration)
            let error = await #expect(throws: GatewayClientError.self) { try await client.run() }
            #expect(error?.code == .invalidConfiguration)
        }

        /// OpenClaw's managed proxy takes a URL too (`proxy.proxyUrl`, `OPENCLAW_PROXY_URL`): `official()`
        /// refuses one without a scheme, as the official runtime does, instead of proxying through a host of
        /// that name. (`HTTPS_PROXY` and the other variables keep curl's reading: no scheme is `http://`.)
        @Test func theManagedProxyURLNeedsASchemeToo() throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-scheme-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: state) }
            let environment = ["OPENCLAW_STATE_DIR": state.path, "OPENCLAW_GATEWAY_URL": "wss://gateway.example.com",
                               "OPENCLAW_GATEWAY_TOKEN": "t"]
            for (config, variable) in [(#"{proxy: {enabled: true, proxyUrl: "garbage"}}"#, nil),
                                       (#"{proxy: {enabled: true}}"#, "proxy.corp:3128")] {
                try config.write(to: state.appendingPathComponent("openclaw.json"), atomically: true, encoding: .utf8)
                var env = environment
                env["OPENCLAW_PROXY_URL"] = variable
                let error = #expect(throws: GatewayClientError.self) { try GatewayConfiguration.official(environment: env) }
                #expect(error?.code == .invalidConfiguration && error?.configurationProblem == .proxy)
                #expect(error?.isRetryable == false)
            }
            try #"{proxy: {enabled: true, proxyUrl: "http://proxy.corp:3128"}}"#
                .write(to: state.appendingPathComponent("openclaw.json"), atomically: true, encoding: .utf8)
            _ = try GatewayConfiguration.official(environment: environment)
        }
    }
}

extension ClientLibraryTests {
    /// The official client's plaintext rule, for a URL given in code: `ws://` to loopback; to a private
    /// network only with the opt-in; to a public host never; a name that does not resolve is that.
    @Suite struct PlaintextRule {
        static func refusal(_ configuration: GatewayConfiguration) async -> GatewayClientError? {
            await #expect(throws: GatewayClientError.self) {
                try await GatewayConnection.withConnection(configuration) { _ in }
            }
        }

        @Test func aPublicHostIsRefusedAndNoSettingIsOffered() async throws {
            let error = await Self.refusal(GatewayConfiguration(url: "ws://93.184.216.34:18789"))
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.configurationProblem == .insecureURL)
            #expect(error?.isRetryable == false)
            let text = error?.description ?? ""
            #expect(text.contains("(GatewayConfiguration.url)") && !text.contains("official(url:)"), "\(text)")
            #expect(text.contains("no setting allows plaintext") && !text.contains("OPENCLAW_ALLOW_INSECURE_PRIVATE_WS"), "\(text)")
        }

        @Test func aPrivateHostNamesTheOptInThatAllowsIt() async throws {
            var configuration = GatewayConfiguration(url: "ws://192.168.77.10:18789")
            let error = await Self.refusal(configuration)
            #expect(error?.configurationProblem == .insecureURL)
            #expect(error?.description.contains("allowsPlaintextOnPrivateNetwork") == true, "\(String(describing: error))")
            // With the opt-in the rule lets it through: what fails now is the connect itself.
            configuration.allowsPlaintextOnPrivateNetwork = true
            configuration.connectTimeout = .milliseconds(300)
            configuration.waits.limit = .milliseconds(300)
            let connect = await Self.refusal(configuration)
            #expect(connect != nil && connect?.code != .invalidConfiguration, "\(String(describing: connect))")
        }

        @Test func aNameThatDoesNotResolveIsHostUnresolvable() async throws {
            let error = await Self.refusal(GatewayConfiguration(url: "ws://gw.test:18789"))
            #expect(error?.code == .hostUnresolvable, "\(String(describing: error))")
            #expect(error?.isRetryable == true)
        }
    }
}

extension ClientLibraryTests {
    /// `official()` is converted once: a URL changed afterwards is refused, not dialled without the
    /// route, TLS, edge auth and token scope the resolution found for the configured one.
    @Suite struct OfficialConversion {
        @Test func aURLChangedAfterOfficialIsAConflictNotASilentDrop() async throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("official-url-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: state) }
            var configuration = try GatewayConfiguration.official(environment: [
                "OPENCLAW_STATE_DIR": state.path, "OPENCLAW_GATEWAY_URL": "ws://127.0.0.1:9", "OPENCLAW_GATEWAY_TOKEN": "t"])
            configuration.url = "ws://127.0.0.1:10"
            let error = await #expect(throws: GatewayClientError.self) {
                try await GatewayConnection.withConnection(configuration) { _ in }
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.configurationProblem == .conflictingSettings)
            #expect(error?.description.contains("official(url:)") == true)
        }
    }
}
