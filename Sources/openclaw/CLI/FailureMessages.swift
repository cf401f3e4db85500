import ClawSystem
import ClawState
import ClawSession

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
        case .certificateRejected(let host, let detail, let nameMismatch):
            let hint = nameMismatch
                ? ": the certificate is for another name (use --tls-fingerprint to pin it)"
                : " (use --cacert or --tls-fingerprint)"
            return "TLS: certificate verify failed for \(host): \(detail)\(hint)"
        case .handshakeTimedOut(let url, let waitingFor, let limit, let origin):
            let what = waitingFor.map { "waiting for \($0) from" } ?? "connecting to"
            // Where the URL came from matters when nothing answered, not once the gateway has.
            let place = waitingFor == nil ? origin.flatMap(describe).map { "\($0); " } ?? "" : ""
            return "timed out \(what) \(shown(url)) (\(place)--connect-timeout \(formatSeconds(limit)))"
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

    static func sentence(for error: ConfigError) -> String {
        switch error {
        case .configUnreadable(let path, let reason):
            return "cannot read config file \(path): \(reason)"
        case .configSyntax(let path, let line, let column, let message):
            return "config file \(path):\(line):\(column): \(message)"
        case .configInvalid(let path, let key, let expected):
            return "config file \(path): \(key) must be \(expected)"
        case .missingEnvironmentVariable(let name, let key, let path):
            return "config file \(path): \(key) uses ${\(name)} but the environment variable \(name) is not set"
                + " (set it, or pass --token/--token-file)"
        case .unsupportedSecretRef(let key, let source, let path):
            return "config file \(path): \(key) uses a \"\(source)\" lookup, which this client cannot run;"
                + " pass --token or --token-file (or set OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD)"
        case .secretUnavailable(let key, let path, let ref, let problem):
            if case .storeUnavailable(let database) = problem { return "config file \(path): \(key): \(database)" }
            return "config file \(path): \(key): secret provider \"\(ref.provider)\" (\(ref.source.rawValue)): "
                + sentence(for: problem, ref: ref)
        case .secretResolutionInterrupted(let key, let path, let ref):
            return "config file \(path): \(key): interrupted while secret provider \"\(ref.provider)\" (\(ref.source.rawValue)) ran"
        case .invalidProfile(let name, let source):
            return "invalid profile \"\(name)\" from \(self.name(of: source)): use 1 to 64 letters, digits, _ or -, starting with a letter or digit"
        case .invalidURL(let url, let source):
            return "invalid gateway URL \"\(url)\" from \(name(of: source)): expected ws://host[:port][/path] or wss://…"
        case .insecureWebSocket(let url, let source):
            return "refusing plaintext \(url) (from \(name(of: source))) to a non-loopback host: credentials and chat would"
                + " cross the network unencrypted; use wss://, or an SSH tunnel"
                + " (ssh -N -L 18789:127.0.0.1:18789 user@host, then ws://127.0.0.1:18789),"
                + " or on a trusted private network set OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1"
        case .unresolvableHost(let host, let reason):
            return "cannot resolve \(host): \(reason)"
        case .remoteURLMissing(let path):
            return "config file \(path): gateway.mode is \"remote\" but gateway.remote.url is missing;"
                + " set gateway.remote.url, set gateway.mode to \"local\", or pass --url"
        case .tokenFileUnreadable(let path, let reason):
            return "cannot read --token-file \(path): \(reason)"
        case .tokenFileEmpty(let path):
            return "--token-file \(path) is empty"
        case .invalidTLSFingerprint(let source):
            return "invalid TLS fingerprint from \(name(of: source)): expected a SHA-256 certificate fingerprint, 64 hex digits or 32 colon-separated pairs, optionally after sha256:"
        case .tlsPinRequiresWSS(let source):
            return "the TLS fingerprint from \(name(of: source)) needs a wss:// gateway URL"
        case .edgeAuthRequiresWSS(let path):
            return "config file \(path): gateway.remote.edgeAuth requires a wss:// gateway URL; its headers would cross the network in clear text"
        case .edgeAuthHeaderEmpty(let path, let header):
            return "config file \(path): gateway.remote.edgeAuth header \"\(header)\" resolved empty"
        case .conflictingOptions(let first, let second):
            return "\(flag(for: first)) and \(flag(for: second)) cannot be used together"
        }
    }

    /// Why a secret ref could not be resolved, after `secret provider "ALIAS" (SOURCE): `.
    /// Never the secret, nor anything the provider wrote.
    static func sentence(for problem: SecretProblem, ref: SecretRef) -> String {
        let octal = { (bits: UInt32) in "0" + String(bits, radix: 8) }
        switch problem {
        case .invalidReference(let why): return "the ref \(ref) is invalid: \(why)"
        case .providerNotConfigured: return "not configured; add secrets.providers.\(ref.provider) with source \"\(ref.source.rawValue)\""
        case .providerSourceMismatch(let configured):
            return "secrets.providers.\(ref.provider) has source \"\(configured)\" but the ref asks for \"\(ref.source.rawValue)\""
        case .providerInvalid(let why): return why
        case .pluginProviderUnsupported:
            return "a pluginIntegration provider, whose command only the official CLI knows; give it a command, or pass --token/--password"
        case .notAllowlisted: return "the variable \(ref.id) is not in the provider's allowlist"
        case .variableUnset: return "the environment variable \(ref.id) is not set"
        case .fileUnreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .fileIsSymbolicLink(let path): return "refusing \(path): it is a symbolic link; point path at the file itself"
        case .fileNotRegular(let path): return "refusing \(path): not a regular file"
        case .fileNotOwned(let path, let owner, let user):
            return "refusing \(path): owned by uid \(owner), not by the user running openclaw (uid \(user))"
        case .fileInsecurePermissions(let path, let permissions):
            return "refusing \(path): mode \(octal(permissions)) lets group or others read or write it; chmod 600 it"
        case .fileTooLarge(let path, let limit): return "refusing \(path): larger than maxBytes (\(limit) bytes)"
        case .fileNotJSONObject(let path): return "\(path) is not a JSON object (mode \"json\"; use mode \"singleValue\" for a bare secret)"
        case .singleValueIDRequired: return "a singleValue file takes the id \"value\", not \"\(ref.id)\""
        case .jsonPointerRequired: return "the id \"\(ref.id)\" is not a JSON pointer (mode \"json\" needs one such as \"/gateway/token\")"
        case .pointerNotFound: return "the file has no value at \(ref.id)"
        case .commandNotAbsolute(let command): return "refusing the command \(command): not an absolute path"
        case .commandUnusable(let path, let reason): return "cannot use the command \(path): \(reason)"
        case .commandIsSymbolicLink(let path): return "refusing the command \(path): it is a symbolic link; name the program itself"
        case .commandNotRegular(let path): return "refusing the command \(path): not a regular file"
        case .commandNotOwned(let path, let owner, let user):
            return "refusing the command \(path): owned by uid \(owner), not by the user running openclaw (uid \(user))"
        case .commandWritableByOthers(let path, let permissions):
            return "refusing the command \(path): mode \(octal(permissions)) lets group or others change it"
        case .commandOutsideTrustedDirectories(let path): return "refusing the command \(path): it is not inside trustedDirs"
        case .commandFailedToStart(let path, let reason): return "cannot start \(path): \(reason)"
        case .timedOut(let milliseconds): return "the command timed out after \(milliseconds) ms (timeoutMs) and was stopped"
        case .noOutputTimedOut(let milliseconds):
            return "the command wrote nothing for \(milliseconds) ms (noOutputTimeoutMs) and was stopped"
        case .outputTooLarge(let limit): return "the command wrote more than \(limit) bytes (maxOutputBytes) and was stopped"
        case .exited(let code): return "the command exited with code \(code)"
        case .killedBySignal(let signal): return "the command was killed by signal \(signal)"
        case .emptyOutput: return "the command wrote nothing on stdout"
        case .invalidResponse(let why): return "the command's reply is not the provider protocol: \(why)"
        case .providerError(let code): return "the command reported an error for \(ref.id)" + (code.map { " (\($0))" } ?? "")
        case .idMissingFromResponse: return "the command's reply has no value for \(ref.id)"
        case .commandIO(let why): return "cannot talk to the command: \(why)"
        case .storedSecretNotFound:
            return "the OpenClaw state database holds no secret named \(ref.id) (store it with the official CLI, or pass --token/--token-file)"
        case .storeUnavailable(let database): return "\(database)"
        case .valueNotAString: return "the value for \(ref.id) is not a string"
        case .valueEmpty: return "the value for \(ref.id) is empty"
        }
    }

    /// Where a setting came from, in the words of this CLI.
    static func name(of source: SettingSource) -> String {
        source.label(option: flag(for:))
    }

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
