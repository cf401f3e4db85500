@_spi(Engine) import ClawSystem

/// A forward proxy, as a proxy URL names it (`http://user:pass@proxy:3128`, `socks5h://proxy:1080`):
/// how to speak to it, where it is, and the credentials from the URL's user info. `description` names
/// scheme, host and port only: the credentials never reach a message, a trace or a log.
@_spi(Engine) public struct ProxyEndpoint: Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public enum Scheme: String, Sendable, Equatable, CaseIterable {
        /// Plain TCP to the proxy, then `CONNECT host:port` (for `ws://` and `wss://` alike).
        case http
        /// TLS to the proxy itself (verified), then `CONNECT` inside it.
        case https
        /// SOCKS5; the client resolves the gateway's name and sends an address.
        case socks5
        /// SOCKS5; the proxy resolves the name (a gateway name only the proxy's network knows).
        case socks5h

        /// The port when the URL names none (Go's rule: 80, 443, 1080).
        var defaultPort: Int {
            switch self {
            case .http: return 80
            case .https: return 443
            case .socks5, .socks5h: return 1080
            }
        }
    }

    @_spi(Engine) public var scheme: Scheme
    /// Without brackets (`::1`).
    @_spi(Engine) public var host: String
    @_spi(Engine) public var port: Int
    /// Basic credentials (HTTP) or the username/password method (SOCKS5), percent-decoded.
    @_spi(Engine) public var username: String?
    @_spi(Engine) public var password: String?
    /// Where the URL came from (`HTTPS_PROXY`, `proxy.proxyUrl in ~/.openclaw/openclaw.json`), named in failures.
    @_spi(Engine) public var source: String
    /// For an `https://` proxy: a PEM bundle its certificate is checked against (`proxy.tls.caFile`);
    /// nil for the system's store.
    @_spi(Engine) public var caFile: String?

    @_spi(Engine) public init(scheme: Scheme, host: String, port: Int? = nil, username: String? = nil,
                              password: String? = nil, source: String, caFile: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port ?? scheme.defaultPort
        self.username = username
        self.password = password
        self.source = source
        self.caFile = caFile
    }

    /// `host:port`, the address in brackets when it is IPv6.
    @_spi(Engine) public var authority: String { Self.authority(host: host, port: port) }

    @_spi(Engine) public var description: String { "\(scheme.rawValue)://\(authority)" }

    /// Whether credentials go to the proxy.
    @_spi(Engine) public var hasCredentials: Bool { username != nil }

    static func authority(host: String, port: Int) -> String {
        host.containsText(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Parses a proxy URL; a URL without a scheme is `http://`, as curl and Go read one from the
    /// environment, unless `schemeRequired` (a URL given as a URL: `GatewayConfiguration.proxy`,
    /// OpenClaw's `proxy.proxyUrl`), where a missing scheme is an error rather than a host named
    /// `garbage`. Throws a sentence about what is wrong, which never repeats the URL (it may hold a password).
    @_spi(Engine) public static func parse(_ text: String, source: String,
                                           schemeRequired: Bool = false) throws(ProxyURLProblem) -> ProxyEndpoint {
        var rest = Substring(TextTrim.trimmed(text))
        guard !rest.isEmpty else { throw ProxyURLProblem("is empty") }
        var scheme = Scheme.http
        if schemeRequired, rest.firstRange(ofText: "://") == nil {
            throw ProxyURLProblem("has no scheme; use http://, https://, socks5:// or socks5h://")
        }
        if let range = rest.firstRange(ofText: "://") {
            let name = rest[..<range.lowerBound].lowercased()
            guard let known = Scheme(rawValue: name) else {
                throw ProxyURLProblem("has the scheme '\(name)'; use http://, https://, socks5:// or socks5h://")
            }
            scheme = known
            rest = rest[range.upperBound...]
        }
        // The authority ends at a path, query or fragment; a lone "/" after it is usual and ignored.
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let tail = rest[end...]
        guard tail.isEmpty || tail == "/" else { throw ProxyURLProblem("has a path; a proxy URL is scheme://host:port") }
        var authority = rest[..<end]
        var username: String? = nil
        var password: String? = nil
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            let badEscape = ProxyURLProblem("has a badly escaped user name or password (%XX)")
            guard let user = percentDecoded(userInfo[..<(colon ?? userInfo.endIndex)]) else { throw badEscape }
            username = user
            if let colon {
                guard let pass = percentDecoded(userInfo[userInfo.index(after: colon)...]) else { throw badEscape }
                password = pass
            }
        }
        var host: Substring
        var portText: Substring? = nil
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { throw ProxyURLProblem("has an unclosed [ in its host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw ProxyURLProblem("has something after its IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "[" || $0 == "]" || $0 == "@" }) else {
            throw ProxyURLProblem("has no host")
        }
        var port: Int? = nil
        if let portText {
            guard let value = Int(portText), portText.allSatisfy({ $0.isASCII && $0.isNumber }), (1...65535).contains(value) else {
                throw ProxyURLProblem("has a port that is not 1 to 65535")
            }
            port = value
        }
        return ProxyEndpoint(scheme: scheme, host: String(host), port: port, username: username, password: password,
                             source: source)
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// What is wrong with a proxy URL, as the end of a sentence ("HTTPS_PROXY has the scheme 'ftp'; …").
@_spi(Engine) public struct ProxyURLProblem: Error, Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public let description: String
    @_spi(Engine) public init(_ description: String) { self.description = description }
}
