@_spi(Engine) import ClawSystem

/// SOCKS5's CONNECT (RFC 1928) with no authentication or a username and password (RFC 1929).
/// `socks5://` sends the address the client resolved; `socks5h://` sends the name for the proxy to resolve.
enum SOCKS5 {
    static func connect(_ tcp: TCPStream, proxy: ProxyEndpoint, host: String, port: Int, deadline: Deadline,
                        report: (ProxyExchange) -> Void) throws(TransportError) {
        let named = ProxyTunnel.named(proxy)
        // Greeting: the methods offered; username/password only when the URL carries credentials.
        try ProxyTunnel.send(proxy.hasCredentials ? [5, 2, 0, 2] : [5, 1, 0], tcp, proxy: proxy, deadline: deadline)
        let choice = try ProxyTunnel.readExactly(tcp, count: 2, proxy: proxy, deadline: deadline, awaiting: "its SOCKS5 greeting")
        guard choice[0] == 5 else {
            throw .proxy(ProxyFailure(.broken, "the proxy \(named) does not speak SOCKS5 (is it an HTTP proxy? use http://)"))
        }
        switch choice[1] {
        case 0:
            break
        case 2 where proxy.hasCredentials:
            try authenticate(tcp, proxy: proxy, deadline: deadline)
        case 0xFF:
            throw .proxy(ProxyFailure(.authentication, proxy.hasCredentials
                ? "the SOCKS5 proxy \(named) accepts none of the offered methods"
                : "the SOCKS5 proxy \(named) requires authentication: put user:password@ in its URL"))
        default:
            throw .proxy(ProxyFailure(.broken, "the SOCKS5 proxy \(named) chose a method that was not offered (\(choice[1]))"))
        }

        // The request: an address the client resolved, or the name itself (socks5h).
        var request: [UInt8] = [5, 1, 0]
        let target = ProxyEndpoint.authority(host: host, port: port)
        var shown = target
        if proxy.scheme == .socks5h && !SocketAddress.isNumeric(host) {
            let name = Array(host.utf8)
            guard name.count <= 255 else { throw .resolve(host: host, reason: "the name is longer than SOCKS5's 255 bytes") }
            request += [3, UInt8(name.count)] + name
        } else {
            let address = try SocketAddress.firstAddressBytes(host: host, port: port)
            request += [address.count == 4 ? 1 : 4] + address
            shown = "\(target) as \(format(address))"
        }
        request += [UInt8(port >> 8), UInt8(port & 0xFF)]
        try ProxyTunnel.send(request, tcp, proxy: proxy, deadline: deadline)

        // The reply: version, status, reserved, then the bound address (read whole, then dropped).
        let reply = try ProxyTunnel.readExactly(tcp, count: 5, proxy: proxy, deadline: deadline, awaiting: "its SOCKS5 reply")
        guard reply[0] == 5 else { throw .proxy(ProxyFailure(.broken, "the SOCKS5 proxy \(named) sent a reply that is not SOCKS5")) }
        report(ProxyExchange(proxy: "\(proxy)", source: proxy.source, sent: "SOCKS5 CONNECT \(shown)", received: meaning(reply[1])))
        guard reply[1] == 0 else {
            // General failure, unreachable, refused, TTL: the gateway behind the proxy is away (may pass).
            throw .proxy(ProxyFailure([1, 3, 4, 5, 6].contains(reply[1]) ? .gatewayUnreachable : .refused(status: Int(reply[1])),
                                      "the SOCKS5 proxy \(named) refused the connection to \(target): \(meaning(reply[1]))"))
        }
        let rest: Int
        switch reply[3] {
        case 1: rest = 4 - 1 + 2
        case 4: rest = 16 - 1 + 2
        case 3: rest = Int(reply[4]) + 2
        default: throw .proxy(ProxyFailure(.broken, "the SOCKS5 proxy \(named) sent an unknown address type (\(reply[3]))"))
        }
        _ = try ProxyTunnel.readExactly(tcp, count: rest, proxy: proxy, deadline: deadline, awaiting: "its SOCKS5 reply")
    }

    /// RFC 1929: version 1, the user name and the password, each at most 255 bytes.
    private static func authenticate(_ tcp: TCPStream, proxy: ProxyEndpoint, deadline: Deadline) throws(TransportError) {
        let user = Array((proxy.username ?? "").utf8), password = Array((proxy.password ?? "").utf8)
        guard user.count <= 255, password.count <= 255 else {
            throw .proxy(ProxyFailure(.authentication, "the SOCKS5 credentials for \(ProxyTunnel.named(proxy)) are longer than 255 bytes"))
        }
        try ProxyTunnel.send([1, UInt8(user.count)] + user + [UInt8(password.count)] + password, tcp, proxy: proxy, deadline: deadline)
        let status = try ProxyTunnel.readExactly(tcp, count: 2, proxy: proxy, deadline: deadline, awaiting: "its answer to the credentials")
        guard status[1] == 0 else {
            throw .proxy(ProxyFailure(.authentication, "the SOCKS5 proxy \(ProxyTunnel.named(proxy)) refused the credentials in its URL"))
        }
    }

    private static func meaning(_ code: UInt8) -> String {
        switch code {
        case 0: return "succeeded"
        case 1: return "general failure"
        case 2: return "not allowed by its rules"
        case 3: return "network unreachable"
        case 4: return "host unreachable"
        case 5: return "connection refused"
        case 6: return "TTL expired"
        case 7: return "command not supported"
        case 8: return "address type not supported"
        default: return "reply \(code)"
        }
    }

    private static func format(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for i in stride(from: 0, to: address.count, by: 2) { groups.append(String(UInt16(address[i]) << 8 | UInt16(address[i + 1]), radix: 16)) }
        return groups.joined(separator: ":")
    }
}
