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
    /// The SSH tunnels this command opens (`gateway.remote.transport` ssh); the dispatcher stops them.
    let sshTunnels = SSHTunnels()
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
        console.out.whileBlocked = stdoutWaiter
        terminal = Terminal.detect(noColor: invocation.options.global.noColor ? "1" : environment["NO_COLOR"], term: environment["TERM"])
        skipped = SkippedFrames(console: console)
        let timeout = invocation.options.global.timeout ?? invocation.command.defaultTimeout
        timeoutSeconds = timeout
        deadline = timeout > 0 ? .after(seconds: timeout) : .never
    }

    var global: GlobalOptions { options.global }
    var format: OutputFormat { options.global.output }

    /// The session key the user asked for (`main` by default).
    var sessionKey: String { options.global.session ?? "main" }

    var raw: Bool { options.global.raw && format == .ndjson }

    /// The poll loop over `session` (or, without one, over signals only): create one per session,
    /// since it keeps that link's watchdog and ping schedule.
    func loop(_ session: GatewaySession?) -> FrameLoop {
        FrameLoop(session: session, console: console, signals: signals)
    }

    /// Resolves URL and credentials, loads the device identity, and runs the handshake.
    /// With `--raw`, prints the handshake frames.
    func openSession() throws -> GatewaySession {
        let options = try ConnectionSetup.sessionOptions(for: self)
        return try connect(options)
    }

    /// A handshake with already-resolved options (watch reconnects with the same ones), each try
    /// bounded by `--connect-timeout`. A gateway that is suspended, restarting or starting is asked
    /// again after the delay it names as long as `deadline` (default: the command's) allows, with one
    /// note per wait unless `quietly`; `--retry-connrefused` and `--wait-for-pairing` add their waits
    /// (`ConnectWaits`). `watch` passes `waitsWhileUnavailable: false`: it paces its own reconnects.
    /// A signal ends every wait. The session keeps answering the gateway's pings while stdout is blocked.
    /// An SSH route (`gateway.remote.transport` ssh) is a step before the connect loop: a new tunnel
    /// for this attempt, whose local end the loop then dials like any URL; a failure through it is
    /// explained with what ssh said, and the tunnel stopped.
    func connect(_ options: SessionOptions, deadline: Deadline? = nil, waitsWhileUnavailable: Bool = true,
                 quietly: Bool = false) throws -> GatewaySession {
        let (connector, dial) = try sshTunnels.open(options, deadline: deadline, context: self)
        do {
            return try connectLoop(dial, connector: connector, deadline: deadline, waitsWhileUnavailable: waitsWhileUnavailable,
                                   quietly: quietly)
        } catch {
            guard options.sshRoute != nil else { throw error }
            let explained = sshTunnels.explain(error)
            sshTunnels.stopAll()
            throw explained
        }
    }

    private func connectLoop(_ options: SessionOptions, connector: GatewayConnector, deadline: Deadline?,
                             waitsWhileUnavailable: Bool, quietly: Bool) throws -> GatewaySession {
        let deadline = deadline ?? self.deadline
        // As the official CLI names a target: no `/` after the port for a bare path.
        let target = "\(options.url)"
        let url = options.url.path == "/" && target.hasSuffix("/") ? String(target.dropLast()) : target
        var waits = ConnectWaits(context: self, url: url, deadline: deadline,
                                 waitsWhileUnavailable: waitsWhileUnavailable, notes: !quietly)
        var session: GatewaySession
        while true {
            do {
                // A signal ends the connect's waits too (a dead link would hold it until --connect-timeout).
                session = try connector.connect(options, deadline: deadline)
                break
            } catch {
                if signals.received != 0 {
                    throw CommandFailure(ExitStatus(signal: signals.received), "interrupted while connecting")
                }
                try waits.wait(after: error)
            }
        }
        stdoutWaiter.pump = GatewayPump(session: session)
        let skipped = self.skipped
        session.onSkippedFrame = { kind in skipped.record(kind) }
        for warning in session.warnings { console.note(warning) }
        if raw { for frame in session.handshakeFrames { console.out.writeLine(Array(frame.compactText.utf8)) } }
        return session
    }

    /// Prints a frame as one NDJSON line; secrets are redacted even here.
    func printFrame(_ frame: GatewayFrame) {
        SecretFilter.withLine(for: frame) { console.out.writeLine($0) }
    }

    func timeoutFailure(_ what: String) -> CommandFailure {
        CommandFailure(.timeout, "timed out \(what) (--timeout \(formatSeconds(timeoutSeconds)))")
    }
}
