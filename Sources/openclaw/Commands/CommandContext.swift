import OpenClawKit

/// What every command gets: the parsed invocation, output mode, and how to reach the gateway.
struct CommandContext {
    enum OutputFormat: String { case ndjson, text }

    let invocation: Invocation
    let environment: Environment
    let format: OutputFormat
    /// The deadline for the whole command (`--timeout`).
    let deadline: Deadline
    let timeoutSeconds: Double

    init(invocation: Invocation, environment: Environment, defaultTimeout: Double) {
        self.invocation = invocation
        self.environment = environment
        format = OutputFormat(rawValue: invocation.string("output") ?? "ndjson") ?? .ndjson
        let timeout = invocation.seconds("timeout") ?? defaultTimeout
        timeoutSeconds = timeout
        deadline = timeout > 0 ? .after(seconds: timeout) : .never
    }

    /// The session key the user asked for (`main` by default).
    var sessionKey: String { invocation.string("session") ?? "main" }

    var raw: Bool { invocation.has("raw") && format == .ndjson }

    /// Resolves URL and credentials, loads the device identity, and runs the handshake.
    /// With `--raw`, prints the handshake frames.
    func openSession() throws -> GatewaySession {
        let options = try ConnectionSetup.sessionOptions(for: invocation, environment: environment)
        do { return try connect(options) } catch { throw CommandFailure(error) }
    }

    /// One handshake with already-resolved options (watch reconnects with the same ones).
    func connect(_ options: SessionOptions) throws(GatewayError) -> GatewaySession {
        let session = try GatewaySession.open(options, deadline: deadline)
        for warning in session.warnings { Console.note(warning) }
        if raw { for frame in session.handshakeFrames { Console.out.writeLine(Array(frame.compactText.utf8)) } }
        return session
    }

    /// Prints a frame as one NDJSON line; secrets are redacted even here.
    func printFrame(_ frame: GatewayFrame) {
        Console.out.writeLine(SecretFilter.line(for: frame))
    }

    func timeoutFailure(_ what: String) -> CommandFailure {
        CommandFailure(.timeout, "timed out \(what) (--timeout \(formatSeconds(timeoutSeconds)))")
    }
}
