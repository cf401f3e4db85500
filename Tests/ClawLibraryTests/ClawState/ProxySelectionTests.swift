import Testing
@_spi(Engine) @testable import ClawSystem
@_spi(Engine) @testable import ClawTransport
@_spi(Engine) @testable import ClawState

/// Which proxy a connection takes: OpenClaw's managed proxy, the usual variables, NO_PROXY, loopback.
@Suite struct ProxySelectionTests {
    let secure = WebSocketURL(isSecure: true, host: "gateway.example.com", port: 443)
    let plain = WebSocketURL(isSecure: false, host: "gateway.example.com", port: 18789)
    let loopback = WebSocketURL(isSecure: false, host: "127.0.0.1", port: 18789)

    func fromEnvironment(_ url: WebSocketURL, _ values: [String: String]) throws -> ProxyEndpoint? {
        try ProxySelection.fromEnvironment(url: url, environment: Environment(values))
    }

    @Test func eachSchemeReadsItsOwnVariableThenAllProxy() throws {
        let both = ["HTTPS_PROXY": "http://secure:3128", "HTTP_PROXY": "http://plain:3128", "ALL_PROXY": "socks5h://all:1080"]
        #expect(try fromEnvironment(secure, both)?.host == "secure")
        #expect(try fromEnvironment(plain, both)?.host == "plain")
        #expect(try fromEnvironment(secure, ["ALL_PROXY": "socks5h://all:1080", "HTTP_PROXY": "http://plain:3128"])?.description == "socks5h://all:1080")
        #expect(try fromEnvironment(plain, ["HTTPS_PROXY": "http://secure:3128"]) == nil)
    }

    @Test func lowerCaseNamesWinAsInCurlAndEmptyValuesAreUnset() throws {
        let chosen = try fromEnvironment(secure, ["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"])
        #expect(chosen?.host == "lower" && chosen?.source == "https_proxy")
        #expect(try fromEnvironment(secure, ["https_proxy": " ", "HTTPS_PROXY": "http://upper:2"])?.host == "upper")
    }

    @Test func loopbackIsNeverProxiedThroughTheVariables() throws {
        for host in ["127.0.0.1", "localhost", "::1", "127.1.2.3"] {
            let url = WebSocketURL(isSecure: false, host: host, port: 18789)
            #expect(try fromEnvironment(url, ["HTTP_PROXY": "http://proxy:3128", "ALL_PROXY": "http://proxy:3128"]) == nil)
        }
    }

    @Test func noProxyMatchesNamesSubdomainsAddressesRangesPortsAndStar() {
        let cases: [(String, Int, String, Bool)] = [
            ("gateway.example.com", 443, "example.com", true),
            ("gateway.example.com", 443, ".example.com", true),
            ("gateway.example.com", 443, "*.example.com", true),
            ("example.com", 443, ".example.com", true),
            ("gateway.example.com", 443, "ample.com", false),
            ("gateway.example.com", 443, "other.org, GATEWAY.example.com.", true),
            ("gateway.example.com", 443, "gateway.example.com:8443", false),
            ("gateway.example.com", 443, "gateway.example.com:443", true),
            ("10.1.2.3", 18789, "10.0.0.0/8", true),
            ("11.1.2.3", 18789, "10.0.0.0/8", false),
            ("10.1.2.3", 18789, "10.1.2.3", true),
            ("anything", 1, "*", true),
            ("gateway.example.com", 443, "", false),
        ]
        for (host, port, list, expected) in cases {
            #expect(ProxySelection.bypasses(host: host, port: port, list: list) == expected, "\(host):\(port) against \(list)")
        }
    }

    @Test func noProxyNamingTheGatewayConnectsDirectly() throws {
        #expect(try fromEnvironment(secure, ["HTTPS_PROXY": "http://proxy:3128", "no_proxy": "example.com"]) == nil)
        #expect(try fromEnvironment(secure, ["HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": "*"]) == nil)
    }

    @Test func proxyURLsParseWithDefaultPortsCredentialsAndIPv6() throws {
        let full = try ProxyEndpoint.parse("http://alice:s%40cret@proxy.corp:8080/", source: "HTTPS_PROXY")
        #expect(full.scheme == .http && full.host == "proxy.corp" && full.port == 8080)
        #expect(full.username == "alice" && full.password == "s@cret")
        #expect("\(full)" == "http://proxy.corp:8080")
        #expect(try ProxyEndpoint.parse("proxy.corp", source: "x").port == 80)
        #expect(try ProxyEndpoint.parse("socks5://proxy.corp", source: "x").port == 1080)
        #expect(try ProxyEndpoint.parse("SOCKS5H://[::1]:9050", source: "x").authority == "[::1]:9050")
        #expect(try ProxyEndpoint.parse("https://proxy.corp", source: "x").port == 443)
    }

    @Test func aBadProxyURLIsASentenceThatNeverRepeatsIt() {
        for text in ["ftp://user:hunter2@proxy:21", "http://user:hunter2@proxy:99999", "http://user:hunter2@proxy:3128/path",
                     "http://user:hunter2%zz@proxy:3128", ""] {
            #expect(throws: ProxyURLProblem.self) { try ProxyEndpoint.parse(text, source: "x") }
            do { _ = try ProxyEndpoint.parse(text, source: "x") } catch {
                #expect(!error.description.contains("hunter2"))
            }
        }
        #expect(throws: ConfigError.self) { try fromEnvironment(secure, ["HTTPS_PROXY": "gopher://proxy"]) }
    }

    // MARK: OpenClaw's managed proxy

    func managed(_ config: String, url: WebSocketURL, environment: [String: String] = [:]) throws -> ProxyEndpoint? {
        let file = try GatewayConfigFile.parse(Array(config.utf8), path: "/state/openclaw.json")
        return try ProxySelection.choose(url: url, config: file, configPath: "/state/openclaw.json", environment: Environment(environment))
    }

    @Test func proxyUrlWinsOverTheVariableAndTheUsualVariablesAreIgnored() throws {
        let both = try managed(#"{proxy:{enabled:true,proxyUrl:"http://configured:3128"}}"#, url: secure,
                               environment: ["OPENCLAW_PROXY_URL": "http://variable:3128", "HTTPS_PROXY": "http://other:1",
                                             "NO_PROXY": "*"])
        #expect(both?.host == "configured" && both?.source == "proxy.proxyUrl in /state/openclaw.json")
        let variable = try managed(#"{proxy:{enabled:true}}"#, url: secure, environment: ["OPENCLAW_PROXY_URL": "http://variable:3128"])
        #expect(variable?.host == "variable" && variable?.source == "OPENCLAW_PROXY_URL")
        #expect(try managed(#"{proxy:{enabled:false,proxyUrl:"http://configured:3128"}}"#, url: secure) == nil)
    }

    @Test func enabledWithoutAURLFailsClosed() {
        #expect(throws: ConfigError.proxyURLMissing(path: "/state/openclaw.json")) {
            try managed(#"{proxy:{enabled:true}}"#, url: secure, environment: ["HTTPS_PROXY": "http://other:1"])
        }
    }

    @Test func loopbackModesDecideTheLocalGateway() throws {
        #expect(try managed(#"{proxy:{enabled:true,proxyUrl:"http://p:3128"}}"#, url: loopback) == nil)
        #expect(try managed(#"{proxy:{enabled:true,proxyUrl:"http://p:3128",loopbackMode:"proxy"}}"#, url: loopback)?.host == "p")
        #expect(throws: ConfigError.proxyBlocksLoopback(url: "\(loopback)", path: "/state/openclaw.json")) {
            try managed(#"{proxy:{enabled:true,proxyUrl:"http://p:3128",loopbackMode:"block"}}"#, url: loopback)
        }
        #expect(throws: ConfigError.self) { try managed(#"{proxy:{enabled:true,proxyUrl:"http://p:3128",loopbackMode:"never"}}"#, url: loopback) }
    }

    @Test func theManagedProxyIsHTTPOrHTTPSAndItsCAFileIsKept() throws {
        #expect(throws: ConfigError.self) { try managed(#"{proxy:{enabled:true,proxyUrl:"socks5://p:1080"}}"#, url: secure) }
        let https = try managed(#"{proxy:{enabled:true,proxyUrl:"https://p:3129",tls:{caFile:"/ca.pem"}}}"#, url: secure)
        #expect(https?.scheme == .https && https?.port == 3129 && https?.caFile == "/ca.pem")
    }
}
