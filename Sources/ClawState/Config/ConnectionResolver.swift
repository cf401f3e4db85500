import ClawSystem
import ClawCrypto
import ClawTransport
// How the official OpenClaw CLI picks the gateway URL and credentials (openclaw/openclaw, read 2026):
// - src/gateway/call.ts `resolveGatewayCallContext` / `buildGatewayConnectionDetails`: URL = `--url`, else
//   `OPENCLAW_GATEWAY_URL` / `CLAWDBOT_GATEWAY_URL`, else (gateway.mode "remote") `gateway.remote.url`
//   (missing → "remote mode misconfigured" error), else `ws://127.0.0.1:<port>` (`wss` when
//   gateway.tls.enabled). The final URL must pass `isSecureWebSocketUrl` (src/gateway/net.ts): ws:// only to
//   loopback, private hosts only with OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1; the error suggests wss:// or
//   `ssh -N -L 18789:127.0.0.1:18789 user@gateway-host`.
// - src/config/paths.ts `resolveGatewayPort`: OPENCLAW_GATEWAY_PORT / CLAWDBOT_GATEWAY_PORT (parseInt > 0),
//   then gateway.port, then 18789.
// - src/gateway/call.ts `resolveGatewayCredentialsWithEnv` + src/gateway/credentials.ts
//   `resolveGatewayCredentialsFromConfig`: an explicit --token/--password wins alone (the other credential is
//   not borrowed); a `--url` override gets no implicit credentials at all; an env URL override gets only
//   OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD; local mode: token = env token, else gateway.auth.token
//   (or gateway.remote.token when auth.token is not configured), password likewise (env first);
//   remote mode: token = gateway.remote.token, env token, gateway.auth.token ("remote-first"),
//   password = env password, gateway.remote.password, gateway.auth.password ("env-first").
//   The placeholder token "change-me-to-a-long-random-token" counts as unset. Secret refs that cannot be
//   resolved only fail when no other credential is found (`GatewaySecretRefUnavailableError`).
// - TLS pin (`resolveGatewayTlsFingerprint`): --tls-fingerprint, else gateway.remote.tlsFingerprint in remote
//   mode unless the URL came from --url.
// Differences: the official CLI refuses a URL override without explicit credentials; this resolver returns
// no credentials and sets `urlIsOverride` so the caller does not fall back to a stored device token. It does
// not compute the local gateway's own certificate fingerprint (gateway.tls.certPath); pass --tls-fingerprint.

/// Turns command-line flags, the environment and the OpenClaw config file into one connection target.
public enum ConnectionResolver {
    static let placeholderToken = "change-me-to-a-long-random-token"
    public static let defaultPort = 18789

    public static func resolve(
        options: ConnectionOptions, environment: Environment
    ) throws(ConfigError) -> ResolvedConnection {
        if options.token != nil && TextTrim.nonEmpty(options.tokenFile) != nil {
            throw .conflictingOptions(.token, .tokenFile)
        }
        let stateDirectory = StatePaths.stateDirectory(flag: options.stateDirectory, environment: environment).path
        let configPath = StatePaths.configPath(
            flag: options.configPath, stateDirectory: stateDirectory, environment: environment
        ).path
        let config = try GatewayConfigFile.load(path: configPath)
        let choice = try chooseURL(options: options, config: config, environment: environment)
        let (urlText, urlSource, isRemote) = (choice.text, choice.source, config.isRemoteMode)
        let cliURL: String? = choice.override == .cli ? choice.text : nil
        guard let url = WebSocketURL(urlText) else {
            throw .invalidURL(url: redactUserInfo(urlText), source: urlSource)
        }
        guard PlaintextWebSocketPolicy.allows(url, environment: environment) else {
            throw .insecureWebSocket(url: redactUserInfo(urlText), source: urlSource)
        }

        // Credentials.
        let credentials = try resolveCredentials(
            options: options, config: config, environment: environment,
            urlOverride: choice.override, isRemote: isRemote, stateDirectory: stateDirectory)

        // TLS pin.
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
        }

        return ResolvedConnection(
            url: url, urlSource: urlSource, urlIsOverride: choice.override != nil, isRemoteMode: isRemote,
            token: credentials.token.map { Secret($0.value) }, tokenSource: credentials.token?.source ?? .none,
            password: credentials.password.map { Secret($0.value) },
            passwordSource: credentials.password?.source ?? .none,
            tlsFingerprint: fingerprint, tlsFingerprintSource: fingerprintSource,
            caBundlePath: TextTrim.nonEmpty(options.caBundlePath).map { StatePaths.expandUser($0, environment: environment) },
            authMode: try config.string("gateway", "auth", "mode", environment: environment),
            stateDirectory: stateDirectory, configPath: configPath,
            bindMode: try config.string("gateway", "bind", environment: environment))
    }

    enum URLOverride { case cli, environment }

    struct URLChoice: Equatable {
        let text: String
        let source: SettingSource
        let override: URLOverride?
    }

    /// The URL text and its source, before parsing and the plaintext check.
    static func chooseURL(
        options: ConnectionOptions, config: GatewayConfigFile, environment: Environment
    ) throws(ConfigError) -> URLChoice {
        if let cliURL = TextTrim.nonEmpty(options.url) {
            return URLChoice(text: cliURL, source: .option(.url), override: .cli)
        }
        if let (name, value) = environment.firstTrimmed("OPENCLAW_GATEWAY_URL", "CLAWDBOT_GATEWAY_URL") {
            return URLChoice(text: value, source: .environment(name), override: .environment)
        }
        if config.isRemoteMode {
            guard let remoteURL = try config.string("gateway", "remote", "url", environment: environment) else {
                throw .remoteURLMissing(path: config.path)
            }
            return URLChoice(text: remoteURL, source: .configKey("gateway.remote.url", path: config.path), override: nil)
        }
        let (port, portSource) = try localPort(config: config, environment: environment)
        let tls = try config.bool("gateway", "tls", "enabled") ?? false
        return URLChoice(
            text: "\(tls ? "wss" : "ws")://127.0.0.1:\(port)", source: .localGateway(port: portSource),
            override: nil)
    }

    struct Found { let value: String; let source: SettingSource }

    /// One place a credential may come from; `read` runs only if every earlier place was empty.
    struct Candidate {
        let source: SettingSource
        let read: () throws(ConfigError) -> String?
    }

    static func resolveCredentials(
        options: ConnectionOptions, config: GatewayConfigFile, environment: Environment,
        urlOverride: URLOverride?, isRemote: Bool, stateDirectory: String
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

        let envToken = environment.firstTrimmed("OPENCLAW_GATEWAY_TOKEN", "CLAWDBOT_GATEWAY_TOKEN")
        let envPassword = environment.firstTrimmed("OPENCLAW_GATEWAY_PASSWORD", "CLAWDBOT_GATEWAY_PASSWORD")
        let envTokenCandidate = Candidate(source: .environment(envToken?.name ?? "")) { () throws(ConfigError) -> String? in
            envToken?.value
        }
        let envPasswordCandidate = Candidate(source: .environment(envPassword?.name ?? "")) { () throws(ConfigError) -> String? in
            envPassword?.value
        }

        switch urlOverride {
        case .cli:
            return (nil, nil)
        case .environment:
            return (try first([envTokenCandidate], deferred: nil), try first([envPasswordCandidate], deferred: nil))
        case nil:
            break
        }

        let authToken = try config.secretInput("gateway", "auth", "token")
        let authPassword = try config.secretInput("gateway", "auth", "password")
        let remoteToken = try config.secretInput("gateway", "remote", "token")
        let remotePassword = try config.secretInput("gateway", "remote", "password")
        func fromConfig(_ input: SecretInput, _ key: String, placeholderIsUnset: Bool = false) -> Candidate {
            Candidate(source: .configKey(key, path: config.path)) { () throws(ConfigError) -> String? in
                let value = try config.resolve(input, key: key, environment: environment, stateDirectory: stateDirectory)
                return placeholderIsUnset && value == placeholderToken ? nil : value
            }
        }

        let tokenChain: [Candidate]
        let passwordChain: [Candidate]
        if isRemote {
            tokenChain = [
                fromConfig(remoteToken, "gateway.remote.token"), envTokenCandidate,
                fromConfig(authToken, "gateway.auth.token"),
            ]
            passwordChain = [
                envPasswordCandidate, fromConfig(remotePassword, "gateway.remote.password"),
                fromConfig(authPassword, "gateway.auth.password"),
            ]
        } else {
            tokenChain = [
                Candidate(source: .environment(envToken?.name ?? "")) { () throws(ConfigError) -> String? in
                    envToken?.value == placeholderToken ? nil : envToken?.value
                },
                authToken != .absent
                    ? fromConfig(authToken, "gateway.auth.token", placeholderIsUnset: true)
                    : fromConfig(remoteToken, "gateway.remote.token", placeholderIsUnset: true),
            ]
            passwordChain = [
                envPasswordCandidate,
                authPassword != .absent
                    ? fromConfig(authPassword, "gateway.auth.password")
                    : fromConfig(remotePassword, "gateway.remote.password"),
            ]
        }
        var deferred: ConfigError? = nil
        let token = try first(tokenChain, deferred: &deferred)
        let password = try first(passwordChain, deferred: &deferred)
        if token == nil && password == nil, let deferred { throw deferred }
        return (token, password)
    }

    /// The first candidate with a value. A secret ref that cannot be resolved is remembered in `deferred`
    /// and skipped, so it only fails the command when no credential is found at all (as in the official CLI);
    /// a missing `${VAR}` fails at once.
    static func first(_ chain: [Candidate], deferred: inout ConfigError?) throws(ConfigError) -> Found? {
        for candidate in chain {
            do {
                if let value = try candidate.read() { return Found(value: value, source: candidate.source) }
            } catch {
                switch error {
                case .secretRefUnresolved, .unsupportedSecretRef, .storedSecretMissing:
                    if deferred == nil { deferred = error }
                default:
                    throw error
                }
            }
        }
        return nil
    }

    static func first(_ chain: [Candidate], deferred: ConfigError?) throws(ConfigError) -> Found? {
        var unused = deferred
        return try first(chain, deferred: &unused)
    }

    static func localPort(config: GatewayConfigFile, environment: Environment) throws(ConfigError) -> (Int, SettingSource) {
        if let (name, raw) = environment.firstTrimmed("OPENCLAW_GATEWAY_PORT", "CLAWDBOT_GATEWAY_PORT"),
           let port = leadingInteger(raw), port > 0, port <= 65535 {
            return (port, .environment(name))
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
        var body = TextTrim.trimmed(text)
        if body.lowercased().hasPrefix("sha256:") { body = String(body.dropFirst(7)) }
        if body.lowercased().hasPrefix("sha-256:") { body = String(body.dropFirst(8)) }
        guard let bytes = Hex.decode(body), bytes.count == 32 else { throw .invalidTLSFingerprint(source: source) }
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
        guard let start = schemeEnd else { return url }
        var end = start
        while end < chars.count && chars[end] != "/" && chars[end] != "?" && chars[end] != "#" { end += 1 }
        guard let at = chars[start..<end].lastIndex(of: "@") else { return url }
        return String(chars[..<start]) + "<redacted>@" + String(chars[(at + 1)...])
    }
}
