import OpenClawKit

/// Turns the global flags, environment and config file into `SessionOptions`.
enum ConnectionSetup {
    static func sessionOptions(for invocation: Invocation, environment: Environment) throws -> SessionOptions {
        let flags = ConnectionOptions(
            url: invocation.string("url"),
            token: invocation.string("token").map(Secret.init),
            tokenFile: invocation.string("token-file"),
            password: invocation.string("password").map(Secret.init),
            stateDirectory: invocation.string("state-dir"),
            configPath: invocation.string("config"),
            tlsFingerprint: invocation.string("tls-fingerprint"),
            caBundlePath: invocation.string("cacert"))
        let resolved: ResolvedConnection
        do { resolved = try ConnectionResolver.resolve(options: flags, environment: environment) } catch {
            throw CommandFailure(.usage, error.description)
        }

        var options = SessionOptions(url: resolved.url, clientVersion: HelpText.version)
        options.token = resolved.token?.value
        options.tokenSource = resolved.tokenSource
        options.password = resolved.password?.value
        options.passwordSource = resolved.passwordSource
        if resolved.url.isSecure {
            options.tls = TLSClientOptions(serverName: resolved.url.host, caBundlePath: resolved.caBundlePath,
                                           pinnedSHA256: resolved.tlsFingerprint)
        }
        let scopes = invocation.strings("scope")
        if !scopes.isEmpty { options.scopes = scopes }
        if let seconds = invocation.seconds("connect-timeout") { options.connectTimeout = seconds }
        if !invocation.has("no-device") {
            do { options.identity = try DeviceIdentity.loadOrCreate(stateDirectory: resolved.stateDirectory) } catch {
                throw CommandFailure(.authentication, "\(error)")
            }
            // A device token belongs to the configured gateway: never send it to a URL given on the side.
            if !resolved.urlIsOverride { options.deviceAuthStore = DeviceAuthStore(stateDirectory: resolved.stateDirectory) }
        }
        if invocation.has("trace") {
            options.tracer = { direction, frame in TraceWriter.write(direction: direction, frame: frame) }
        }
        return options
    }
}

/// `--trace`: `{"dir":"send"|"recv","ts":…,"frame":…}` lines on stderr (frames arrive redacted).
enum TraceWriter {
    static func write(direction: TraceDirection, frame: JSONValue) {
        let line: JSONValue = ["dir": .string(direction.rawValue), "ts": JSONValue(WallClock.milliseconds()), "frame": frame]
        var bytes = [UInt8]()
        line.write(to: &bytes)
        bytes.append(0x0A)
        Console.err.write(bytes)
        Console.err.flush()
    }
}
