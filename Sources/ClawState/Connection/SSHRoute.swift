@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
// When the official client (September 2026) reaches the gateway through its own `ssh -N -L` tunnel
// (openclaw/openclaw src/gateway/connection-details.ts `resolveGatewayDeviceAuthRoute`,
// src/infra/ssh-tunnel.ts `parseSshTarget`): gateway.mode "remote"; the URL is gateway.remote.url from the
// config (not --url, not OPENCLAW_GATEWAY_URL); its host is loopback; gateway.remote.sshTarget is set; and
// gateway.remote.transport is not "direct" (left out, it means ssh). The gateway's port on the far side is
// gateway.remote.remotePort, else the port written in the URL, else the local gateway port rule
// (OPENCLAW_GATEWAY_PORT, gateway.port, 18789).

/// A gateway reached through an SSH port forward: where ssh logs in and which port it forwards to there.
@_spi(Engine) public struct SSHRoute: Sendable, Equatable {
    /// `gateway.remote.sshHostKeyPolicy`.
    @_spi(Engine) public enum HostKeyPolicy: String, Sendable, Equatable {
        /// The host key must already be known (`StrictHostKeyChecking=yes`); the default.
        case strict
        /// The user's ssh configuration decides (no `StrictHostKeyChecking` option given).
        case openssh
    }

    /// `gateway.remote.sshTarget` as written, trimmed (the device-token scope uses this text).
    @_spi(Engine) public var targetText: String
    @_spi(Engine) public var target: SSHTarget
    /// The gateway's port on the SSH host (the forward's far end, on its 127.0.0.1).
    @_spi(Engine) public var remotePort: Int
    @_spi(Engine) public var remotePortSource: SettingSource
    /// `gateway.remote.sshIdentity`, trimmed, passed to `ssh -i` as written.
    @_spi(Engine) public var identity: String?
    @_spi(Engine) public var hostKeyPolicy: HostKeyPolicy

    @_spi(Engine) public init(target: SSHTarget, targetText: String? = nil, remotePort: Int,
                remotePortSource: SettingSource = .builtInDefault, identity: String? = nil,
                hostKeyPolicy: HostKeyPolicy = .strict) {
        self.target = target
        self.targetText = targetText ?? target.description
        self.remotePort = remotePort
        self.remotePortSource = remotePortSource
        self.identity = identity
        self.hostKeyPolicy = hostKeyPolicy
    }

    /// Where the official client files device tokens enrolled over this route (`gateway_origin_device_tokens`):
    /// `remote:ssh:` and the SHA-256 of `TARGET:gateway-port:REMOTEPORT`. The local end's port does not enter it.
    @_spi(Engine) public var deviceTokenScope: String {
        "remote:ssh:" + Hex.encode(Digest.sha256(Array("\(targetText):gateway-port:\(remotePort)".utf8)))
    }
}

/// An SSH destination `[user@]host[:port]`, as the official client accepts it.
@_spi(Engine) public struct SSHTarget: Sendable, Equatable, CustomStringConvertible {
    @_spi(Engine) public var user: String?
    @_spi(Engine) public var host: String
    /// The port written in the target; nil leaves it to ssh (22, or the ssh_config entry for the host).
    @_spi(Engine) public var port: Int?

    @_spi(Engine) public init(user: String? = nil, host: String, port: Int? = nil) {
        self.user = user
        self.host = host
        self.port = port
    }

    /// Parses `[user@]host[:port]`, optionally after a leading `ssh `. Refused: whitespace or control
    /// characters, a user or host that starts with `-` (ssh would read it as an option), a second `@`,
    /// a host that starts or ends with `:`, a port outside 1–65535.
    @_spi(Engine) public init?(parsing text: String) {
        var rest = Substring(TextTrim.trimmed(text))
        if rest.hasPrefix("ssh"), let next = rest.dropFirst(3).first, next == " " || next == "\t" {
            rest = Substring(TextTrim.trimmed(String(rest.dropFirst(3))))
        }
        guard !rest.isEmpty,
              !rest.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7f })
        else { return nil }
        var hostPart = rest
        if let at = rest.firstIndex(of: "@") {
            let user = rest[..<at]
            guard !user.isEmpty, !user.hasPrefix("-") else { return nil }
            self.user = String(user)
            hostPart = rest[rest.index(after: at)...]
        } else {
            user = nil
        }
        guard !hostPart.isEmpty, !hostPart.contains("@"), !hostPart.hasPrefix(":") else { return nil }
        if let colon = hostPart.lastIndex(of: ":") {
            let portText = hostPart[hostPart.index(after: colon)...]
            let hostText = hostPart[..<colon]
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portText), (1...65535).contains(value),
                  !hostText.isEmpty, !hostText.hasSuffix(":")
            else { return nil }
            host = String(hostText)
            port = value
        } else {
            host = String(hostPart)
            port = nil
        }
        guard !host.hasPrefix("-") else { return nil }
    }

    /// `user@host` or `host`: ssh's destination argument (the port goes to `-p`).
    @_spi(Engine) public var destination: String { user.map { "\($0)@\(host)" } ?? host }

    @_spi(Engine) public var description: String { destination + (port.map { ":\($0)" } ?? "") }
}

extension SSHRoute {
    /// The route for a connection whose URL came from `choice`, or nil when the gateway is dialled directly.
    static func resolve(
        config: GatewayConfigFile, choice: ConnectionResolver.URLChoice, url: WebSocketURL,
        environment: Environment, profile: String?
    ) throws(ConfigError) -> SSHRoute? {
        guard config.isRemoteMode, choice.override == nil, PlaintextWebSocketPolicy.isLoopback(url.host),
              let targetText = try config.string("gateway", "remote", "sshTarget", environment: environment)
        else { return nil }
        let transport = try config.string("gateway", "remote", "transport", environment: environment)
        if transport == "direct" { return nil }
        guard transport == nil || transport == "ssh" else {
            throw .configInvalid(path: config.path, key: "gateway.remote.transport", expected: "\"ssh\" or \"direct\"")
        }
        guard let target = SSHTarget(parsing: targetText) else {
            throw .configInvalid(path: config.path, key: "gateway.remote.sshTarget",
                                 expected: "[user@]host[:port] (no spaces; user and host not starting with -; port 1-65535)")
        }
        let policy: HostKeyPolicy
        switch try config.string("gateway", "remote", "sshHostKeyPolicy", environment: environment) {
        case nil, "strict": policy = .strict
        case "openssh": policy = .openssh
        default:
            throw .configInvalid(path: config.path, key: "gateway.remote.sshHostKeyPolicy", expected: "\"strict\" or \"openssh\"")
        }
        let remotePort: Int
        let remotePortSource: SettingSource
        if let port = try config.port("gateway", "remote", "remotePort") {
            (remotePort, remotePortSource) = (port, .configKey("gateway.remote.remotePort", path: config.path))
        } else if let port = explicitPort(choice.text) {
            (remotePort, remotePortSource) = (port, choice.source)
        } else {
            (remotePort, remotePortSource) = try ConnectionResolver.localPort(config: config, environment: environment, profile: profile)
        }
        return SSHRoute(target: target, targetText: targetText, remotePort: remotePort, remotePortSource: remotePortSource,
                        identity: try config.string("gateway", "remote", "sshIdentity", environment: environment),
                        hostKeyPolicy: policy)
    }

    /// The port written in a `ws[s]://` URL's authority, even the scheme's default one; nil when none is.
    static func explicitPort(_ urlText: String) -> Int? {
        let text = Substring(urlText)
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let rest = text[text.index(colon, offsetBy: 3)...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostEnd = authority.hasPrefix("[") ? (authority.firstIndex(of: "]") ?? authority.endIndex) : authority.startIndex
        guard let colon = authority[hostEnd...].lastIndex(of: ":") else { return nil }
        return Int(authority[authority.index(after: colon)...])
    }
}

extension DatabaseDeviceTokens {
    /// The same database's tokens for another target (a gateway reached through an SSH route is filed
    /// under `SSHRoute.deviceTokenScope`, not under its loopback URL).
    @_spi(Engine) public func filed(under target: Target) -> DatabaseDeviceTokens {
        DatabaseDeviceTokens(database: database, target: target, stateDirectory: stateDirectory)
    }
}
