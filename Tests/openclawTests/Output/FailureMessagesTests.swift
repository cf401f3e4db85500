import Foundation
import Testing
@testable import openclaw
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// The one mapping from the library's typed reasons to the sentences and exit statuses users see.
@Suite struct FailureMessagesTests {
    static let auth: [(AuthFailure, String)] = [
        (.identityUnusable(.corrupt(path: "/s/identity/device.json", reason: "not a JSON object")),
         "device identity /s/identity/device.json is unusable (not a JSON object); move it aside to create a new identity"
            + " (the gateway will then ask to pair this device again)"),
        (.deviceIdentityRequired, "the gateway requires a device identity: drop --no-device"),
        (.pairingRequired(requestId: "r1", reason: "not-paired"),
         "pairing required: this device is not approved yet (not-paired); approve it on the gateway host with: openclaw devices approve r1"),
        (.pairingRequired(requestId: nil, reason: nil),
         "pairing required: this device is not approved yet; approve it on the gateway host with: openclaw devices list, then openclaw devices approve REQUEST_ID"),
        (.tokenMissing(urlSource: nil), "the gateway requires a token: pass --token or --token-file, or set OPENCLAW_GATEWAY_TOKEN"),
        (.tokenMissing(urlSource: .environment("OPENCLAW_GATEWAY_URL")),
         "the gateway requires a token: pass --token or --token-file, or set OPENCLAW_GATEWAY_TOKEN"),
        // The official rule: a --url takes credentials from flags only, so setting a variable would not help.
        (.tokenMissing(urlSource: .option(.url)),
         "the gateway requires a token: with --url, credentials from the environment and the config file are not used;"
            + " pass --token or --token-file"),
        (.tokenMismatch(source: .environment("OPENCLAW_GATEWAY_TOKEN")),
         "the gateway refused the token (from OPENCLAW_GATEWAY_TOKEN): check it against gateway.auth.token on the gateway host"),
        (.tokenMismatch(source: .tokenFile(path: "/t")),
         "the gateway refused the token (from --token-file /t): check it against gateway.auth.token on the gateway host"),
        (.tokenMismatch(source: nil),
         "the gateway refused the token (the stored device token): check it against gateway.auth.token on the gateway host"),
        (.deviceTokenMismatch,
         "the gateway refused this device's stored token: it was rotated or revoked; pass the shared token with --token to get a new one"),
        (.passwordMissing(urlSource: .localGateway(port: .builtInDefault)),
         "the gateway requires a password: pass --password or set OPENCLAW_GATEWAY_PASSWORD"),
        (.passwordMissing(urlSource: .option(.url)),
         "the gateway requires a password: with --url, credentials from the environment and the config file are not used;"
            + " pass --password"),
        (.passwordMismatch(source: .option(.password)), "the gateway refused the password (from --password)"),
        (.rateLimited(retryAfterMs: 1500), "too many failed authentication attempts; retry in 2 s"),
        (.rateLimited(retryAfterMs: nil), "too many failed authentication attempts"),
        (.scopeMismatch, "the device token does not cover the requested scopes: re-pair the device or request fewer --scope"),
        (.refused(message: "unauthorized: nope"), "authentication failed: unauthorized: nope"),
        (.accessDenied(message: "Gateway access is no longer active; ask a Gateway administrator to restore it."),
         "access denied: the gateway accepted this device's credentials, but its access policy grants it nothing; "
            + "a gateway administrator must grant access (stored credentials are kept)"),
    ]

    @Test(arguments: auth)
    func authReasonsBecomeOneActionableLine(_ reason: AuthFailure, _ sentence: String) {
        let failure = FailureMessages.failure(for: GatewayError.authenticationFailed(reason, nil))
        #expect(failure.message == sentence)
        #expect(failure.status == .authentication)
    }

    /// An operator the access policy grants nothing is reported as someone having to act, but `watch`
    /// keeps asking: access granted later applies without anyone acting here.
    @Test func accessDeniedIsExit4ButWorthAskingAgain() {
        let denied = GatewayError.authenticationFailed(.accessDenied(message: "no"), nil)
        #expect(FailureMessages.failure(for: denied).status == .authentication)
        #expect(denied.isRetryable)
        #expect(!GatewayError.authenticationFailed(.pairingRequired(requestId: "r", reason: nil), nil).isRetryable)
    }

    @Test func transportAndTimeoutReasons() {
        let cases: [(GatewayError, String, openclaw.ExitStatus)] = [
            (.certificateRejected(host: "h", detail: "self-signed certificate", nameMismatch: false),
             "TLS: certificate verify failed for h: self-signed certificate (use --cacert or --tls-fingerprint)", .connection),
            (.certificateRejected(host: "h", detail: "hostname mismatch", nameMismatch: true),
             "TLS: certificate verify failed for h: hostname mismatch: the certificate is for another name (use --tls-fingerprint to pin it)", .connection),
            (.handshakeTimedOut(url: "ws://h:1", waitingFor: nil, limitSeconds: 2.5), "timed out connecting to ws://h:1 (--connect-timeout 2.5)", .timeout),
            (.handshakeTimedOut(url: "ws://h:1", waitingFor: "hello-ok", limitSeconds: 10),
             "timed out waiting for hello-ok from ws://h:1 (--connect-timeout 10)", .timeout),
            (.upgradeRejected(httpStatus: 502, statusLine: "HTTP/1.1 502 Bad Gateway", sentEdgeAuth: false),
             "a proxy in front of the gateway answered the WebSocket upgrade with HTTP 502 (HTTP/1.1 502 Bad Gateway): the gateway behind it is down, starting or unreachable", .connection),
            (.protocolError("bad frame"), "bad frame", .protocolError),
            (.unavailable("gateway unavailable: starting", retryAfterMs: 500), "gateway unavailable: starting", .connection),
            (.invalidRequest("too large"), "too large", .usage),
        ]
        for (error, sentence, status) in cases {
            let failure = FailureMessages.failure(for: error)
            #expect(failure.message == sentence)
            #expect(failure.status == status)
        }
    }

    static let refused = TransportError.connect(host: "127.0.0.1", port: 18789, error: SystemError(code: ECONNREFUSED))
    static let config = "/h/.openclaw/openclaw.json"

    /// A refused connect names the URL, where it came from and how to set another; the errno's own words end it.
    static let origins: [(URLOrigin?, String)] = [
        (URLOrigin(source: .localGateway(port: .builtInDefault), configPath: config),
         "cannot connect to ws://127.0.0.1:18789 (the default local gateway; set another with --url, OPENCLAW_GATEWAY_URL"
            + " or gateway.port in /h/.openclaw/openclaw.json): Connection refused"),
        (URLOrigin(source: .option(.url)), "cannot connect to ws://127.0.0.1:18789 (from --url): Connection refused"),
        (URLOrigin(source: .environment("OPENCLAW_GATEWAY_URL")),
         "cannot connect to ws://127.0.0.1:18789 (from OPENCLAW_GATEWAY_URL; change it, or pass --url): Connection refused"),
        (URLOrigin(source: .configKey("gateway.remote.url", path: config)),
         "cannot connect to ws://127.0.0.1:18789 (from gateway.remote.url in /h/.openclaw/openclaw.json; change it,"
            + " or pass --url or set OPENCLAW_GATEWAY_URL): Connection refused"),
        (URLOrigin(source: .localGateway(port: .configKey("gateway.port", path: config))),
         "cannot connect to ws://127.0.0.1:18789 (the local gateway, port from gateway.port in /h/.openclaw/openclaw.json;"
            + " change it, or pass --url or set OPENCLAW_GATEWAY_URL): Connection refused"),
        (URLOrigin(source: .localGateway(port: .environment("OPENCLAW_GATEWAY_PORT"))),
         "cannot connect to ws://127.0.0.1:18789 (the local gateway, port from OPENCLAW_GATEWAY_PORT;"
            + " change it, or pass --url or set OPENCLAW_GATEWAY_URL): Connection refused"),
        (URLOrigin(source: .localGateway(port: .profile("dev"))),
         "cannot connect to ws://127.0.0.1:18789 (the local gateway of profile dev; set another with --url,"
            + " OPENCLAW_GATEWAY_URL or OPENCLAW_GATEWAY_PORT): Connection refused"),
        // Through an SSH tunnel nothing is named here: the tunnel's messages say where it went.
        (nil, "cannot connect to 127.0.0.1:18789: Connection refused"),
    ]

    @Test(arguments: origins)
    func aRefusedConnectSaysWhereTheURLCameFrom(_ origin: URLOrigin?, _ sentence: String) {
        let failure = FailureMessages.failure(for: GatewayError.connectFailed(url: "ws://127.0.0.1:18789/", origin: origin, reason: Self.refused))
        #expect(failure.message == sentence)
        #expect(failure.status == .connection)
    }

    @Test func otherConnectFailuresKeepTheTransportsWordsAndATimeoutNamesTheOriginOnlyWhenNothingAnswered() {
        let origin = URLOrigin(source: .option(.url))
        let cases: [(GatewayError, String, openclaw.ExitStatus)] = [
            (.connectFailed(url: "ws://nope.invalid:1/", origin: origin, reason: .resolve(host: "nope.invalid", reason: "Name or service not known")),
             "cannot resolve nope.invalid: Name or service not known", .connection),
            (.connectFailed(url: "wss://h:1/", origin: origin, reason: .tls("handshake with h failed: x")), "TLS: handshake with h failed: x", .connection),
            (.handshakeTimedOut(url: "ws://h:1/", waitingFor: nil, limitSeconds: 10, origin: origin),
             "timed out connecting to ws://h:1 (from --url; --connect-timeout 10)", .timeout),
            (.handshakeTimedOut(url: "ws://h:1/", waitingFor: "hello-ok", limitSeconds: 10, origin: origin),
             "timed out waiting for hello-ok from ws://h:1 (--connect-timeout 10)", .timeout),
            (.handshakeTimedOut(url: "ws://h:1/gw/", waitingFor: nil, limitSeconds: 1, origin: nil),
             "timed out connecting to ws://h:1/gw/ (--connect-timeout 1)", .timeout),
        ]
        for (error, sentence, status) in cases {
            let failure = FailureMessages.failure(for: error)
            #expect(failure.message == sentence)
            #expect(failure.status == status)
        }
        let unresolvable = FailureMessages.failure(for: ConfigError.unresolvableHost(host: "gatway.exmaple.invalid", reason: "Name or service not known"))
        #expect(unresolvable.message == "cannot resolve gatway.exmaple.invalid: Name or service not known")
        #expect(unresolvable.status == .connection)
    }

    @Test func configReasonsNameTheFlagOrPlaceAndTheFix() {
        let insecure = FailureMessages.failure(for: ConfigError.insecureWebSocket(url: "ws://gw:1", source: .option(.url)))
        #expect(insecure.status == openclaw.ExitStatus.usage)
        #expect(insecure.message.hasPrefix("refusing plaintext ws://gw:1 (from --url) to a non-loopback host"))
        #expect(insecure.message.contains("ssh -N -L 18789:127.0.0.1:18789 user@host"))
        #expect(insecure.message.contains("OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1"))
        #expect(FailureMessages.sentence(for: .conflictingOptions(.token, .tokenFile)) == "--token and --token-file cannot be used together")
        #expect(FailureMessages.sentence(for: .unsupportedSecretRef(key: "k", source: "pass", path: "/p")).contains("pass --token or --token-file"))
        #expect(FailureMessages.sentence(for: .configSyntax(path: "/p", line: 3, column: 11, message: "x")) == "config file /p:3:11: x")
        #expect(FailureMessages.sentence(for: .invalidURL(url: "http://x", source: .localGateway(port: .configKey("gateway.port", path: "/c"))))
                == "invalid gateway URL \"http://x\" from local gateway (port from gateway.port in /c): expected ws://host[:port][/path] or wss://…")
    }

    @Test func secretRefFailuresNameTheFileKeyAndProviderInOneLine() {
        let ref = SecretRef(source: .exec, provider: "vault", id: "gateway/token")
        let timedOut = FailureMessages.failure(for: ConfigError.secretUnavailable(
            key: "gateway.auth.token", path: "/h/.openclaw/openclaw.json", ref: ref, problem: .timedOut(milliseconds: 300)))
        #expect(timedOut.status == .usage)
        #expect(timedOut.message == "config file /h/.openclaw/openclaw.json: gateway.auth.token: secret provider \"vault\" (exec):"
                + " the command timed out after 300 ms (timeoutMs) and was stopped")
        let file = SecretRef(source: .file, provider: "files", id: "/t")
        #expect(FailureMessages.sentence(for: .secretUnavailable(
            key: "gateway.remote.password", path: "/c", ref: file, problem: .fileInsecurePermissions(path: "/s.json", permissions: 0o644)))
            == "config file /c: gateway.remote.password: secret provider \"files\" (file): refusing /s.json: mode 0644 lets group or others read or write it; chmod 600 it")
        // Every problem is worded on one line.
        let problems: [SecretProblem] = [
            .invalidReference("x"), .providerNotConfigured, .providerSourceMismatch(configured: "env"), .providerInvalid("x"),
            .pluginProviderUnsupported, .notAllowlisted, .variableUnset, .fileUnreadable(path: "/p", reason: "r"),
            .fileIsSymbolicLink(path: "/p"), .fileNotRegular(path: "/p"), .fileNotOwned(path: "/p", owner: 1, user: 2),
            .fileTooLarge(path: "/p", limit: 1), .fileNotJSONObject(path: "/p"), .singleValueIDRequired, .jsonPointerRequired,
            .pointerNotFound, .commandNotAbsolute("c"), .commandUnusable(path: "/c", reason: "r"), .commandIsSymbolicLink(path: "/c"),
            .commandNotRegular(path: "/c"), .commandNotOwned(path: "/c", owner: 1, user: 2),
            .commandWritableByOthers(path: "/c", permissions: 0o777), .commandOutsideTrustedDirectories(path: "/c"),
            .commandFailedToStart(path: "/c", reason: "r"), .noOutputTimedOut(milliseconds: 1), .outputTooLarge(limit: 1),
            .exited(code: 1), .killedBySignal(9), .emptyOutput, .invalidResponse("x"), .providerError(code: nil),
            .providerError(code: "NOT_FOUND"), .idMissingFromResponse, .commandIO("x"), .storedSecretNotFound,
            .valueNotAString, .valueEmpty,
        ]
        for problem in problems {
            let failure = FailureMessages.failure(for: ConfigError.secretUnavailable(key: "k", path: "/p", ref: ref, problem: problem))
            #expect(failure.status == .usage && !failure.message.contains("\n") && failure.message.contains("secret provider \"vault\""),
                    "\(problem)")
        }
        // A state database that cannot be read is the state database's trouble: status 4, as everywhere else.
        let store = FailureMessages.failure(for: ConfigError.secretUnavailable(
            key: "k", path: "/p", ref: SecretRef(source: .store, provider: "default", id: "T"),
            problem: .storeUnavailable(StateDatabaseError(path: "/s.sqlite", problem: .corrupt))))
        #expect(store.status == .authentication)
        #expect(FailureMessages.failure(for: ConfigError.invalidProfile(name: "a/b", source: .option(.profile))).message
                == "invalid profile \"a/b\" from --profile: use 1 to 64 letters, digits, _ or -, starting with a letter or digit")
        let step = FailureMessages.failure(for: GatewayError.handshakeStepTimedOut(url: "ws://h:1", waitingFor: nil, limitMilliseconds: 300))
        #expect(step.status == .timeout)
        #expect(step.message == "timed out waiting for the WebSocket upgrade from ws://h:1 after 300 ms (OPENCLAW_HANDSHAKE_TIMEOUT_MS, default 15000)")
    }

    @Test func everyConnectionOptionIsSpelledAsAFlagOfTheTable() {
        let longs = Set(CommandTable.globalFlags.map { "--" + $0.long })
        for option in ConnectionOption.allCases {
            #expect(longs.contains(FailureMessages.flag(for: option)), "\(option)")
        }
    }

    @Test func anythingElseIsAProtocolError() {
        struct Odd: Error {}
        #expect(FailureMessages.failure(for: Odd()).status == .protocolError)
    }
}
