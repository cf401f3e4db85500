@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport
/// Whether plaintext `ws://` may go to a host, following the official Node client
/// (openclaw/openclaw `src/gateway/net.ts` `isSecureWebSocketUrl`): loopback only, unless
/// `OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1` also admits private-network hosts.
@_spi(Engine) public enum PlaintextWebSocketPolicy {
    /// `localhost`, 127.0.0.0/8, `::1` and IPv4-mapped 127.x.
    @_spi(Engine) public static func isLoopback(_ host: String) -> Bool {
        let h = normalized(host)
        if h == "localhost" || h.hasSuffix(".localhost") { return true }
        if let v4 = ipv4(h) { return v4[0] == 127 }
        if h == "::1" || h == "0:0:0:0:0:0:0:1" { return true }
        if h.hasPrefix("::ffff:"), let v4 = ipv4(String(h.dropFirst(7))) { return v4[0] == 127 }
        return false
    }

    /// Loopback, RFC 1918, CGNAT/Tailscale (100.64/10), link-local, IPv6 ULA/link-local,
    /// and names that only resolve on a private network (`.local`, `.ts.net`, `.internal`, `.lan`, `.home.arpa`).
    @_spi(Engine) public static func isPrivateOrLoopback(_ host: String) -> Bool {
        if isLoopback(host) { return true }
        let h = normalized(host)
        if let v4 = ipv4(h) {
            switch (v4[0], v4[1]) {
            case (10, _), (192, 168), (169, 254): return true
            case (172, 16...31): return true
            case (100, 64...127): return true
            default: return false
            }
        }
        if h.contains(":") {
            return h.hasPrefix("fc") || h.hasPrefix("fd") || h.hasPrefix("fe8") || h.hasPrefix("fe9")
                || h.hasPrefix("fea") || h.hasPrefix("feb")
        }
        for suffix in [".local", ".ts.net", ".internal", ".lan", ".home.arpa"] where h.hasSuffix(suffix) {
            return true
        }
        return false
    }

    /// True when `url` may be used: `wss://` always, `ws://` by the rules above; `privateNetwork` is
    /// the opt-in given in code (a library configuration's), the same as the variable.
    @_spi(Engine) public static func allows(_ url: WebSocketURL, environment: Environment, privateNetwork: Bool = false) -> Bool {
        if url.isSecure { return true }
        if isLoopback(url.host) { return true }
        if privateNetwork || environment["OPENCLAW_ALLOW_INSECURE_PRIVATE_WS"] == "1" { return isPrivateOrLoopback(url.host) }
        return false
    }

    /// Why `url`'s host cannot be resolved (getaddrinfo's words), or nil when it can. Asked only of a
    /// URL `allows` refuses, so that a mistyped name is reported as such before any word on plaintext.
    @_spi(Engine) public static func resolveFailure(_ url: WebSocketURL) -> (host: String, reason: String)? {
        do {
            _ = try SocketAddress.resolve(host: url.host, port: url.port, passive: false)
            return nil
        } catch {
            guard case .resolve(let host, let reason) = error else { return nil }
            return (host, reason)
        }
    }

    /// A host as these rules compare it: lower case, without IPv6 brackets or trailing dots.
    static func normalized(_ host: String) -> String {
        var h = host.lowercased()
        if h.hasPrefix("[") && h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        while h.hasSuffix(".") && h.count > 1 { h.removeLast() }
        return h
    }

    /// The four numbers of a dotted IPv4 address, nil for anything else.
    static func ipv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(part), value <= 255 else { return nil }
            out.append(value)
        }
        return out
    }
}
