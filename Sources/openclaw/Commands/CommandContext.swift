import OpenClawKit

/// What every command gets: its typed options, the process's streams, signals and clock, and
/// how to reach the gateway.
struct CommandContext {
    let command: CommandSpec
    let options: Options
    let positionals: [String]
    let environment: Environment
    let console: Console
    let signals: SignalWatcher
    let clock: Clock
    /// The deadline for the whole command (`--timeout`, else the command's default).
    let deadline: Deadline
    let timeoutSeconds: Double

    init(invocation: Invocation, environment: Environment, console: Console, signals: SignalWatcher, clock: Clock = .system) {
        command = invocation.command
        options = invocation.options
        positionals = invocation.positionals
        self.environment = environment
        self.console = console
        self.signals = signals
        self.clock = clock
        let timeout = invocation.options.global.timeout ?? invocation.command.defaultTimeout
        timeoutSeconds = timeout
        deadline = timeout > 0 ? .after(seconds: timeout) : .never
    }

    var global: GlobalOptions { options.global }
    var format: OutputFormat { options.global.output }

    /// The session key the user asked for (`main` by default).
    var sessionKey: String { options.global.session ?? "main" }

    var raw: Bool { options.global.raw && format == .ndjson }

    /// The poll loop over `session` (or, without one, over signals only).
    func loop(_ session: GatewaySession?) -> FrameLoop {
        FrameLoop(session: session, console: console, signals: signals)
    }

    /// Resolves URL and credentials, loads the device identity, and runs the handshake.
    /// With `--raw`, prints the handshake frames.
    func openSession() throws -> GatewaySession {
        let options = try ConnectionSetup.sessionOptions(for: self)
        do { return try connect(options) } catch { throw CommandFailure(error) }
    }

    /// One handshake with already-resolved options (watch reconnects with the same ones).
    func connect(_ options: SessionOptions) throws(GatewayError) -> GatewaySession {
        let session = try GatewaySession.open(options, deadline: deadline)
        for warning in session.warnings { console.note(warning) }
        if raw { for frame in session.handshakeFrames { console.out.writeLine(Array(frame.compactText.utf8)) } }
        return session
    }

    /// Prints a frame as one NDJSON line; secrets are redacted even here.
    func printFrame(_ frame: GatewayFrame) {
        console.out.writeLine(SecretFilter.line(for: frame))
    }

    func timeoutFailure(_ what: String) -> CommandFailure {
        CommandFailure(.timeout, "timed out \(what) (--timeout \(formatSeconds(timeoutSeconds)))")
    }
}
