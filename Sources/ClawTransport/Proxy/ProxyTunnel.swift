@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

/// One step of the exchange with a forward proxy, for `--trace`: what was asked and what came back,
/// credentials left out (a request that carried them says so, never what they were).
@_spi(Engine) public struct ProxyExchange: Sendable, Equatable {
    @_spi(Engine) public let proxy: String
    @_spi(Engine) public let source: String
    @_spi(Engine) public let sent: String
    @_spi(Engine) public let received: String
}

/// The way through a forward proxy to the gateway's host and port: a TCP connection to the proxy, then
/// HTTP `CONNECT` (RFC 9110 §9.3.6) or a SOCKS5 request (RFC 1928, credentials by RFC 1929). What comes
/// back is a stream to the gateway on which TLS and the WebSocket upgrade go as they would directly.
@_spi(Engine) public enum ProxyTunnel {
    /// Opens the tunnel by `deadline`; failures are `TransportError.proxy` sentences naming the proxy,
    /// except the deadline (`.timedOut`, saying what was awaited).
    @_spi(Engine) public static func open(through proxy: ProxyEndpoint, to host: String, port: Int, deadline: Deadline,
                                          report: (ProxyExchange) -> Void = { _ in }) throws(TransportError) -> TCPStream {
        let tcp: TCPStream
        do throws(TransportError) {
            tcp = try TCPStream.connect(host: proxy.host, port: proxy.port, deadline: deadline)
        } catch {
            switch error {
            case .timedOut: throw .timedOut("connecting to the proxy \(named(proxy))")
            case .resolve(_, let reason):
                throw .proxy(ProxyFailure(.unreachable, "cannot resolve the proxy \(named(proxy)): \(reason)"))
            case .connect(_, _, let error):
                throw .proxy(ProxyFailure(.unreachable, "cannot connect to the proxy \(named(proxy)): \(error)"))
            default:
                throw .proxy(ProxyFailure(.unreachable, "cannot connect to the proxy \(named(proxy)): \(error)"))
            }
        }
        if proxy.scheme == .https { return try throughTLS(tcp, proxy: proxy, host: host, port: port, deadline: deadline, report: report) }
        do throws(TransportError) {
            switch proxy.scheme {
            case .http, .https: try connectRequest(tcp, proxy: proxy, host: host, port: port, deadline: deadline, report: report)
            case .socks5, .socks5h: try SOCKS5.connect(tcp, proxy: proxy, host: host, port: port, deadline: deadline, report: report)
            }
        } catch {
            tcp.close()
            throw error
        }
        return tcp
    }

    /// An `https://` proxy: TLS to the proxy itself (its name checked against the system's store and
    /// `caFile`), `CONNECT` inside it, then the tunnel handed over through a socket pair that
    /// `TunnelRelay` feeds, so that the gateway's own TLS runs inside as over any socket.
    private static func throughTLS(_ tcp: TCPStream, proxy: ProxyEndpoint, host: String, port: Int, deadline: Deadline,
                                   report: (ProxyExchange) -> Void) throws(TransportError) -> TCPStream {
        let tls: TLSStream
        do throws(TransportError) {
            tls = try TLSStream.client(over: tcp, options: TLSClientOptions(serverName: proxy.host, caBundlePath: proxy.caFile),
                                       deadline: deadline)
        } catch {
            if case .timedOut = error { throw .timedOut("waiting for the proxy \(named(proxy)): its TLS handshake") }
            let hint = proxy.caFile == nil ? " (name its CA in proxy.tls.caFile)" : ""
            throw .proxy(ProxyFailure(.refused(status: 0), "the proxy \(named(proxy)): \(error)\(hint)"))
        }
        do throws(TransportError) {
            try connectRequest(tls, proxy: proxy, host: host, port: port, deadline: deadline, report: report)
            return try TunnelRelay.start(carrying: tls)
        } catch {
            tls.close()
            throw error
        }
    }

    /// "127.0.0.1:3128 (from HTTPS_PROXY)": the proxy as failures name it.
    static func named(_ proxy: ProxyEndpoint) -> String { "\(proxy.authority) (from \(proxy.source))" }

    // MARK: HTTP CONNECT

    private static func connectRequest(_ tcp: ByteStream, proxy: ProxyEndpoint, host: String, port: Int, deadline: Deadline,
                                       report: (ProxyExchange) -> Void) throws(TransportError) {
        let target = ProxyEndpoint.authority(host: host, port: port)
        var request = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let username = proxy.username {
            let credentials = Base64.encode(Array("\(username):\(proxy.password ?? "")".utf8))
            request += "Proxy-Authorization: Basic \(credentials)\r\n"
        }
        request += "\r\n"
        try send(Array(request.utf8), tcp, proxy: proxy, deadline: deadline)
        let head = try readHead(tcp, proxy: proxy, deadline: deadline)
        let statusLine = head.startLine
        report(ProxyExchange(proxy: "\(proxy)", source: proxy.source,
                             sent: "CONNECT \(target) HTTP/1.1" + (proxy.hasCredentials ? " (with Proxy-Authorization)" : ""),
                             received: statusLine))
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...599).contains(status) else {
            throw .proxy(ProxyFailure(.broken, "the proxy \(named(proxy)) answered CONNECT with something that is not HTTP"))
        }
        let reason = parts.count > 2 ? " \(parts[2])" : ""
        switch status {
        case 200..<300:
            return
        case 407:
            throw .proxy(ProxyFailure(.authentication, proxy.hasCredentials
                ? "the proxy \(named(proxy)) refused the credentials in its URL (HTTP 407\(reason))"
                : "the proxy \(named(proxy)) requires authentication (HTTP 407\(reason)): put user:password@ in its URL",
                httpStatus: 407))
        default:
            throw .proxy(ProxyFailure((502...504).contains(status) ? .gatewayUnreachable : .refused(status: status),
                                      "the proxy \(named(proxy)) refused the tunnel to \(target) (HTTP \(status)\(reason))",
                                      httpStatus: status))
        }
    }

    /// The proxy's answer head, read a byte at a time: nothing past its blank line may be consumed,
    /// since what follows belongs to the tunnel. Small (a status line and a few fields), so cheap.
    private static func readHead(_ tcp: ByteStream, proxy: ProxyEndpoint, deadline: Deadline) throws(TransportError) -> HTTPHead {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while !(bytes.count >= 4 && bytes[bytes.count - 4..<bytes.count].elementsEqual([13, 10, 13, 10]))
            && !(bytes.count >= 2 && bytes[bytes.count - 2..<bytes.count].elementsEqual([10, 10])) {
            guard bytes.count < WebSocketHandshake.maxHeadSize else {
                throw .proxy(ProxyFailure(.broken, "the proxy \(named(proxy)) answered CONNECT with a head over 16 KiB"))
            }
            try readExactly(tcp, into: &byte, count: 1, proxy: proxy, deadline: deadline, awaiting: "its answer to CONNECT")
            bytes.append(byte)
        }
        guard let head = bytes.withUnsafeBytes({ HTTPHead.parse(UnsafeRawBufferPointer(rebasing: $0.dropLast(2))) }) else {
            throw .proxy(ProxyFailure(.broken, "the proxy \(named(proxy)) answered CONNECT with something that is not HTTP"))
        }
        return head
    }

    // MARK: Byte I/O shared by both protocols

    static func send(_ bytes: [UInt8], _ tcp: ByteStream, proxy: ProxyEndpoint, deadline: Deadline) throws(TransportError) {
        var failure: TransportError? = nil
        bytes.withUnsafeBytes { raw in
            do throws(TransportError) { try tcp.write(raw, deadline: deadline) } catch { failure = error }
        }
        if let failure { throw wrap(failure, proxy: proxy, awaiting: "it took the request") }
    }

    static func readExactly(_ tcp: ByteStream, into pointer: UnsafeMutableRawPointer, count: Int, proxy: ProxyEndpoint,
                            deadline: Deadline, awaiting what: String) throws(TransportError) {
        var offset = 0
        while offset < count {
            let n: Int
            do throws(TransportError) {
                n = try tcp.read(into: UnsafeMutableRawBufferPointer(start: pointer + offset, count: count - offset), deadline: deadline)
            } catch {
                throw wrap(error, proxy: proxy, awaiting: what)
            }
            if n == 0 { throw .proxy(ProxyFailure(.broken, "the proxy \(named(proxy)) closed the connection before \(what)")) }
            offset += n
        }
    }

    static func readExactly(_ tcp: ByteStream, count: Int, proxy: ProxyEndpoint, deadline: Deadline,
                            awaiting what: String) throws(TransportError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var failure: TransportError? = nil
        bytes.withUnsafeMutableBytes { raw in
            do throws(TransportError) {
                try readExactly(tcp, into: raw.baseAddress!, count: count, proxy: proxy, deadline: deadline, awaiting: what)
            } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }

    private static func wrap(_ error: TransportError, proxy: ProxyEndpoint, awaiting what: String) -> TransportError {
        switch error {
        case .timedOut: return .timedOut("waiting for the proxy \(named(proxy)): \(what)")
        case .proxy: return error
        default: return .proxy(ProxyFailure(.broken, "the proxy \(named(proxy)) closed the connection before \(what) (\(error))"))
        }
    }
}
