@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// Turns the global flags, environment and config file into `SessionOptions` (through the library's
/// `SessionOptions(resolved:)`, the path every client shares).
enum ConnectionSetup {
    static func sessionOptions(for context: CommandContext) throws -> SessionOptions {
        try sessionOptions(for: context, resolved: resolve(for: context))
    }

    /// The URL, credentials and their sources from the global flags, environment and config file.
    /// A signal while an `exec` secret provider runs stops it and ends the command with 130/143.
    static func resolve(for context: CommandContext) throws -> ResolvedConnection {
        let global = context.global
        let flags = ConnectionOptions(
            // The official CLI's `--port` (logs, system, cron): the local gateway on that port.
            url: global.url ?? context.options.official.port.map { "ws://127.0.0.1:\($0)" },
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

    /// The library's one conversion, then what the flags and the command add: scopes, the connect
    /// limit, strictness, capabilities, the pairing wait, the trace.
    static func sessionOptions(for context: CommandContext, resolved: ResolvedConnection) throws -> SessionOptions {
        let global = context.global
        var options = SessionOptions(resolved: resolved, clientVersion: HelpText.version, environment: context.environment,
                                     usesDeviceIdentity: !global.noDevice, warn: context.console.note)
        if !global.scopes.isEmpty { options.scopes = global.scopes }
        if let seconds = global.connectTimeout { options.connectTimeout = seconds }
        options.isStrict = global.strict
        options.capabilities = context.command.capabilities(context.options, context.format)
        options.waitsForPairing = global.waitForPairing
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
