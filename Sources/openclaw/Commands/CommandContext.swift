@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState

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
    /// Whether stdout and stderr are terminals, and whether colour is wanted.
    let terminal: Terminal
    /// Frames skipped for forward compatibility, reported once per kind and counted at exit.
    let skipped: SkippedFrames
    /// The deadline for the whole command (`--timeout`, else the command's default).
    let deadline: Deadline
    let timeoutSeconds: Double
    /// The engine's driver of this command's connection, with the CLI's words; the dispatcher closes it.
    let link: CommandLink
    /// How stdout waits for a slow reader: a signal ends the wait, and the open session is kept alive.
    let stdoutWaiter: StdoutWaiter

    init(invocation: Invocation, environment: Environment, console: Console, signals: SignalWatcher, clock: Clock = .system) {
        command = invocation.command
        options = invocation.options
        positionals = invocation.positionals
        self.environment = environment
        self.console = console
        self.signals = signals
        self.clock = clock
        stdoutWaiter = StdoutWaiter(signals: signals)
        let timeout = invocation.options.global.timeout ?? invocation.command.defaultTimeout
        link = CommandLink(console: console, signals: signals, environment: environment, timeoutSeconds: timeout)
        console.out.whileBlocked = stdoutWaiter
        terminal = Terminal.detect(noColor: invocation.options.global.noColor ? "1" : environment["NO_COLOR"], term: environment["TERM"])
        skipped = SkippedFrames(console: console)
        timeoutSeconds = timeout
        deadline = timeout > 0 ? .after(seconds: timeout) : .never
    }

    var global: GlobalOptions { options.global }
    var format: OutputFormat { options.global.output }

    /// The session key the user asked for (`main` by default).
    var sessionKey: String { options.global.session ?? "main" }

    var raw: Bool { options.global.raw && format == .ndjson }

    /// The loop over `session`, the command's open connection: its driver's (which keeps one
    /// keepalive per connection), with this command's signals and stdout.
    func loop(_ session: GatewaySession) -> FrameLoop {
        FrameLoop(runner: link.runner, console: console, signals: signals)
    }

    /// Resolves URL and credentials, loads the device identity, and runs the handshake.
    /// With `--raw`, prints the handshake frames.
    func openSession() throws -> GatewaySession {
        let options = try ConnectionSetup.sessionOptions(for: self)
        return try connect(options)
    }

    /// The rules of a one-shot command's connect: each try bounded by `--connect-timeout`; a gateway
    /// that is suspended, restarting or starting asked again after the delay it names as long as
    /// `deadline` (default: the command's) allows; `--retry-connrefused` and `--wait-for-pairing` add
    /// their waits.
    func connectRules(deadline: Deadline? = nil) -> ConnectionLife.Rules {
        var rules = ConnectionLife.Rules()
        rules.retriesRefused = global.retryConnectionRefused
        rules.waitsForPairing = global.waitForPairing
        rules.deadline = (deadline ?? self.deadline).nanoseconds
        return rules
    }

    /// A handshake with already-resolved options, by the engine's driver (`ConnectionRunner`: the SSH
    /// step when there is a route, the connect, the waits between tries) with one note per wait unless
    /// `quietly`. A signal ends every wait. The session keeps answering the gateway's pings while stdout
    /// is blocked.
    func connect(_ options: SessionOptions, deadline: Deadline? = nil, quietly: Bool = false) throws -> GatewaySession {
        let runner = link.start(options, rules: connectRules(deadline: deadline), notes: !quietly)
        let session: GatewaySession
        do { session = try runner.open() } catch { throw link.failure(error) }
        opened(session)
        return session
    }

    /// What every new connection of a command gets: its pings answered while stdout is blocked,
    /// skipped frames counted, warnings noted, the handshake printed with `--raw`.
    func opened(_ session: GatewaySession) {
        stdoutWaiter.runner = link.runner
        let skipped = self.skipped
        session.onSkippedFrame = { kind in skipped.record(kind) }
        for warning in session.warnings { console.note(warning) }
        if raw { for frame in session.handshakeFrames { console.out.writeLine(Array(frame.compactText.utf8)) } }
    }

    /// Prints a frame as one NDJSON line; secrets are redacted even here.
    func printFrame(_ frame: GatewayFrame) {
        SecretFilter.withLine(for: frame) { console.out.writeLine($0) }
    }

    func timeoutFailure(_ what: String) -> CommandFailure {
        CommandFailure(.timeout, "timed out \(what) (--timeout \(formatSeconds(timeoutSeconds)))")
    }
}
