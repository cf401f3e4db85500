@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawState
@_spi(Engine) import ClawSession

/// The CLI's face of the engine's driver (`ConnectionRunner`) for one command: the signal pipe
/// interrupts it, and this says on stderr what the machine decided (docs/cli.md "Timeouts"):
/// - a gateway that is suspended, draining for a restart or starting (`UNAVAILABLE` worth waiting
///   out, or a connect closed with 1013): asked again after the delay it names, with one note per wait;
/// - a gateway past its cap of unauthenticated sockets per address (`HTTP 503` "Too many
///   unauthenticated sockets"), or whose WebSockets are not ready: asked again with jitter, one note;
/// - with `--retry-connrefused`, a gateway that is not listening yet: asked again with a growing delay;
/// - with `--wait-for-pairing`, an unpaired device: the decision on the open connection when the
///   gateway keeps it open for it, otherwise by asking again until it is approved.
/// It also turns how connecting ended into the CLI's exit statuses. The dispatcher closes the last
/// connection, and stops its SSH tunnel, on every path.
final class CommandLink: ConnectionFace {
    private let console: Console
    private let signals: SignalWatcher
    private let environment: Environment
    private let timeoutSeconds: Double
    /// The driver of the command's latest connection.
    private(set) var runner: ConnectionRunner?
    /// False for `gateway call`, whose stderr is the official CLI's.
    private var notes = true
    /// The target as the official CLI names it (no `/` after the port for a bare path).
    private var url = ""
    private var notedPairing = false
    /// `watch`'s words for its reconnect waits (`connect-failed`, `disconnected`).
    var onReconnectWait: ((_ afterFailedConnect: Bool, _ seconds: Double, _ error: GatewayError) -> Void)?

    init(console: Console, signals: SignalWatcher, environment: Environment, timeoutSeconds: Double) {
        self.console = console
        self.signals = signals
        self.environment = environment
        self.timeoutSeconds = timeoutSeconds
    }

    /// A driver for `options` under `rules`, replacing (and closing) the previous one.
    func start(_ options: SessionOptions, rules: ConnectionLife.Rules, notes: Bool) -> ConnectionRunner {
        close()
        self.notes = notes
        let target = "\(options.url)"
        url = options.url.path == "/" && target.hasSuffix("/") ? String(target.dropLast()) : target
        let runner = ConnectionRunner(options: options, environment: environment, rules: rules, face: self)
        self.runner = runner
        return runner
    }

    /// Closes the latest connection and stops its tunnel (SIGTERM, SIGKILL after 1.5 s; reaped).
    func close() {
        runner?.close()
        runner = nil
    }

    /// A failure of the connection with ssh's words when it went through a tunnel.
    func explain(_ error: any Error) -> any Error {
        guard let runner, let gatewayError = error as? GatewayError else { return error }
        return runner.explain(gatewayError)
    }

    // MARK: ConnectionFace

    var interruptDescriptor: Int32 { signals.descriptor }
    var isInterrupted: Bool { signals.received != 0 }
    /// A reader of stdout that goes away during a wait to connect ends the command.
    var watchedOutput: Int32 { FrameLoop.closedReaderWatch }
    private var readerGone: Bool { watchedOutput >= 0 && Pipes.readerGone(watchedOutput) }

    func willConnect(attempt: Int) {}

    func connectionLost(_ error: GatewayError) {}

    func sentence(for error: GatewayError) -> String { FailureMessages.sentence(for: error) }

    func sentence(for failure: SSHTunnelFailure, route: SSHRoute) -> String { FailureMessages.sentence(for: failure, route: route) }

    func willWait(_ why: ConnectionLife.Wait, seconds: Double, after error: GatewayError) {
        switch why {
        case .unavailable(let reason):
            note("\(reason); trying again in \(formatDelay(seconds))")
        case .admission(let first):
            if first { note(FailureMessages.sentence(for: error) + "; trying again within --timeout") }
        case .refused(let first):
            if first { note("nothing is listening at \(url) yet; waiting for the gateway to start (--retry-connrefused)") }
        case .pairing(let requestId, let reason, let first):
            if first && !notedPairing {
                note(FailureMessages.sentence(for: AuthFailure.pairingRequired(requestId: requestId, reason: reason))
                     + "; waiting for the approval, asking again every few seconds (--wait-for-pairing)")
                notedPairing = true
            }
        case .reconnect(let afterFailedConnect):
            onReconnectWait?(afterFailedConnect, seconds, error)
        }
        // What was printed before the wait (client events, frames) reaches the reader now.
        try? console.flushOutput()
    }

    func pairing(_ pending: PendingPairing, approved: Bool) {
        if approved {
            note("pairing approved\(Self.request(pending.requestId)); connecting again")
        } else if !notedPairing {
            note(FailureMessages.sentence(for: AuthFailure.pairingRequired(requestId: pending.requestId, reason: pending.reason))
                 + "; waiting for the decision (--wait-for-pairing)")
            notedPairing = true
        }
    }

    private func note(_ text: String) { if notes { console.note(text) } }

    private static func request(_ id: String?) -> String { id.map { " (request \($0))" } ?? "" }

    // MARK: Endings as exit statuses

    /// A connect that `--timeout` cut short names `--timeout`, not `--connect-timeout`, whose limit it
    /// never reached (`--timeout 2` against a gateway that never answers).
    private func cutShortByTimeout(_ error: GatewayError) -> (any Error)? {
        guard timeoutSeconds > 0, let runner, Deadline(nanoseconds: runner.life.rules.deadline).hasPassed,
              let sentence = FailureMessages.connectTimeout(error, cutShortBy: timeoutSeconds) else { return nil }
        return CommandFailure(.timeout, sentence)
    }

    /// What ends the command when connecting stopped.
    func failure(_ stop: ConnectStop) -> any Error {
        switch stop {
        case .ended(.failed(let error)), .ended(.gaveUp(let error, _)), .ended(.outOfTime(let error)):
            return cutShortByTimeout(error) ?? error
        case .ended(.stillUnpaired(let requestId)):
            return CommandFailure(.authentication, "pairing required: this device was still not approved when --timeout \(formatSeconds(timeoutSeconds)) ran out; "
                + (requestId.map { "approve it on the gateway host with: openclaw devices approve \($0)" }
                   ?? "approve it on the gateway host with: openclaw devices list, then openclaw devices approve REQUEST_ID"))
        case .ended(.interrupted), .ended(.closed):
            // No signal: the reader of stdout went away (exit 0, as at a failed write).
            if signals.received == 0 && readerGone { return OutputClosed() }
            return CommandFailure(ExitStatus(signal: signals.received), "interrupted while connecting")
        case .tunnel(let failure, let route):
            let sentence = FailureMessages.sentence(for: failure, route: route)
            switch failure.disposition {
            case .interrupted: return CommandFailure(ExitStatus(signal: signals.received), sentence)
            case .timedOut: return CommandFailure(.timeout, "timed out opening the SSH tunnel to \(route.target) (--timeout \(formatSeconds(timeoutSeconds)))")
            case .clientUnusable: return CommandFailure(.connection, sentence)
            case .refused: return CommandFailure(.authentication, sentence)
            case .transient: return GatewayError.cannotConnect(sentence)
            }
        case .pairingDecided(let decision, let requestId):
            let request = Self.request(requestId)
            switch decision {
            case .rejected:
                return CommandFailure(.authentication, "pairing rejected\(request): an administrator declined this device on the gateway host")
            case .expired:
                return CommandFailure(.authentication, "pairing request expired\(request) before anyone approved it: run the command again to ask anew")
            case .other(let word):
                return CommandFailure(.authentication, "pairing request\(request) resolved as \"\(Console.oneLine(String(word.prefix(40))))\", not approved")
            case .superseded, .closed, .approved:
                return CommandFailure(.authentication, "pairing request superseded\(request): a newer request of this device replaced it")
            }
        }
    }
}
