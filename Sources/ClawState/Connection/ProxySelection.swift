@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport

/// Which forward proxy, if any, a connection to the gateway goes through. Two sources, the first that
/// applies wins:
/// 1. OpenClaw's managed proxy, read as the official runtime reads it: `proxy.enabled` true routes through
///    `proxy.proxyUrl`, else `OPENCLAW_PROXY_URL` (an `http://` or `https://` URL); enabled with neither
///    fails closed. `proxy.loopbackMode`: `gateway-only` (the default: a loopback gateway URL connects
///    directly), `proxy` (loopback too), `block` (a loopback gateway URL is refused). While it is enabled
///    the variables below and `NO_PROXY` are ignored, as the official runtime clears them.
/// 2. The variables every Unix tool reads (curl's names and order, Go's rule for loopback): `https_proxy`,
///    `HTTPS_PROXY` for `wss://`; `http_proxy`, `HTTP_PROXY` for `ws://`; then `all_proxy`, `ALL_PROXY`;
///    `no_proxy`/`NO_PROXY` lists hosts to reach directly; a loopback gateway host is never proxied.
@_spi(Engine) public enum ProxySelection {
    @_spi(Engine) public static func choose(url: WebSocketURL, config: GatewayConfigFile, configPath: String,
                                            environment: Environment) throws(ConfigError) -> ProxyEndpoint? {
        if try config.bool("proxy", "enabled") == true {
            return try managed(url: url, config: config, configPath: configPath, environment: environment)
        }
        return try fromEnvironment(url: url, environment: environment)
    }

    static func managed(url: WebSocketURL, config: GatewayConfigFile, configPath: String,
                        environment: Environment) throws(ConfigError) -> ProxyEndpoint? {
        let mode = try config.string("proxy", "loopbackMode", environment: environment) ?? "gateway-only"
        guard ["gateway-only", "proxy", "block"].contains(mode) else {
            throw .configInvalid(path: configPath, key: "proxy.loopbackMode", expected: "\"gateway-only\", \"proxy\" or \"block\"")
        }
        let text: String
        let source: SettingSource
        if let configured = TextTrim.nonEmpty(try config.string("proxy", "proxyUrl", environment: environment)) {
            (text, source) = (configured, .configKey("proxy.proxyUrl", path: configPath))
        } else if let (name, value) = environment.firstTrimmed("OPENCLAW_PROXY_URL") {
            (text, source) = (value, .environment(name))
        } else {
            throw .proxyURLMissing(path: configPath)
        }
        var endpoint = try parse(text, source: source, schemeRequired: true)
        guard endpoint.scheme == .http || endpoint.scheme == .https else {
            throw .invalidProxyURL(source: source, problem: "must be an http:// or https:// URL (OpenClaw's managed proxy)")
        }
        endpoint.caFile = try config.string("proxy", "tls", "caFile", environment: environment)
            .flatMap(TextTrim.nonEmpty).map { StatePaths.expandUser($0, environment: environment) }
        guard PlaintextWebSocketPolicy.isLoopback(url.host) else { return endpoint }
        switch mode {
        case "block": throw .proxyBlocksLoopback(url: "\(url)", path: configPath)
        case "proxy": return endpoint
        default: return nil
        }
    }

    @_spi(Engine) public static func fromEnvironment(url: WebSocketURL, environment: Environment) throws(ConfigError) -> ProxyEndpoint? {
        if PlaintextWebSocketPolicy.isLoopback(url.host) { return nil }
        let own = url.isSecure ? ["https_proxy", "HTTPS_PROXY"] : ["http_proxy", "HTTP_PROXY"]
        guard let (name, text) = (own + ["all_proxy", "ALL_PROXY"]).lazy.compactMap({ name in
            environment.trimmed(name).map { (name, $0) }
        }).first else { return nil }
        if let (_, list) = environment.firstTrimmed("no_proxy", "NO_PROXY"), bypasses(host: url.host, port: url.port, list: list) {
            return nil
        }
        return try parse(text, source: .environment(name))
    }

    private static func parse(_ text: String, source: SettingSource,
                              schemeRequired: Bool = false) throws(ConfigError) -> ProxyEndpoint {
        let label = source.label(option: { _ in "" })
        do throws(ProxyURLProblem) {
            return try ProxyEndpoint.parse(text, source: label, schemeRequired: schemeRequired)
        } catch {
            throw .invalidProxyURL(source: source, problem: error.description)
        }
    }

    /// `NO_PROXY`: comma-separated entries, `*` for every host; a name matches itself and its subdomains
    /// (a leading `.` or `*.` changes nothing, as in curl); an IPv4 address or CIDR range matches address
    /// literals; `host:port` only that port.
    @_spi(Engine) public static func bypasses(host: String, port: Int, list: String) -> Bool {
        let target = PlaintextWebSocketPolicy.normalized(host)
        for raw in list.split(separator: ",") {
            var entry = PlaintextWebSocketPolicy.normalized(TextTrim.trimmed(String(raw)))
            if entry.isEmpty { continue }
            if entry == "*" { return true }
            if let colon = entry.lastIndex(of: ":"), !entry[..<colon].contains(":"), let only = Int(entry[entry.index(after: colon)...]) {
                guard only == port else { continue }
                entry = String(entry[..<colon])
            }
            if let slash = entry.firstIndex(of: "/") {
                if let network = ipv4(entry[..<slash]), let bits = Int(entry[entry.index(after: slash)...]), (0...32).contains(bits),
                   let address = ipv4(Substring(target)) {
                    let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
                    if address & mask == network & mask { return true }
                }
                continue
            }
            if entry.hasPrefix("*.") { entry.removeFirst(2) } else if entry.hasPrefix(".") { entry.removeFirst() }
            if target == entry || target.hasSuffix("." + entry) { return true }
        }
        return false
    }

    /// An IPv4 address as one number, for range checks.
    private static func ipv4(_ text: Substring) -> UInt32? {
        PlaintextWebSocketPolicy.ipv4(String(text)).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }
}
