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
            if case .secretStoreUnavailable = error { return CommandFailure(.authentication, sentence(for: error)) }
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
        case .certificateRejected(let host, let detail, let nameMismatch):
            let hint = nameMismatch
                ? ": the certificate is for another name (use --tls-fingerprint to pin it)"
                : " (use --cacert or --tls-fingerprint)"
            return "TLS: certificate verify failed for \(host): \(detail)\(hint)"
        case .handshakeTimedOut(let url, let waitingFor, let limit):
            let what = waitingFor.map { "waiting for \($0) from" } ?? "connecting to"
            return "timed out \(what) \(url) (--connect-timeout \(formatSeconds(limit)))"
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
        case .pairingRequired(let requestId, let why):
            let approve = requestId.map { "; approve it on the gateway host with: openclaw devices approve \($0)" }
                ?? "; approve it on the gateway host with: openclaw devices list, then openclaw devices approve REQUEST_ID"
            return "pairing required: this device is not approved yet\(why.map { " (\($0))" } ?? "")\(approve)"
        case .tokenMissing:
            return "the gateway requires a token: pass --token or --token-file, or set OPENCLAW_GATEWAY_TOKEN"
        case .tokenMismatch(let source):
            let which = source.map { " (from \(name(of: $0)))" } ?? " (the stored device token)"
            return "the gateway refused the token\(which): check it against gateway.auth.token on the gateway host"
        case .deviceTokenMismatch:
            return "the gateway refused this device's stored token: it was rotated or revoked; pass the shared token with --token to get a new one"
        case .passwordMissing:
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
        case .secretRefUnresolved(let key, let variable, let path):
            return "config file \(path): \(key) is a secret ref to the environment variable \(variable),"
                + " which is not set (set it, or pass --token/--token-file)"
        case .unsupportedSecretRef(let key, let source, let path):
            return "config file \(path): \(key) is a \"\(source)\" secret ref, which this client cannot resolve;"
                + " pass --token or --token-file (or set OPENCLAW_GATEWAY_TOKEN / OPENCLAW_GATEWAY_PASSWORD)"
        case .storedSecretMissing(let key, let name, let path):
            return "config file \(path): \(key) is a secret ref to the stored secret \(name), which the OpenClaw"
                + " state database does not hold (store it with the official CLI, or pass --token/--token-file)"
        case .secretStoreUnavailable(let key, let path, let problem):
            return "config file \(path): \(key): \(problem)"
        case .invalidURL(let url, let source):
            return "invalid gateway URL \"\(url)\" from \(name(of: source)): expected ws://host[:port][/path] or wss://…"
        case .insecureWebSocket(let url, let source):
            return "refusing plaintext \(url) (from \(name(of: source))) to a non-loopback host: credentials and chat would"
                + " cross the network unencrypted; use wss://, or an SSH tunnel"
                + " (ssh -N -L 18789:127.0.0.1:18789 user@host, then ws://127.0.0.1:18789),"
                + " or on a trusted private network set OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1"
        case .remoteURLMissing(let path):
            return "config file \(path): gateway.mode is \"remote\" but gateway.remote.url is missing;"
                + " set gateway.remote.url, set gateway.mode to \"local\", or pass --url"
        case .tokenFileUnreadable(let path, let reason):
            return "cannot read --token-file \(path): \(reason)"
        case .tokenFileEmpty(let path):
            return "--token-file \(path) is empty"
        case .invalidTLSFingerprint(let source):
            return "invalid TLS fingerprint from \(name(of: source)): expected 64 hex digits (SHA-256, colons allowed)"
        case .conflictingOptions(let first, let second):
            return "\(flag(for: first)) and \(flag(for: second)) cannot be used together"
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
        }
    }
}
