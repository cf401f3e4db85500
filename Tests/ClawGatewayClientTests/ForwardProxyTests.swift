import Testing
import Glibc
import ClawGatewayClient
import ClawGatewayTesting

// Inside ClientLibraryTests (serialized): its suites count the process's I/O threads.
extension ClientLibraryTests {
    /// The library through a real SOCKS5 server (Debian's microsocks), as a program configures it:
    /// `GatewayConfiguration.proxy`, one-shot connections, a long-lived client across a proxy restart,
    /// and the errors a program decides on.
    @Suite(.enabled(if: SOCKSProxy.isInstalled, "needs microsocks (scripts/install-deps.sh test)"))
    struct ForwardProxy {
        @Test func aConnectionGoesThroughTheProxy() async throws {
            let fixture = try GatewayFixture()
            let proxy = try SOCKSProxy()
            var configuration = fixture.configuration
            configuration.proxy = .url(Secret(proxy.url))
            let history = try await GatewayConnection.withConnection(configuration) { connection in
                _ = try await connection.send("through the proxy", to: .main).reply()
                return try await connection.history(of: .main, limit: 2)
            }
            #expect(history.contains { $0.text == "through the proxy" })
            #expect(proxy.connections(to: "127.0.0.1:\(fixture.gateway.port)") == 1)
        }

        @Test func directIgnoresTheProxyAndAutomaticNeverProxiesLoopback() async throws {
            let fixture = try GatewayFixture()
            let proxy = try SOCKSProxy()
            // A proxy in the environment, as a user's shell may have one (this suite runs serialized).
            setenv("ALL_PROXY", proxy.url, 1)
            setenv("all_proxy", proxy.url, 1)
            defer { unsetenv("ALL_PROXY"); unsetenv("all_proxy") }
            for choice in [GatewayProxy.direct, .automatic] {
                var configuration = fixture.configuration
                configuration.proxy = choice
                let health = try await GatewayConnection.withConnection(configuration) { try await $0.request("health") }
                #expect(health["ok"]?.boolValue == true, "\(choice)")
            }
            #expect(proxy.connections(to: "127.0.0.1:\(fixture.gateway.port)") == 0)
        }

        @Test func theClientReconnectsThroughTheProxyAfterTheProxyRestarts() async throws {
            let fixture = try GatewayFixture()
            let proxy = try SOCKSProxy()
            var configuration = fixture.configuration
            configuration.proxy = .url(Secret(proxy.url))
            configuration.reconnect = ReconnectPolicy(initialDelay: .milliseconds(50), maximumDelay: .milliseconds(200))
            let client = GatewayClient(configuration: configuration)
            let states = client.states()
            let running = Task { try await client.run() }
            let target = "127.0.0.1:\(fixture.gateway.port)"
            _ = try await client.request("health")  // connected, through the proxy
            #expect(proxy.connections(to: target) == 1)
            proxy.stop()  // the tunnel is cut; reconnects fail until the proxy is back
            #expect(await eventually { fixture.gateway.connectionCount == 0 })
            try proxy.start()
            #expect(await eventually { proxy.connections(to: target) == 2 && fixture.gateway.connectionCount == 1 })
            _ = try await client.request("health")
            running.cancel()
            try await running.value
            var seen: [ConnectionState] = []
            for await state in states { seen.append(state) }
            #expect(seen.filter { $0 == .connected }.count == 2, "\(seen)")
            #expect(await eventually { ioThreadCount() == 0 })
        }

        @Test func anUnreachableProxyIsARetryableProxyFailureNamingIt() async throws {
            let fixture = try GatewayFixture()
            let port = freePort()
            var configuration = fixture.configuration
            configuration.proxy = .url(Secret("socks5://user:hunter2@127.0.0.1:\(port)"))
            let error = await #expect(throws: GatewayClientError.self) {
                try await GatewayConnection.withConnection(configuration) { _ in }
            }
            #expect(error?.code == .proxyFailed)
            #expect(error?.isRetryable == true)
            #expect(error?.description.contains("proxy 127.0.0.1:\(port)") == true)
            #expect(error?.description.contains("hunter2") == false)
        }

        @Test func refusedCredentialsAreAProxyFailureForSomeoneToFix() async throws {
            let fixture = try GatewayFixture()
            let proxy = try SOCKSProxy(credentials: ("alice", "right-password"))
            var configuration = fixture.configuration
            configuration.proxy = .url(Secret("socks5://alice:wrong-password@127.0.0.1:\(proxy.port)"))
            let error = await #expect(throws: GatewayClientError.self) {
                try await GatewayConnection.withConnection(configuration) { _ in }
            }
            #expect(error?.code == .proxyFailed)
            #expect(error?.isRetryable == false)
            #expect(error?.description.contains("password") == false)
            configuration.proxy = .url(Secret(proxy.url))
            _ = try await GatewayConnection.withConnection(configuration) { try await $0.request("health") }
        }

        @Test func aMalformedProxyURLIsAConfigurationErrorThatDoesNotRepeatIt() async throws {
            var configuration = GatewayConfiguration(url: "ws://127.0.0.1:1")
            configuration.proxy = .url(Secret("gopher://user:hunter2@proxy"))
            let error = await #expect(throws: GatewayClientError.self) {
                try await GatewayConnection.withConnection(configuration) { _ in }
            }
            #expect(error?.code == .invalidConfiguration && error?.configurationProblem == .proxy)
            #expect(error?.description.contains("hunter2") == false)
        }
    }
}
