@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
/// The key `gateway_origin_device_tokens` files a gateway's device tokens under, computed as the
/// official client computes it, so both find each other's tokens.
@_spi(Engine) public enum DeviceTokenScope {
    /// `scheme://host[:port]` plus the path without trailing slashes (a bare `/` is nothing); no query.
    /// The host is lower-cased and a default port left out, so `wss://GW.example:443/` and
    /// `wss://gw.example` are one gateway.
    @_spi(Engine) public static func origin(_ url: WebSocketURL) -> String {
        var path = url.path
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        if path == "/" {
            path = ""
        } else {
            var trimmed = Substring(path)
            while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
            if !trimmed.isEmpty { path = String(trimmed) }
        }
        let host = url.host.lowercased()
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let authority = url.isDefaultPort ? bracketed : "\(bracketed):\(url.port)"
        return (url.isSecure ? "wss://" : "ws://") + authority + path
    }

    /// A loopback `wss://` gateway pinned by certificate fingerprint: the pin, not the (local) address,
    /// says which gateway it is. `fingerprint` is 64 lower-case hex digits.
    @_spi(Engine) public static func pinnedLoopback(_ url: WebSocketURL, fingerprint: String) -> String {
        "remote:tls:" + Hex.encode(Digest.sha256(Array("\(origin(url)):tls-sha256:\(fingerprint)".utf8)))
    }

    /// The scope for `url`, reached directly: pinned loopback `wss://` by its pin, anything else by its origin.
    @_spi(Engine) public static func forTarget(_ url: WebSocketURL, pinnedSHA256 pin: [UInt8]?) -> String {
        if url.isSecure, let pin, PlaintextWebSocketPolicy.isLoopback(url.host) { return pinnedLoopback(url, fingerprint: Hex.encode(pin)) }
        return origin(url)
    }

}
