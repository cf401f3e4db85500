@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// The one place where the library's typed reasons become the sentences and exit statuses users
/// see. The library never names a flag; these messages do, so they change with the command table.
enum FailureMessages {
    /// Any error a command threw, as the final stderr line and exit status.
    static func failure(for error: any Error) -> CommandFailure {
        switch error {
        case let failure as CommandFailure: return failure
        case let error as GatewayError: return CommandFailure(ExitStatus(error), sentence(for: error))
        case let error as ConfigError:
            // A damaged or locked state database is the same trouble wherever it shows: exit 4.
            if case .secretUnavailable(_, _, _, .storeUnavailable) = error {
                return CommandFailure(.authentication, sentence(for: error))
            }
            // A host name that does not resolve is a connect failure found early, as wss:// finds it.
            if case .unresolvableHost = error { return CommandFailure(.connection, sentence(for: error)) }
            // Refused before any socket, as a connection the proxy settings forbid (the official runtime's words).
            if case .proxyBlocksLoopback = error { return CommandFailure(.connection, sentence(for: error)) }
            return CommandFailure(.usage, sentence(for: error))
        case let error as UsageError: return CommandFailure(.usage, error.message)
        default: return CommandFailure(.protocolError, "\(error)")
        }
    }

    static func sentence(for error: GatewayError) -> String {
        switch error {
        case .cannotConnect(let text), .connectionLost(let text, _), .timedOut(let text), .protocolError(let text),
             .unavailable(let text, _), .invalidRequest(let text):
            return text
        case .connectFailed(let url, let origin, let reason):
            // A refused or unreachable gateway: say which one and where its URL came from; any other
            // reason (a name that does not resolve, TLS) names the host or the fix itself.
            guard case .connect(_, _, let error) = reason, let place = origin.flatMap(describe) else { return reason.description }
            return "cannot connect to \(shown(url)) (\(place)): \(error)"
        case .upgradeRejected(let status, let line, let sentEdgeAuth):
            let proxy = status == 401 || status == 403 || (300..<400).contains(status)
            let hint = !proxy ? ""
                : sentEdgeAuth ? "; an identity-aware proxy refused the headers of gateway.remote.edgeAuth: check their values"
                : "; an identity-aware proxy (Cloudflare Access or similar) may be in front of the gateway: give it the headers it needs in gateway.remote.edgeAuth"
            // 502, 503 and 504 come from a proxy in front of the gateway, about the gateway behind it.
            if (502...504).contains(status) {
                return "a proxy in front of the gateway answered the WebSocket upgrade with HTTP \(status) (\(line)): the gateway behind it is down, starting or unreachable"
            }
            return "the gateway rejected the WebSocket upgrade (HTTP \(status)): \(line)\(hint)"
        case .admissionRefused(.tooManyUnauthenticatedSockets):
            return "the gateway refused the connection for now: too many connections from this address are still authenticating (HTTP 503 \"Too many unauthenticated sockets\")"
        case .admissionRefused(.notReady(let words)):
            return "the gateway is not accepting connections yet (HTTP 503 \"\(Console.oneLine(words))\")"
        case .certificateRejected(let host, let detail, let nameMismatch):
            let hint = nameMismatch
                ? ": the certificate is for another name (use --tls-fingerprint to pin it)"
                : " (use --cacert or --tls-fingerprint)"
            return "TLS: certificate verify failed for \(host): \(detail)\(hint)"
        case .handshakeTimedOut:
            return connectTimeout(error, cutShortBy: nil) ?? ""
        case .handshakeStepTimedOut(let url, let waitingFor, let limit):
            let what = waitingFor.map { "waiting for \($0) from" } ?? "waiting for the WebSocket upgrade from"
            return "timed out \(what) \(url) after \(limit) ms (OPENCLAW_HANDSHAKE_TIMEOUT_MS, default 15000)"
        case .authenticationFailed(let reason, _):
            return sentence(for: reason)
        }
    }

    static func sentence(for reason: AuthFailure) -> String {
        switch reason {
        case .identityUnusable(let error):
            return "\(error)"
        case .deviceIdentityRequired:
            return "the gateway requires a device identity: drop --no-device"
        case .accessDenied:
            return "access denied: the gateway accepted this device's credentials, but its access policy grants it nothing; "
                + "a gateway administrator must grant access (stored credentials are kept)"
        case .pairingPending(let pending):
            return sentence(for: .pairingRequired(requestId: pending.requestId, reason: pending.reason))
        case .pairingRequired(let requestId, let why):
            let approve = requestId.map { "; approve it on the gateway host with: openclaw devices approve \($0)" }
                ?? "; approve it on the gateway host with: openclaw devices list, then openclaw devices approve REQUEST_ID"
            return "pairing required: this device is not approved yet\(why.map { " (\($0))" } ?? "")\(approve)"
        case .tokenMissing(let urlSource):
            // The official rule: a URL given as a flag takes credentials only from flags.
            if urlSource == .option(.url) {
                return "the gateway requires a token: \(urlFlagTakesNoStoredCredentials); pass --token or --token-file"
            }
            return "the gateway requires a token: pass --token or --token-file, or set OPENCLAW_GATEWAY_TOKEN"
        case .tokenMismatch(let source):
            let which = source.map { " (from \(name(of: $0)))" } ?? " (the stored device token)"
            return "the gateway refused the token\(which): check it against gateway.auth.token on the gateway host"
        case .deviceTokenMismatch:
            return "the gateway refused this device's stored token: it was rotated or revoked; pass the shared token with --token to get a new one"
        case .passwordMissing(let urlSource):
            if urlSource == .option(.url) {
                return "the gateway requires a password: \(urlFlagTakesNoStoredCredentials); pass --password"
            }
            return "the gateway requires a password: pass --password or set OPENCLAW_GATEWAY_PASSWORD"
        case .passwordMismatch(let source):
            return "the gateway refused the password\(source.map { " (from \(name(of: $0)))" } ?? "")"
        case .rateLimited(let retryAfterMs):
            return "too many failed authentication attempts\(retryAfterMs.map { "; retry in \(($0 + 999) / 1000) s" } ?? "")"
        case .scopeMismatch:
            return "the device token does not cover the requested scopes: re-pair the device or request fewer --scope"
        case .refused(let message):
            return "authentication failed: \(message)"
        case .cannotSign(let detail):
            return "cannot sign the device proof: \(detail)"
        }
    }

    /// A URL as people write it: `ws://host:port` without the lone `/` of an empty path.
    /// A connect that timed out, naming the limit that ran out: `--connect-timeout`, or the command's
    /// `--timeout` (`cutShortBy`, seconds) when that came first. Nil for any other error.
    static func connectTimeout(_ error: GatewayError, cutShortBy timeout: Double?) -> String? {
        guard case .handshakeTimedOut(let url, let waitingFor, let limit, let origin) = error else { return nil }
        let what = waitingFor.map { "waiting for \($0) from" } ?? "connecting to"
        // Where the URL came from matters when nothing answered, not once the gateway has.
        let place = waitingFor == nil ? origin.flatMap(describe).map { "\($0); " } ?? "" : ""
        let ranOut = timeout.map { "--timeout \(formatSeconds($0)) ran out before --connect-timeout \(formatSeconds(limit))" }
            ?? "--connect-timeout \(formatSeconds(limit))"
        return "timed out \(what) \(shown(url)) (\(place)\(ranOut))"
    }

    static func shown(_ url: String) -> String {
        let parts = url.split(separator: "/", omittingEmptySubsequences: false)  // "ws:", "", "host:port", path…
        return parts.count == 4 && parts[3].isEmpty ? String(url.dropLast()) : url
    }

    static let urlFlagTakesNoStoredCredentials = "with --url, credentials from the environment and the config file are not used"

    /// Where a gateway URL came from and how to choose another, for a connect that failed; nil when
    /// the source names nothing to change.
    static func describe(_ origin: URLOrigin) -> String? {
        let elsewhere = "pass --url or set OPENCLAW_GATEWAY_URL"
        switch origin.source {
        case .option(.url):
            return "from --url"
        case .environment(let variable):
            return "from \(variable); change it, or pass --url"
        case .configKey(let key, let path):
            return "from \(key) in \(path); change it, or \(elsewhere)"
        case .localGateway(.builtInDefault):
            let config = origin.configPath.map { "in \($0)" } ?? "in the config file"
            return "the default local gateway; set another with --url, OPENCLAW_GATEWAY_URL or gateway.port \(config)"
        case .localGateway(.profile(let profile)):
            return "the local gateway of profile \(profile); set another with --url, OPENCLAW_GATEWAY_URL or OPENCLAW_GATEWAY_PORT"
        case .localGateway(let port):
            return "the local gateway, port from \(name(of: port)); change it, or \(elsewhere)"
        default:
            return nil
        }
    }

    static func sentence(for error: ConfigError) -> String { configWords.sentence(for: error) }

    /// The configuration sentences in this CLI's words: its flags, and the flags that work around a
    /// credential the config file cannot give.
    static let configWords = ConfigErrorWords(
        optionName: flag(for:),
        insteadOfStoredToken: "pass --token/--token-file",
        insteadOfUnsupportedRef: "pass --token or --token-file (or set OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD)",
        insteadOfPluginProvider: "pass --token/--password",
        insteadOfRemoteURL: "pass --url")

    /// Where a setting came from, in the words of this CLI.
    static func name(of source: SettingSource) -> String { configWords.name(of: source) }

    /// The flag that sets a connection option (a unit test checks each is in the command table).
    static func flag(for option: ConnectionOption) -> String {
        switch option {
        case .url: return "--url"
        case .token: return "--token"
        case .tokenFile: return "--token-file"
        case .password: return "--password"
        case .stateDirectory: return "--state-dir"
        case .configPath: return "--config"
        case .tlsFingerprint: return "--tls-fingerprint"
        case .caBundle: return "--cacert"
        case .profile: return "--profile"
        }
    }
}
