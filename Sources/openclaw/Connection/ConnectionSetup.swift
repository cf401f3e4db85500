import ClawSystem
import ClawJSON
import ClawCrypto
import ClawTransport
import ClawProtocol
import ClawState
import ClawSession

/// Turns the global flags, environment and config file into `SessionOptions`.
enum ConnectionSetup {
    static func sessionOptions(for context: CommandContext) throws -> SessionOptions {
        try sessionOptions(for: context, resolved: resolve(for: context))
    }

    /// The URL, credentials and their sources from the global flags, environment and config file.
    /// A signal while an `exec` secret provider runs stops it and ends the command with 130/143.
    static func resolve(for context: CommandContext) throws -> ResolvedConnection {
        let global = context.global
        let flags = ConnectionOptions(
            url: global.url,
            token: global.token.map(Secret.init),
            tokenFile: global.tokenFile,
            password: global.password.map(Secret.init),
            stateDirectory: global.stateDirectory,
            configPath: global.config,
            tlsFingerprint: global.tlsFingerprint,
            caBundlePath: global.caBundle,
            profile: try profile(global))
        do {
            return try ConnectionResolver.resolve(options: flags, environment: context.environment,
                                                  interruptDescriptor: context.signals.descriptor)
        } catch {
            if case .secretResolutionInterrupted = error {
                throw CommandFailure(ExitStatus(signal: context.signals.received), FailureMessages.sentence(for: error))
            }
            throw error
        }
    }

    /// `--profile NAME`, or `dev` for `--dev` (the official CLI refuses `--dev` with another profile).
    static func profile(_ global: GlobalOptions) throws -> String? {
        guard global.dev else { return global.profile }
        if let named = global.profile.flatMap(TextTrim.nonEmpty), named != "dev" {
            throw UsageError("--dev cannot be combined with --profile \(named) (--dev is --profile dev)")
        }
        return "dev"
    }

    /// `OPENCLAW_HANDSHAKE_TIMEOUT_MS`: a positive whole number of milliseconds written with digits only;
    /// any other value is ignored, as the official client ignores it.
    static func handshakeTimeoutMilliseconds(_ environment: Environment) -> Int? {
        guard let text = environment["OPENCLAW_HANDSHAKE_TIMEOUT_MS"], !text.isEmpty, text.utf8.count <= 12,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), value > 0
        else { return nil }
        return value
    }

    /// `NODE_EXTRA_CA_CERTS`: a PEM bundle the official CLI (Node) trusts besides the system's store. As
    /// Node does, a file that cannot be read or holds no certificate is ignored with a warning.
    static func nodeExtraCACertificates(_ context: CommandContext) -> String? {
        guard let path = TextTrim.nonEmpty(context.environment["NODE_EXTRA_CA_CERTS"]) else { return nil }
        let reason: String
        do {
            let text = try FileSystem.readFile(path)
            if text.firstRange(of: Array("-----BEGIN CERTIFICATE-----".utf8)) != nil { return path }
            reason = "it holds no PEM certificate"
        } catch {
            reason = error.reason
        }
        context.console.note("warning: ignoring extra certs from NODE_EXTRA_CA_CERTS=\(path): \(reason)")
        return nil
    }

    static func sessionOptions(for context: CommandContext, resolved: ResolvedConnection) throws -> SessionOptions {
        let global = context.global
        var options = SessionOptions(url: resolved.url, clientVersion: HelpText.version)
        options.urlOrigin = URLOrigin(source: resolved.urlSource, configPath: resolved.configPath)
        options.token = resolved.token?.value
        options.tokenSource = resolved.tokenSource
        options.password = resolved.password?.value
        options.passwordSource = resolved.passwordSource
        options.upgradeHeaders = resolved.upgradeHeaders
        if resolved.url.isSecure {
            options.tls = TLSClientOptions(serverName: resolved.url.host, caBundlePath: resolved.caBundlePath,
                                           pinnedSHA256: resolved.tlsFingerprint)
            if resolved.tlsFingerprint == nil {
                options.tls?.trust = .system(environment: context.environment,
                                             extraBundles: nodeExtraCACertificates(context).map { [$0] } ?? [])
            }
        }
        if !global.scopes.isEmpty { options.scopes = global.scopes }
        if let milliseconds = handshakeTimeoutMilliseconds(context.environment) {
            options.handshakeTimeout = Double(milliseconds) / 1000
            // Both steps must fit in the default connect limit.
            options.connectTimeout = max(options.connectTimeout, 2 * options.handshakeTimeout)
        }
        if let seconds = global.connectTimeout { options.connectTimeout = seconds }
        options.isStrict = global.strict
        options.sshRoute = resolved.sshRoute
        // The gateway sends tool events only to connections that ask; send's text mode shows them as progress.
        if context.command.name == "send" && (context.options.send.agentEvents || context.format == .text) {
            options.capabilities = [ConnectRequest.toolEventsCapability]
        }
        options.waitsForPairing = global.waitForPairing
        // Before OpenSSL's first use (the device key, or the upgrade's SHA-1 with --no-device).
        if !resolved.url.isSecure { OpenSSLRuntime.skipErrorStringsWithoutTLS() }
        if !global.noDevice {
            let stateDirectory = resolved.stateDirectory
            // One look at the state directory (no state yet: the database, created with the identity);
            // in the database layout the identity and the token rows share one connection, which the
            // session closes after the handshake.
            let layout = StateLayout(stateDirectory: stateDirectory, environment: context.environment)
            options.identitySource = DeviceIdentitySource { () throws(IdentityError) in
                try DeviceIdentity.loadOrCreate(stateDirectory: stateDirectory, layout: layout)
            }
            // A device token belongs to the gateway that issued it: the database files each target's
            // apart (one a native client created keeps only the configured gateway's); the older JSON
            // file holds only the configured gateway's.
            options.deviceAuthStore = layout.deviceTokenStore(
                stateDirectory: stateDirectory, url: resolved.url, pinnedSHA256: resolved.tlsFingerprint,
                isConfiguredLocalGateway: !resolved.urlIsOverride && !resolved.isRemoteMode,
                isOverride: resolved.urlIsOverride)
        }
        if global.trace {
            let trace = TraceWriter(stream: context.console.err, clock: context.clock)
            options.tracer = { direction, frame in trace.write(direction: direction, frame: frame) }
        }
        return options
    }
}

/// `--trace`: `{"dir":"send"|"recv","ts":…,"frame":…}` lines on stderr (frames arrive redacted).
struct TraceWriter {
    let stream: OutputStream
    let clock: Clock

    func write(direction: TraceDirection, frame: JSONValue) {
        let line: JSONValue = ["dir": .string(direction.rawValue), "ts": JSONValue(clock.milliseconds()), "frame": frame]
        var bytes = [UInt8]()
        line.write(to: &bytes)
        bytes.append(0x0A)
        stream.write(bytes)
        stream.flush()
    }
}
