@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// The CLI's side of a one-shot command's connect attempts: the engine's connection life
/// (`ConnectionLife`) decides whether and how long to wait after a failed connect, all within the
/// command's deadline (docs/cli.md "Timeouts"); this says so on stderr and waits, and a signal ends
/// any wait (130/143):
/// - a gateway that is suspended, draining for a restart or starting (`UNAVAILABLE` worth waiting
///   out, or a connect closed with 1013): asked again after the delay it names, with one note per wait;
/// - a gateway past its cap of unauthenticated sockets per address (`HTTP 503` "Too many
///   unauthenticated sockets"), or whose WebSockets are not ready: asked again with jitter, one note;
/// - with `--retry-connrefused`, a gateway that is not listening yet: asked again with a growing delay;
/// - with `--wait-for-pairing`, an unpaired device: the decision on the open connection when the
///   gateway keeps it open for it, otherwise by asking again until it is approved.
struct ConnectWaits {
    let context: CommandContext
    let url: String
    let deadline: Deadline
    /// False for `gateway call`, whose stderr is the official CLI's.
    let notes: Bool
    private var life: ConnectionLife
    private var notedPairing = false

    init(context: CommandContext, url: String, deadline: Deadline, waitsWhileUnavailable: Bool, notes: Bool) {
        self.context = context
        self.url = url
        self.deadline = deadline
        self.notes = notes
        var rules = ConnectionLife.Rules()
        rules.waitsOutUnavailable = waitsWhileUnavailable
        rules.retriesRefused = waitsWhileUnavailable && context.global.retryConnectionRefused
        rules.waitsForPairing = context.global.waitForPairing
        rules.deadline = deadline.nanoseconds
        life = ConnectionLife(rules)
    }

    /// Returns when the connect should be tried again; throws what ends the command otherwise.
    mutating func wait(after error: GatewayError) throws {
        if case .authenticationFailed(.pairingPending(let pending), _) = error { return try waitOnOpenConnection(pending) }
        switch life.connectFailed(error, now: MonotonicClock.nanoseconds()) {
        case .retry(let at, let seconds, let why):
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
            case .reconnect:
                break
            }
            try pause(until: Deadline(nanoseconds: at))
        case .end(.stillUnpaired(let requestId)):
            throw stillUnpaired(requestId: requestId)
        case .end:
            throw error
        }
    }

    /// Waits on the connection the gateway keeps open for the decision (`device-pairing-wait`).
    private mutating func waitOnOpenConnection(_ pending: PendingPairing) throws {
        defer { pending.close() }
        if !notedPairing {
            note(FailureMessages.sentence(for: AuthFailure.pairingRequired(requestId: pending.requestId, reason: pending.reason))
                 + "; waiting for the decision (--wait-for-pairing)")
            notedPairing = true
        }
        let request = pending.requestId.map { " (request \($0))" } ?? ""
        while true {
            if context.signals.received != 0 {
                throw CommandFailure(ExitStatus(signal: context.signals.received), "interrupted while waiting for pairing approval")
            }
            if let decision = try pending.decision(deadline: Deadline(nanoseconds: 0)) {
                switch decision {
                case .approved:
                    note("pairing approved\(request); connecting again")
                    return
                case .rejected:
                    throw CommandFailure(.authentication, "pairing rejected\(request): an administrator declined this device on the gateway host")
                case .expired:
                    throw CommandFailure(.authentication, "pairing request expired\(request) before anyone approved it: run the command again to ask anew")
                case .superseded, .closed(code: WebSocketCloseCode.policyViolation, reason: _):
                    throw CommandFailure(.authentication, "pairing request superseded\(request): a newer request of this device replaced it")
                case .other(let word):
                    throw CommandFailure(.authentication, "pairing request\(request) resolved as \"\(Console.oneLine(String(word.prefix(40))))\", not approved")
                case .closed:
                    return  // restarting or dropped: ask again, which waits again
                }
            }
            if deadline.hasPassed { throw stillUnpaired(requestId: pending.requestId) }
            _ = try Poll.waitAny([pending.fileDescriptor, context.signals.descriptor], events: Poll.readable, deadline: deadline)
            _ = context.signals.drain()
        }
    }

    private func stillUnpaired(requestId: String?) -> CommandFailure {
        CommandFailure(.authentication, "pairing required: this device was still not approved when --timeout \(formatSeconds(context.timeoutSeconds)) ran out; "
            + (requestId.map { "approve it on the gateway host with: openclaw devices approve \($0)" }
               ?? "approve it on the gateway host with: openclaw devices list, then openclaw devices approve REQUEST_ID"))
    }

    private func note(_ text: String) { if notes { context.console.note(text) } }

    /// The pause before the next try; a signal ends the command.
    private func pause(until: Deadline) throws {
        if case .signal(let signal) = try context.loop(nil).next(until: until) {
            throw CommandFailure(ExitStatus(signal: signal), "interrupted while connecting")
        }
    }
}
