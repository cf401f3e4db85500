@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawTransport
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// What a failed connect may wait for before the next try, all within the command's deadline
/// (docs/cli.md "Timeouts"); a signal ends any wait (130/143):
/// - a gateway that is suspended, draining for a restart or starting (`UNAVAILABLE` worth waiting
///   out, or a connect closed with 1013): asked again after the delay it names, 1 s unless it says,
///   with one note per wait;
/// - with `--retry-connrefused`, a gateway that is not listening yet: asked again with a growing delay;
/// - with `--wait-for-pairing`, an unpaired device: the decision on the open connection when the
///   gateway keeps it open for it, otherwise by asking again until it is approved.
struct ConnectWaits {
    let context: CommandContext
    let url: String
    let deadline: Deadline
    /// False for `watch`, which reports and paces its own reconnects.
    let waitsWhileUnavailable: Bool
    let retriesRefused: Bool
    /// False for `gateway call`, whose stderr is the official CLI's.
    let notes: Bool
    private var refusedAttempts = 0
    private var pairingAttempts = 0
    private var notedRefused = false
    private var notedPairing = false

    /// Delays between tries for a gateway not listening yet: 0.25 s doubling to 2 s (as curl's retries grow).
    static let refusedBackoff = Backoff(base: 0.25, maximum: 2)
    /// Delays between tries for a pairing request the gateway does not let us wait on: 1 s doubling to 5 s.
    static let pairingBackoff = Backoff(base: 1, maximum: 5)

    init(context: CommandContext, url: String, deadline: Deadline, waitsWhileUnavailable: Bool, notes: Bool) {
        self.context = context
        self.url = url
        self.deadline = deadline
        self.waitsWhileUnavailable = waitsWhileUnavailable
        retriesRefused = waitsWhileUnavailable && context.global.retryConnectionRefused
        self.notes = notes
    }

    /// Returns when the connect should be tried again; throws what ends the command otherwise.
    mutating func wait(after error: GatewayError) throws {
        switch error {
        case .unavailable(let reason, _) where waitsWhileUnavailable:
            guard let seconds = error.retryAfterSeconds else { throw error }
            let retryAt = Deadline.after(seconds: seconds)
            guard retryAt < deadline else { throw error }
            note("\(reason); trying again in \(formatDelay(seconds))")
            try pause(until: retryAt)
        case .connectFailed where retriesRefused && error.isConnectionRefused:
            refusedAttempts += 1
            let seconds = Self.refusedBackoff.delay(attempt: refusedAttempts)
            let retryAt = Deadline.after(seconds: seconds)
            guard retryAt < deadline else { throw error }
            if !notedRefused {
                note("nothing is listening at \(url) yet; waiting for the gateway to start (--retry-connrefused)")
                notedRefused = true
            }
            try pause(until: retryAt)
        case .authenticationFailed(.pairingPending(let pending), _):
            try waitOnOpenConnection(pending)
        case .authenticationFailed(.pairingRequired(let requestId, let reason), _) where context.global.waitForPairing:
            // The gateway did not keep the connect open: ask again until the request is approved.
            pairingAttempts += 1
            let seconds = Self.pairingBackoff.delay(attempt: pairingAttempts)
            let retryAt = Deadline.after(seconds: seconds)
            guard retryAt < deadline else { throw stillUnpaired(requestId: requestId) }
            if !notedPairing {
                note(FailureMessages.sentence(for: AuthFailure.pairingRequired(requestId: requestId, reason: reason))
                     + "; waiting for the approval, asking again every few seconds (--wait-for-pairing)")
                notedPairing = true
            }
            try pause(until: retryAt)
        default:
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
