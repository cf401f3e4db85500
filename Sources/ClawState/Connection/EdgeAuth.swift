@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport

/// `gateway.remote.edgeAuth`: HTTP headers (name → text or secret ref) that an identity-aware proxy in
/// front of the gateway (Cloudflare Access and the like) needs on the WebSocket upgrade. As the official
/// client: sent only to a target in the same origin scope as `gateway.remote.url` (whatever the mode, so a
/// `--url` to that gateway gets them too), only over `wss://` (a `ws://` target in that scope is an error),
/// resolved at connect time, and never followed across a redirect (this client follows none).
@_spi(Engine) public enum EdgeAuth {
    /// Header names the WebSocket upgrade owns.
    static let forbiddenNames: Set<String> = [
        "host", "connection", "upgrade", "content-length", "sec-websocket-key", "sec-websocket-version",
        "sec-websocket-protocol", "sec-websocket-extensions",
    ]

    /// The headers for `url`: none when edgeAuth is unset or the target is another origin.
    static func headers(
        for url: WebSocketURL, config: GatewayConfigFile, environment: Environment, stateDirectory: String,
        interruptDescriptor: Int32?
    ) throws(ConfigError) -> [UpgradeHeader] {
        let key = "gateway.remote.edgeAuth"
        guard let raw = config.value("gateway", "remote", "edgeAuth"), !raw.isNull else { return [] }
        guard let object = raw.objectValue, !object.members.isEmpty else {
            throw .configInvalid(path: config.path, key: key, expected: "a non-empty object of header names to strings or secret refs")
        }
        var seen = Set<String>()
        for name in object.members.map(\.key) {
            guard isToken(name) else {
                throw .configInvalid(path: config.path, key: key, expected: "HTTP header names (\"\(printable(name))\" is not one)")
            }
            let lower = name.lowercased()
            guard !forbiddenNames.contains(lower) else {
                throw .configInvalid(path: config.path, key: key, expected: "headers other than \(name), which the WebSocket upgrade sets itself")
            }
            guard seen.insert(lower).inserted else {
                throw .configInvalid(path: config.path, key: key, expected: "header names that differ by more than case (\(name) twice)")
            }
        }
        guard let remoteText = config.value("gateway", "remote", "url")?.stringValue.flatMap(TextTrim.nonEmpty),
              let remote = WebSocketURL(remoteText),
              DeviceTokenScope.origin(remote) == DeviceTokenScope.origin(url) else { return [] }
        guard url.isSecure else { throw .edgeAuthRequiresWSS(path: config.path) }
        var headers: [UpgradeHeader] = []
        for name in object.members.map(\.key) {
            let input = try config.secretInput(["gateway", "remote", "edgeAuth", name])
            let value = try config.resolve(input, key: "\(key).\(name)", environment: environment,
                                           stateDirectory: stateDirectory, interruptDescriptor: interruptDescriptor)
            // A value that would end the header line early is as unusable as an empty one.
            guard let value, !value.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw .edgeAuthHeaderEmpty(path: config.path, name: name)
            }
            headers.append(UpgradeHeader(name: name, value: value))
        }
        return headers
    }

    /// RFC 7230 `token`.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(c)
        }
    }

    private static func printable(_ name: String) -> String {
        String(decoding: name.utf8.prefix(40).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
