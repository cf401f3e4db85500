
/// A parsed `ws://` or `wss://` URL.
@_spi(Engine) public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public var isSecure: Bool
    /// Host without brackets (`::1`, not `[::1]`).
    @_spi(Engine) public var host: String
    @_spi(Engine) public var port: Int
    /// Path and query, at least `/`.
    @_spi(Engine) public var path: String

    @_spi(Engine) public init(isSecure: Bool, host: String, port: Int? = nil, path: String = "/") {
        self.isSecure = isSecure
        self.host = host
        self.port = port ?? (isSecure ? 443 : 80)
        self.path = path.isEmpty ? "/" : path
    }

    /// `nil` for anything that is not a well-formed ws/wss URL. Default ports 80/443.
    @_spi(Engine) public init?(_ text: String) {
        let bytes = Array(text.utf8)
        func hasScheme(_ scheme: String) -> Bool {
            let s = Array(scheme.utf8)
            guard bytes.count >= s.count else { return false }
            for i in 0..<s.count where Self.lower(bytes[i]) != s[i] { return false }
            return true
        }
        let rest: ArraySlice<UInt8>
        if hasScheme("wss://") { isSecure = true; rest = bytes[6...] } else if hasScheme("ws://") { isSecure = false; rest = bytes[5...] } else { return nil }
        // RFC 6455 §3: no fragments; no user info, whitespace or control characters either.
        guard !rest.contains(where: { $0 <= 0x20 || $0 == 0x7f || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "\\") }) else { return nil }
        let authorityEnd = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) ?? rest.endIndex
        let authority = rest[rest.startIndex..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else { return nil }
        var portText: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let inner = authority[(authority.startIndex + 1)..<close]
            guard inner.contains(UInt8(ascii: ":")),
                  inner.allSatisfy({ Self.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return nil }
            host = String(decoding: inner, as: UTF8.self)
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portText = after.dropFirst()
            }
        } else {
            let colons = authority.filter { $0 == UInt8(ascii: ":") }.count
            guard colons <= 1 else { return nil }
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                host = String(decoding: authority[authority.startIndex..<colon], as: UTF8.self)
                portText = authority[(colon + 1)...]
            } else {
                host = String(decoding: authority, as: UTF8.self)
            }
            guard authority.allSatisfy({ $0 != UInt8(ascii: "[") && $0 != UInt8(ascii: "]") }) else { return nil }
        }
        guard !host.isEmpty else { return nil }
        if portText.isEmpty {
            port = isSecure ? 443 : 80
        } else {
            guard portText.count <= 5, portText.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let value = Int(String(decoding: portText, as: UTF8.self)), (1...65535).contains(value)
            else { return nil }
            port = value
        }
        let tail = rest[authorityEnd...]
        if tail.isEmpty { path = "/" } else if tail.first == UInt8(ascii: "?") { path = "/" + String(decoding: tail, as: UTF8.self) } else { path = String(decoding: tail, as: UTF8.self) }
    }

    /// The default port for the scheme is left out, as in the `Host` header.
    @_spi(Engine) public var isDefaultPort: Bool { port == (isSecure ? 443 : 80) }

    /// `host[:port]`, with IPv6 hosts in brackets: the `Host` header's value.
    @_spi(Engine) public var hostHeader: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return isDefaultPort ? bracketed : "\(bracketed):\(port)"
    }

    /// For people: a query, which may carry a credential (`?token=…`), is shown as `?<redacted>`.
    @_spi(Engine) public var description: String {
        // Strings throughout: `Substring + String` is the generic `append(contentsOf:)`, whose first
        // use looks its associated types up at run time (0.1 M instructions of a one-shot command).
        let shown = path.firstIndex(of: "?").map { String(path[..<$0]) + "?<redacted>" } ?? path
        return (isSecure ? "wss://" : "ws://") + hostHeader + shown
    }

    private static func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c + 32 : c }
    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
    }
}
