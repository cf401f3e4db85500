@_spi(Engine) import ClawSession

/// Why a connection, a request or a run failed: a `code` to decide on, one sentence to show, and the
/// details that code carries. New codes may come in any release, so compare codes rather than
/// `switch` over every one:
///
/// ```swift
/// } catch let error as GatewayClientError where error.code == .authenticationFailed {
///     print("re-pair this device: \(error)")
/// } catch let error as GatewayClientError where error.isRetryable {
///     try await Task.sleep(for: error.retryAfter ?? .seconds(5))
/// }
/// ```
/// No error ever holds a secret: tokens, passwords and headers never reach `description`.
public struct GatewayClientError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a program decides on. Extensible: new codes break no one.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        /// Nothing listens at the gateway's address (or a firewall said no).
        public static let connectionRefused = Code("connectionRefused")
        /// The gateway's host name does not resolve.
        public static let hostUnresolvable = Code("hostUnresolvable")
        /// The connection could not be made for another reason (network unreachable, no route, …).
        public static let connectionFailed = Code("connectionFailed")
        /// The connect, a handshake step or a request's answer took longer than its limit.
        public static let timedOut = Code("timedOut")
        /// The gateway's certificate was refused; `certificateProblem` says why.
        public static let certificateRejected = Code("certificateRejected")
        /// TLS failed other than on the certificate (protocol versions, a reset handshake, …).
        public static let tlsFailed = Code("tlsFailed")
        /// The WebSocket upgrade was answered with another HTTP status (`httpStatus`): often a proxy's.
        public static let upgradeRejected = Code("upgradeRejected")
        /// The gateway refused to let us in; `authenticationProblem` says why.
        public static let authenticationFailed = Code("authenticationFailed")
        /// Too many attempts: wait `retryAfter` (when the gateway said) before the next.
        public static let rateLimited = Code("rateLimited")
        /// The gateway is restarting, suspended or starting; it named how long to wait in `retryAfter`.
        public static let gatewayRestarting = Code("gatewayRestarting")
        /// An established connection ended without this side closing it.
        public static let connectionLost = Code("connectionLost")
        /// The SSH tunnel the configuration names could not be opened or ended.
        public static let tunnelFailed = Code("tunnelFailed")
        /// The forward proxy (`GatewayConfiguration.proxy`) could not be reached, refused the tunnel or
        /// the credentials (`httpStatus`: its answer to CONNECT), or closed it. Retryable when the proxy was
        /// away or cut the tunnel, or answered 502, 503 or 504; a refusal waits for someone to act.
        public static let proxyFailed = Code("proxyFailed")
        /// The gateway sent something that breaks the protocol.
        public static let protocolError = Code("protocolError")
        /// The gateway answered a request with an error (`gatewayError`, `method`).
        public static let requestFailed = Code("requestFailed")
        /// A request this side would not send (larger than the gateway accepts).
        public static let invalidRequest = Code("invalidRequest")
        /// A run ended aborted or with an error instead of a final reply (`runId`, `runState`).
        public static let runFailed = Code("runFailed")
        /// The connection was closed by this side before the answer came.
        public static let closed = Code("closed")
        /// The configuration cannot work; `configurationProblem` says which part.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// Text given to `JSONValue(parsing:)` is not JSON.
        public static let invalidJSON = Code("invalidJSON")
    }

    public let code: Code
    /// One sentence for a person or a log, without secrets and without any command-line advice.
    public let description: String
    /// Whether the same call may succeed later with nothing changed. The rule, the same on every path:
    /// refused, unresolvable, failed and lost connections, time-outs, a rejected upgrade, a restarting
    /// gateway, rate limits, a tunnel that ended, a proxy that was away, and gateway errors it marks
    /// retryable may pass; a certificate, TLS, authentication, configuration or protocol problem, a proxy's
    /// refusal, a failed run and a closed connection wait for someone to act.
    public let isRetryable: Bool
    /// How long to wait before trying again, when the gateway said.
    public let retryAfter: Duration?

    /// For `.certificateRejected`.
    public internal(set) var certificateProblem: CertificateProblem?
    /// For `.authenticationFailed`.
    public internal(set) var authenticationProblem: AuthenticationProblem?
    /// For `.invalidConfiguration`.
    public internal(set) var configurationProblem: ConfigurationProblem?
    /// For `.requestFailed`, and an `.authenticationFailed` whose refusal carried the gateway's error.
    public internal(set) var gatewayError: GatewayErrorInfo?
    /// The gateway method of a `.requestFailed` or a request's `.timedOut`.
    public internal(set) var method: String?
    /// The run of a `.runFailed`.
    public internal(set) var runId: String?
    /// How that run ended: `aborted` or `error`.
    public internal(set) var runState: String?
    /// The HTTP status of an `.upgradeRejected` (a proxy's or the gateway's own answer to the upgrade,
    /// 503 past its cap of unauthenticated sockets), or of a `.proxyFailed` (the proxy's answer to CONNECT).
    public internal(set) var httpStatus: Int?
    /// The WebSocket close code of a `.connectionLost`, when the gateway sent one.
    public internal(set) var closeCode: UInt16?
    /// The pairing request to approve, when `authenticationProblem` is `.pairingRequired`.
    public internal(set) var pairingRequestId: String?
    /// This client's device id, when `authenticationProblem` is `.pairingRequired`: the device an
    /// administrator approves (`openclaw devices list` shows it beside the request).
    public internal(set) var deviceId: String?

    /// The engine's reason, for the reconnect schedule (a restart delay, a retry-after).
    var engineReason: GatewayError?

    init(_ code: Code, _ description: String, retryAfter: Duration? = nil, retryable: Bool? = nil) {
        self.code = code
        self.description = description
        self.retryAfter = retryAfter
        isRetryable = retryable ?? Self.retryableCodes.contains(code)
    }

    private static let retryableCodes: Set<Code> = [
        .connectionRefused, .hostUnresolvable, .connectionFailed, .timedOut, .upgradeRejected, .rateLimited,
        .gatewayRestarting, .connectionLost, .tunnelFailed,
    ]

    static let closedByThisSide = GatewayClientError(.closed, "the connection was closed")
}

/// An error the gateway sent in answer to a request (`res` with `ok: false`).
public struct GatewayErrorInfo: Sendable, Equatable {
    /// The gateway's code: `INVALID_REQUEST`, `UNAVAILABLE`, `NOT_FOUND`, …
    public var code: String
    public var message: String
    public var details: JSONValue?
    /// The gateway says the same request may succeed later.
    public var isRetryable: Bool
    /// How long the gateway asked to wait before sending it again.
    public var retryAfterMs: Int64?
}

/// Why a certificate was refused. Extensible: compare with `==`.
public struct CertificateProblem: Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ name: String) { description = name }

    /// A certificate of the chain is past its end date.
    public static let expired = CertificateProblem("expired")
    /// A certificate of the chain is not valid yet (or this machine's clock is wrong).
    public static let notYetValid = CertificateProblem("notYetValid")
    /// The chain ends at an authority this machine does not trust, or lacks its intermediates.
    public static let untrustedIssuer = CertificateProblem("untrustedIssuer")
    /// The certificate signs itself and is not trusted.
    public static let selfSigned = CertificateProblem("selfSigned")
    /// The certificate is for another name.
    public static let nameMismatch = CertificateProblem("nameMismatch")
    /// The certificate is not the one pinned (`TLSTrust.pinned`).
    public static let pinMismatch = CertificateProblem("pinMismatch")
    /// Another reason; the error's `description` has OpenSSL's words.
    public static let other = CertificateProblem("other")
}

/// Why the gateway refused to let us in. Extensible: compare with `==`.
public struct AuthenticationProblem: Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ name: String) { description = name }

    /// The gateway wants a token and none was given.
    public static let tokenMissing = AuthenticationProblem("tokenMissing")
    /// The token was refused.
    public static let tokenRefused = AuthenticationProblem("tokenRefused")
    /// The gateway wants a password and none was given.
    public static let passwordMissing = AuthenticationProblem("passwordMissing")
    /// The password was refused.
    public static let passwordRefused = AuthenticationProblem("passwordRefused")
    /// The device token kept in the state directory was refused.
    public static let deviceTokenRefused = AuthenticationProblem("deviceTokenRefused")
    /// The gateway wants a device identity (`GatewayConfiguration.deviceIdentity`).
    public static let deviceIdentityRequired = AuthenticationProblem("deviceIdentityRequired")
    /// This device must be approved first (`pairingRequestId` names the request when the gateway said).
    public static let pairingRequired = AuthenticationProblem("pairingRequired")
    /// The scopes asked for are not granted to this device or token.
    public static let scopeNotGranted = AuthenticationProblem("scopeNotGranted")
    /// The gateway denied access.
    public static let accessDenied = AuthenticationProblem("accessDenied")
    /// The device identity cannot be read, made or used.
    public static let deviceIdentityUnusable = AuthenticationProblem("deviceIdentityUnusable")
    /// The SSH server refused the host key or the login.
    public static let sshRefused = AuthenticationProblem("sshRefused")
    /// Another refusal; the error's `description` has the gateway's words.
    public static let other = AuthenticationProblem("other")
}

/// Which part of a configuration cannot work. Extensible: compare with `==`.
public struct ConfigurationProblem: Hashable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ name: String) { description = name }

    /// The gateway URL is not `ws://` or `wss://`.
    public static let invalidURL = ConfigurationProblem("invalidURL")
    /// A plaintext `ws://` URL to a host that is not this machine.
    public static let insecureURL = ConfigurationProblem("insecureURL")
    /// The OpenClaw config file cannot be read or holds something invalid.
    public static let configFile = ConfigurationProblem("configFile")
    /// A credential the configuration names (a secret ref, a variable, a file) cannot be had.
    public static let credentialUnavailable = ConfigurationProblem("credentialUnavailable")
    /// The profile name is not a valid one.
    public static let invalidProfile = ConfigurationProblem("invalidProfile")
    /// The TLS pin is malformed or needs `wss://`.
    public static let invalidTLSPin = ConfigurationProblem("invalidTLSPin")
    /// Edge-auth headers that need `wss://` or are empty.
    public static let edgeAuth = ConfigurationProblem("edgeAuth")
    /// The SSH route needs an `ssh` client that cannot be found or started.
    public static let sshClient = ConfigurationProblem("sshClient")
    /// Two settings that cannot be used together.
    public static let conflictingSettings = ConfigurationProblem("conflictingSettings")
    /// The device key could not be made.
    public static let deviceKey = ConfigurationProblem("deviceKey")
    /// The forward proxy's settings cannot be used: a malformed proxy URL, `proxy.enabled` with no URL,
    /// or a loopback gateway under `proxy.loopbackMode` `block`.
    public static let proxy = ConfigurationProblem("proxy")
}
