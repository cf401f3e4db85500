@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState

extension SessionOptions {
    /// The one conversion from a resolved connection (flags, environment and config file, as
    /// `ConnectionResolver` reads them the official way) to session options: URL and where it came
    /// from, credentials still as `Secret`, edge-auth headers, TLS trust, the SSH route, the device
    /// identity and token store of the state directory. The CLI and the library both use it, then set
    /// what is theirs (scopes, capabilities, timeouts from flags, a tracer).
    ///
    /// `warn` receives what did not stop the conversion (an unreadable `NODE_EXTRA_CA_CERTS`).
    @_spi(Engine) public init(resolved: ResolvedConnection, clientVersion: String, environment: Environment,
                usesDeviceIdentity: Bool = true, warn: (String) -> Void = { _ in }) {
        self.init(url: resolved.url, clientVersion: clientVersion)
        urlOrigin = URLOrigin(source: resolved.urlSource, configPath: resolved.configPath)
        token = resolved.token
        tokenSource = resolved.tokenSource
        password = resolved.password
        passwordSource = resolved.passwordSource
        upgradeHeaders = resolved.upgradeHeaders
        sshRoute = resolved.sshRoute
        proxy = resolved.proxy
        if resolved.url.isSecure {
            tls = TLSClientOptions(serverName: resolved.url.host, caBundlePath: resolved.caBundlePath,
                                   pinnedSHA256: resolved.tlsFingerprint)
            if resolved.tlsFingerprint == nil { tls?.trust = Self.systemTrust(environment, warn: warn) }
        }
        if let milliseconds = Self.handshakeTimeoutMilliseconds(environment) {
            handshakeTimeout = Double(milliseconds) / 1000
            // Both steps must fit in the default connect limit.
            connectTimeout = max(connectTimeout, 2 * handshakeTimeout)
        }
        // Before OpenSSL's first use (the device key, or the upgrade's SHA-1 without a device).
        if !resolved.url.isSecure { OpenSSLRuntime.skipErrorStringsWithoutTLS() }
        guard usesDeviceIdentity else { return }
        let stateDirectory = resolved.stateDirectory
        // One look at the state directory (no state yet: the database, created with the identity); in
        // the database layout the identity and the token rows share one connection, which the session
        // closes after the handshake.
        let layout = StateLayout(stateDirectory: stateDirectory, environment: environment)
        identitySource = DeviceIdentitySource { () throws(IdentityError) in
            try DeviceIdentity.loadOrCreate(stateDirectory: stateDirectory, layout: layout)
        }
        // A device token belongs to the gateway that issued it: the database files each target's apart
        // (one a native client created keeps only the configured gateway's); the older JSON file holds
        // only the configured gateway's.
        deviceAuthStore = layout.deviceTokenStore(
            stateDirectory: stateDirectory, url: resolved.url, pinnedSHA256: resolved.tlsFingerprint,
            isConfiguredLocalGateway: !resolved.urlIsOverride && !resolved.isRemoteMode,
            isOverride: resolved.urlIsOverride)
    }

    /// `OPENCLAW_HANDSHAKE_TIMEOUT_MS`: a positive whole number of milliseconds written with digits only;
    /// any other value is ignored, as the official client ignores it.
    @_spi(Engine) public static func handshakeTimeoutMilliseconds(_ environment: Environment) -> Int? {
        guard let text = environment["OPENCLAW_HANDSHAKE_TIMEOUT_MS"], !text.isEmpty, text.utf8.count <= 12,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), value > 0
        else { return nil }
        return value
    }

    /// The system's trusted certificates as the official CLI (Node) sees them: the store, `SSL_CERT_FILE`
    /// and `SSL_CERT_DIR`, and `NODE_EXTRA_CA_CERTS` besides.
    @_spi(Engine) public static func systemTrust(_ environment: Environment, warn: (String) -> Void = { _ in }) -> CertificateTrust {
        .system(environment: environment, extraBundles: nodeExtraCACertificates(environment, warn: warn).map { [$0] } ?? [])
    }

    /// `NODE_EXTRA_CA_CERTS`: a PEM bundle the official CLI (Node) trusts besides the system's store. As
    /// Node does, a file that cannot be read or holds no certificate is ignored with a warning.
    static func nodeExtraCACertificates(_ environment: Environment, warn: (String) -> Void) -> String? {
        guard let path = TextTrim.nonEmpty(environment["NODE_EXTRA_CA_CERTS"]) else { return nil }
        let reason: String
        do {
            let bytes = try FileSystem.readFile(path)
            let marker = Array("-----BEGIN CERTIFICATE-----".utf8)
            if bytes.withUnsafeBytes({ b in marker.withUnsafeBytes { Memory.firstOffset(of: $0, in: b) } }) != nil { return path }
            reason = "it holds no PEM certificate"
        } catch {
            reason = error.reason
        }
        warn("warning: ignoring extra certs from NODE_EXTRA_CA_CERTS=\(path): \(reason)")
        return nil
    }
}
