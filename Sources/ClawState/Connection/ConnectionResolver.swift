@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
// How the official OpenClaw CLI (September 2026) picks the gateway URL and credentials (openclaw/openclaw):
// - src/gateway/call.ts `resolveGatewayCallContext` / `buildGatewayConnectionDetails`: URL = `--url`, else
//   `OPENCLAW_GATEWAY_URL`, else (gateway.mode "remote") `gateway.remote.url` (missing → "remote mode
//   misconfigured" error), else `ws://127.0.0.1:<port>` (`wss` when gateway.tls.enabled). The final URL must
//   pass `isSecureWebSocketUrl` (src/gateway/net.ts): ws:// only to loopback, private hosts only with
//   OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1; the error suggests wss:// or `ssh -N -L 18789:127.0.0.1:18789 user@gateway-host`.
// - src/config/paths.ts `resolveGatewayPort`: OPENCLAW_GATEWAY_PORT (parseInt > 0), then gateway.port, then 18789;
//   src/cli/profile.ts sets OPENCLAW_GATEWAY_PORT=19001 for the dev profile when it is unset.
// - src/gateway/credentials.ts + credentials-secret-inputs.ts: an explicit --token/--password wins alone (the
//   other credential is not borrowed); a `--url` override gets no implicit credentials at all; an env URL
//   override gets only OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD; otherwise `CredentialSelection`
//   (config-first in local mode, remote-first in remote mode, refs resolved only when they can win).
//   The placeholder token "change-me-to-a-long-random-token" counts as unset in local mode.
//   Legacy `CLAWDBOT_*` / `MOLTBOT_*` variables are ignored.
// - TLS pin (`resolveGatewayTlsFingerprint`): --tls-fingerprint, else gateway.remote.tlsFingerprint in remote
//   mode unless the URL came from --url, else for a local wss:// gateway its own gateway.tls.certPath.
// Difference: the official CLI refuses a URL override without explicit credentials; this resolver returns
// no credentials and sets `urlIsOverride` so the caller does not fall back to a stored device token.

/// Turns command-line flags, the environment and the OpenClaw config file into one connection target.
@_spi(Engine) public enum ConnectionResolver {
    @_spi(Engine) public static let defaultPort = 18789

    /// `interruptDescriptor` (a signal's self-pipe) stops an `exec` secret provider's command early.
    @_spi(Engine) public static func resolve(
        options: ConnectionOptions, environment: Environment, interruptDescriptor: Int32? = nil
    ) throws(ConfigError) -> ResolvedConnection {
        if options.token != nil && TextTrim.nonEmpty(options.tokenFile) != nil {
            throw .conflictingOptions(.token, .tokenFile)
        }
        let profile = options.readsConfigFile ? try StatePaths.profile(flag: options.profile, environment: environment) : nil
        let stateDirectory = StatePaths.stateDirectory(
            flag: options.stateDirectory, environment: environment, profile: profile).path
        let configPath = StatePaths.configPath(
            flag: options.configPath, stateDirectory: stateDirectory, environment: environment, profile: profile
        ).path
        let config = options.readsConfigFile ? try GatewayConfigFile.load(path: configPath)
            : GatewayConfigFile(path: configPath, exists: false, root: [:])
        let choice = try chooseURL(options: options, config: config, environment: environment, profile: profile)
        let (urlText, urlSource, isRemote) = (choice.text, choice.source, config.isRemoteMode)
        let cliURL: String? = choice.override == .cli ? choice.text : nil
        guard let url = WebSocketURL(urlText) else {
            throw .invalidURL(url: redactUserInfo(urlText), source: urlSource)
        }
        guard PlaintextWebSocketPolicy.allows(url, environment: environment, privateNetwork: options.allowsPlaintextOnPrivateNetwork) else {
            // Through a proxy the name may be the proxy's to resolve: then the plaintext is the news.
            let proxied = (try? ProxySelection.choose(url: url, config: config, configPath: configPath, environment: environment)) ?? nil
            if proxied == nil, let failure = PlaintextWebSocketPolicy.resolveFailure(url) {
                throw .unresolvableHost(host: failure.host, reason: failure.reason)
            }
            throw .insecureWebSocket(url: redactUserInfo(urlText), source: urlSource)
        }
        let sshRoute = try SSHRoute.resolve(config: config, choice: choice, url: url, environment: environment, profile: profile)
        let proxy = sshRoute != nil ? nil
            : try ProxySelection.choose(url: url, config: config, configPath: configPath, environment: environment)

        // Credentials.
        let credentials = try resolveCredentials(
            options: options, config: config, environment: environment,
            urlOverride: choice.override, isRemote: isRemote, stateDirectory: stateDirectory,
            interruptDescriptor: interruptDescriptor)

        // TLS pin: the flag; else gateway.remote.tlsFingerprint in remote mode for the config's URL or
        // OPENCLAW_GATEWAY_URL (not --url); else a local wss:// gateway's own certificate file.
        var fingerprint: [UInt8]? = nil
        var fingerprintSource: SettingSource? = nil
        if let text = TextTrim.nonEmpty(options.tlsFingerprint) {
            fingerprintSource = .option(.tlsFingerprint)
            fingerprint = try parseFingerprint(text, source: .option(.tlsFingerprint))
        } else if isRemote && cliURL == nil,
                  let text = try config.string("gateway", "remote", "tlsFingerprint", environment: environment) {
            let source = SettingSource.configKey("gateway.remote.tlsFingerprint", path: configPath)
            fingerprintSource = source
            fingerprint = try parseFingerprint(text, source: source)
        } else if url.isSecure, choice.override == nil, !isRemote, try config.bool("gateway", "tls", "enabled") == true {
            let certificate = try config.string("gateway", "tls", "certPath", environment: environment)
                .map { StatePaths.expandUser($0, environment: environment) }
                ?? Paths.join(stateDirectory, "gateway", "tls", "gateway-cert.pem")
            if let pin = TLSFingerprint.sha256(ofCertificateFile: certificate) {
                fingerprint = pin
                fingerprintSource = .configKey("gateway.tls.certPath", path: configPath)
            }
        }
        if let fingerprintSource, fingerprint != nil, !url.isSecure { throw .tlsPinRequiresWSS(source: fingerprintSource) }

        let upgradeHeaders = try EdgeAuth.headers(for: url, config: config, environment: environment,
                                                  stateDirectory: stateDirectory, interruptDescriptor: interruptDescriptor)

        return ResolvedConnection(
            url: url, urlSource: urlSource, urlIsOverride: choice.override != nil, isRemoteMode: isRemote,
            token: credentials.token.map { Secret($0.value) }, tokenSource: credentials.token?.source ?? .none,
            password: credentials.password.map { Secret($0.value) },
            passwordSource: credentials.password?.source ?? .none,
            tlsFingerprint: fingerprint, tlsFingerprintSource: fingerprintSource,
            caBundlePath: TextTrim.nonEmpty(options.caBundlePath).map { StatePaths.expandUser($0, environment: environment) },
            authMode: try config.string("gateway", "auth", "mode", environment: environment),
            stateDirectory: stateDirectory, configPath: configPath,
            profile: profile,
            upgradeHeaders: upgradeHeaders,
            bindMode: try config.string("gateway", "bind", environment: environment),
            sshRoute: sshRoute,
            proxy: proxy)
    }

    enum URLOverride { case cli, environment }

    struct URLChoice: Equatable {
        let text: String
        let source: SettingSource
        let override: URLOverride?
    }

    /// The URL text and its source, before parsing and the plaintext check.
    static func chooseURL(
        options: ConnectionOptions, config: GatewayConfigFile, environment: Environment, profile: String? = nil
    ) throws(ConfigError) -> URLChoice {
        if let cliURL = TextTrim.nonEmpty(options.url) {
            return URLChoice(text: cliURL, source: .option(.url), override: .cli)
        }
        if let (name, value) = environment.firstTrimmed("OPENCLAW_GATEWAY_URL") {
            return URLChoice(text: value, source: .environment(name), override: .environment)
        }
        if config.isRemoteMode {
            guard let remoteURL = try config.string("gateway", "remote", "url", environment: environment) else {
                throw .remoteURLMissing(path: config.path)
            }
            return URLChoice(text: remoteURL, source: .configKey("gateway.remote.url", path: config.path), override: nil)
        }
        let (port, portSource) = try localPort(config: config, environment: environment, profile: profile)
        let tls = try config.bool("gateway", "tls", "enabled") ?? false
        return URLChoice(
            text: "\(tls ? "wss" : "ws")://127.0.0.1:\(port)", source: .localGateway(port: portSource),
            override: nil)
    }

    struct Found { let value: String; let source: SettingSource }

    static func resolveCredentials(
        options: ConnectionOptions, config: GatewayConfigFile, environment: Environment,
        urlOverride: URLOverride?, isRemote: Bool, stateDirectory: String, interruptDescriptor: Int32? = nil
    ) throws(ConfigError) -> (token: Found?, password: Found?) {
        // Explicit flags win alone.
        var explicitToken: Found? = nil
        if let token = options.token, let value = TextTrim.nonEmpty(token.value) {
            explicitToken = Found(value: value, source: .option(.token))
        } else if let file = TextTrim.nonEmpty(options.tokenFile) {
            explicitToken = Found(value: try readTokenFile(file, environment: environment), source: .tokenFile(path: file))
        }
        let explicitPassword = options.password.flatMap { TextTrim.nonEmpty($0.value) }
            .map { Found(value: $0, source: .option(.password)) }
        if explicitToken != nil || explicitPassword != nil { return (explicitToken, explicitPassword) }

        let tokenVariable = "OPENCLAW_GATEWAY_TOKEN"
        let passwordVariable = "OPENCLAW_GATEWAY_PASSWORD"
        let envToken = environment.trimmed(tokenVariable)
        let envPassword = environment.trimmed(passwordVariable)
        switch urlOverride {
        case .cli:
            return (nil, nil)
        case .environment:
            return (envToken.map { Found(value: $0, source: .environment(tokenVariable)) },
                    envPassword.map { Found(value: $0, source: .environment(passwordVariable)) })
        case nil:
            break
        }

        var slots: [CredentialPath: CredentialSelection.Slot] = [:]
        for path in CredentialPath.allCases {
            switch try config.secretInput(path.rawValue.split(separator: ".").map(String.init) as [String]) {
            case .absent: slots[path] = .absent
            case .text(let raw): slots[path] = .text(raw)
            case .ref(let ref): slots[path] = .ref(ref)
            }
        }
        let resolver = SecretResolver(config: config, environment: environment, stateDirectory: stateDirectory,
                                      interruptDescriptor: interruptDescriptor)
        var selection = CredentialSelection(
            slots: slots, environmentToken: envToken, environmentPassword: envPassword, isRemote: isRemote,
            authMode: try config.string("gateway", "auth", "mode", environment: environment),
            substitute: { (raw: String, path: CredentialPath) throws(ConfigError) -> String? in
                TextTrim.nonEmpty(try ConfigText.substitute(raw, key: path.rawValue, path: config.path, environment: environment))
            },
            resolveRef: { (ref: SecretRef, path: CredentialPath) throws(ConfigError) -> String in
                try resolver.resolve(ref, key: path.rawValue)
            })
        let selected = try selection.run()
        func found(_ pick: (value: String, choice: CredentialSelection.Choice)?, variable: String) -> Found? {
            guard let pick else { return nil }
            switch pick.choice {
            case .environment: return Found(value: pick.value, source: .environment(variable))
            case .path(let path): return Found(value: pick.value, source: .configKey(path.rawValue, path: config.path))
            }
        }
        return (found(selected.token, variable: tokenVariable), found(selected.password, variable: passwordVariable))
    }

    /// The `dev` profile's gateway port when `OPENCLAW_GATEWAY_PORT` does not set one.
    @_spi(Engine) public static let devProfilePort = 19001

    static func localPort(
        config: GatewayConfigFile, environment: Environment, profile: String? = nil
    ) throws(ConfigError) -> (Int, SettingSource) {
        let variable = "OPENCLAW_GATEWAY_PORT"
        if let raw = environment.trimmed(variable) {
            if let port = leadingInteger(raw), port > 0, port <= 65535 { return (port, .environment(variable)) }
        } else if profile == "dev" {
            // The official CLI exports OPENCLAW_GATEWAY_PORT=19001 for the dev profile, ahead of gateway.port.
            return (devProfilePort, .profile("dev"))
        }
        if let port = try config.port("gateway", "port") { return (port, .configKey("gateway.port", path: config.path)) }
        return (defaultPort, .builtInDefault)
    }

    /// `Number.parseInt(text, 10)`: optional sign, then the leading decimal digits.
    static func leadingInteger(_ text: String) -> Int? {
        var digits = Substring(text)
        var negative = false
        if digits.hasPrefix("+") || digits.hasPrefix("-") {
            negative = digits.hasPrefix("-")
            digits = digits.dropFirst()
        }
        let prefix = digits.prefix(while: { $0.isASCII && $0.isNumber }).prefix(9)
        guard let value = Int(prefix) else { return nil }
        return negative ? -value : value
    }

    static func readTokenFile(_ path: String, environment: Environment) throws(ConfigError) -> String {
        let resolved = path == "-" ? "/dev/stdin" : StatePaths.expandUser(path, environment: environment)
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(resolved, limit: 1 << 20)
        } catch {
            throw .tokenFileUnreadable(path: path, reason: error.reason)
        }
        guard let token = TextTrim.nonEmpty(String(decoding: bytes, as: UTF8.self)) else {
            throw .tokenFileEmpty(path: path)
        }
        return token
    }

    /// 32 bytes from hex, with optional `:` separators and an optional `sha256:` prefix.
    static func parseFingerprint(_ text: String, source: SettingSource) throws(ConfigError) -> [UInt8] {
        guard let bytes = TLSFingerprint.parseSHA256(TextTrim.trimmed(text)) else { throw .invalidTLSFingerprint(source: source) }
        return bytes
    }

    /// A URL for messages: any `user:password@` part is replaced, since it may hold a credential.
    static func redactUserInfo(_ url: String) -> String {
        let chars = Array(url)
        var schemeEnd: Int? = nil
        var i = 0
        while i + 2 < chars.count {
            if chars[i] == ":" && chars[i + 1] == "/" && chars[i + 2] == "/" { schemeEnd = i + 3; break }
            i += 1
        }
        // A query or fragment may carry a credential too (`?token=…`).
        let shown = chars.firstIndex { $0 == "?" || $0 == "#" }.map { Array(chars[..<$0]) + Array("?<redacted>") } ?? chars
        guard let start = schemeEnd else { return String(shown) }
        var end = start
        while end < shown.count && shown[end] != "/" && shown[end] != "?" { end += 1 }
        guard let at = shown[start..<end].lastIndex(of: "@") else { return String(shown) }
        return String(shown[..<start]) + "<redacted>@" + String(shown[(at + 1)...])
    }
}
