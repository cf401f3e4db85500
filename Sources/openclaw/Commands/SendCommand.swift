@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawSystem

/// `openclaw send`: chat.send, then the run's chat (and agent) events until it ends.
enum SendCommand {
    static func run(_ context: CommandContext) throws {
        if context.environment["OPENCLAW_SHELL"] == "exec" {
            throw CommandFailure(.usage, "refusing to send from inside an agent's exec tool (OPENCLAW_SHELL=exec)")
        }
        let options = context.options.send
        let message = try MessageInput.read(arguments: context.positionals, file: options.file, signals: context.signals)
        let attachments = try options.attachments.map(Attachment.load)
        let runID = options.idempotencyKey ?? SecureRandom.uuid()

        var params: JSONObject = [ChatField.sessionKey: .string(context.sessionKey), ChatField.message: .string(message)]
        if let thinking = options.thinking { params["thinking"] = .string(thinking) }
        if options.deliver { params["deliver"] = true }
        if let mode = options.queueMode { params["queueMode"] = .string(mode) }
        if !attachments.isEmpty { params["attachments"] = .array(attachments.map(\.json)) }
        params["idempotencyKey"] = .string(runID)

        let session = try context.openSession()
        defer { session.close() }
        for attachment in attachments { try attachment.check(against: session.hello) }
        var stream = RunStream(context: context, session: session, runID: runID)
        try stream.start(params: .object(params))
    }
}

/// Follows one run: prints the ack, then its events until `final`, `aborted` or `error`.
struct RunStream {
    let context: CommandContext
    let session: GatewaySession
    let runID: String
    private var assembler = ReplyAssembler()
    private var renderer: ReplyRenderer
    private var early: [GatewayFrame] = []
    private var earlyBytes = 0
    /// Events of the run held back until the ack: a gateway that never acks cannot grow them without bound.
    static let maxEarlyBytes = 16 * 1024 * 1024
    private let agentEvents: Bool
    /// The run's one `chat.abort`, decided in one place whoever asks first.
    private let abort: RunAbort

    /// The one place a run's abort is decided: the first ask sends `chat.abort`, and every ask gets that
    /// request's id (nil if it could not go out). Asked by a signal while stdout is stuck behind a slow
    /// reader (at once), by the signal's own handling, and by the command ending early (`--timeout`, a
    /// closed reader, a protocol error): the run ends with the command, aborted once.
    final class RunAbort {
        private let session: GatewaySession
        private let params: JSONValue
        private var asked = false
        private var id: String?

        init(session: GatewaySession, params: JSONValue) {
            self.session = session
            self.params = params
        }

        @discardableResult
        func send(by deadline: Deadline) -> String? {
            if !asked {
                asked = true
                id = try? session.send(method: GatewayMethod.chatAbort, params: params, deadline: deadline)
            }
            return id
        }
    }

    init(context: CommandContext, session: GatewaySession, runID: String) {
        self.context = context
        self.session = session
        self.runID = runID
        abort = RunAbort(session: session, params: [ChatField.sessionKey: .string(context.sessionKey), ChatField.runId: .string(runID)])
        agentEvents = context.options.send.agentEvents
        renderer = ReplyRenderer(console: context.console, terminal: context.terminal, stream: context.options.send.stream)
    }

    mutating func start(params: JSONValue) throws {
        let loop = context.loop(session)
        // An interrupt while stdout is stuck behind a slow reader aborts the run at once; the rest of
        // the interrupt (what comes back, the exit status) follows once the output moves.
        let waiter = context.stdoutWaiter
        waiter.onInterrupt = { [abort] in abort.send(by: .after(seconds: 1)) }
        defer { waiter.onInterrupt = nil }
        do {
            var attempt = 0
            var ack = try sendAndAwaitAck(params, loop: loop)
            // Rate limited: the same idempotency key again after the delay the gateway names.
            while true {
                attempt += 1
                guard try RetryAfter.wait(after: ack, method: GatewayMethod.chatSend, attempt: attempt, session: session, context: context) else { break }
                ack = try sendAndAwaitAck(params, loop: loop)
            }
            try follow(ack: ack, loop: loop)
        } catch let closed as OutputClosed {
            // The reader went away: the run would go on for no one.
            abandon(loop)
            throw closed
        } catch let failure as CommandFailure where failure.status == .timeout || failure.status == .protocolError {
            // --timeout fired, or the wait ended in error: the command ends, and its run with it.
            abandon(loop)
            throw failure
        }
    }

    /// The run ends with the command, whatever ends it: one `chat.abort` (unless a signal's already
    /// went), its answer awaited at most 2 s, nothing more printed. `--no-wait` never gets here.
    private func abandon(_ loop: FrameLoop) {
        let deadline = Deadline.after(seconds: 2)
        guard let id = abort.send(by: deadline) else { return }
        loop.reportsSignals = false
        while case .frame(let frame)? = try? loop.next(until: deadline), frame.responseID != id {}
    }

    /// Sends chat.send and waits for its ack; events of the run that overtake it are kept for after it.
    private mutating func sendAndAwaitAck(_ params: JSONValue, loop: FrameLoop) throws -> GatewayFrame {
        let id: String
        do { id = try session.send(method: GatewayMethod.chatSend, params: params, deadline: context.deadline) } catch { throw CommandFailure(error) }
        while true {
            switch try nextEvent(loop) {
            case .frame(let frame):
                if frame.responseID == id { return frame }
                else if belongsToRun(frame) {
                    earlyBytes += frame.raw.count
                    guard earlyBytes <= Self.maxEarlyBytes else {
                        throw CommandFailure(.protocolError, "the gateway sent more than 16 MiB of run \(runID) events before answering chat.send")
                    }
                    early.append(frame)
                }
                else if context.raw { context.printFrame(frame) }
            case .signal(let signal): try interrupt(signal, loop: loop)
            case .input: continue  // no input descriptor here
            case .timeout: throw context.timeoutFailure("waiting for the chat.send response")
            }
        }
    }

    /// Prints the ack, then the run's events until it ends.
    private mutating func follow(ack: GatewayFrame, loop: FrameLoop) throws {
        if context.format == .ndjson { context.printFrame(ack) }
        if ack.error != nil { throw gatewayFailure(ack, method: GatewayMethod.chatSend) }
        // A stop command (`/stop`, `stop`, `abort`, …) starts no run: the ack says what it aborted.
        if let stopped = ack.payload?["runIds"]?.arrayValue, ack.payload?["status"] == nil {
            if context.format == .text { context.console.out.write("aborted \(stopped.count) run(s)\n") }
            return
        }
        if context.format == .text, ack.payload?["interruptedActiveRun"]?.boolValue == true {
            context.console.note("interrupted the session's active run (--queue-mode interrupt)")
        }
        if context.options.send.noWait { return }
        let status = ack.payload?["status"]?.stringValue.flatMap(ChatSendStatus.init(rawValue:))
        if status == .ok {
            // The same idempotency key already ran to the end: nothing more will come for it.
            if context.format == .text { try showFinishedRun() }
            return
        }

        for frame in early { if try handle(frame) { return } }
        while true {
            switch try nextEvent(loop) {
            case .frame(let frame):
                if belongsToRun(frame) { if try handle(frame) { return } }
                else if context.raw { context.printFrame(frame) }
            case .signal(let signal): try interrupt(signal, loop: loop)
            case .input: continue  // no input descriptor here
            case .timeout:
                renderer.interrupted()
                throw context.timeoutFailure("waiting for run \(runID) to end")
            }
        }
    }

    private mutating func nextEvent(_ loop: FrameLoop) throws -> LoopEvent {
        do { return try loop.next(until: context.deadline) } catch let error as GatewayError {
            if context.format == .text { renderer.interrupted(); try? context.console.flushOutput() }
            throw CommandFailure(error)
        }
    }

    private func belongsToRun(_ frame: GatewayFrame) -> Bool {
        guard let name = frame.eventName, GatewayEventName.isRunEvent(name) else { return false }
        return frame.runId == runID
    }

    /// Shows one event of the run; true when the run has ended (and the command with it).
    private mutating func handle(_ frame: GatewayFrame) throws -> Bool {
        let isAgent = frame.eventName == GatewayEventName.agent
        switch context.format {
        case .ndjson:
            if !isAgent || agentEvents { context.printFrame(frame) }
            if isAgent { return false }
            let state = frame.state.flatMap(ChatState.init(rawValue:))
            guard let state, state.endsRun else { return false }
            try finish(ReplyAssembler.End(state: state, payload: frame.payload))
            return true
        case .text:
            let update = isAgent ? assembler.apply(agent: frame.payload) : assembler.apply(chat: frame.payload)
            if let gap = update.gap {
                context.console.note("sequence gap in run \(runID): expected \(gap.expected), received \(gap.received) (text may be missing until the next full message)")
            }
            renderer.show(update)
            guard let end = update.end else { return false }
            try finish(end)
            return true
        }
    }

    /// Exit 0 for `final`; 1 with the reason for `aborted` and `error`.
    private func finish(_ end: ReplyAssembler.End) throws {
        let details = [end.errorKind.map { "errorKind: \($0)" }, end.stopReason.map { "stopReason: \($0)" },
                       end.providerDetail].compactMap { $0 }
        let suffix = details.isEmpty ? "" : " (\(details.joined(separator: ", ")))"
        switch end.state {
        case .aborted:
            throw CommandFailure(.gatewayError, "run \(runID) was aborted\(end.errorMessage.map { ": \($0)" } ?? "")\(suffix)")
        case .error:
            throw CommandFailure(.gatewayError, "run \(runID) failed: \(end.errorMessage ?? "no reason given")\(suffix)")
        default:
            return
        }
    }

    /// A retried send whose run already finished: its reply when the transcript names the run,
    /// otherwise one line on stderr saying where to find it.
    private func showFinishedRun() throws {
        let params: JSONValue = [ChatField.sessionKey: .string(context.sessionKey), "limit": 50]
        let history = try request(GatewayMethod.chatHistory, params: params, on: session, context: context)
        let messages = history.payload?["messages"]?.arrayValue ?? []
        let ours = messages.last { message in
            message["role"]?.stringValue == "assistant"
                && [message["idempotencyKey"], message[ChatField.runId], message["__openclaw"]?[ChatField.runId]]
                    .contains { $0?.stringValue == runID }
        }
        if let ours {
            context.console.out.write(MessageText.text(of: ours) + "\n")
        } else {
            context.console.note("run \(runID) already ran (the gateway answered from its idempotency cache); its reply is in the transcript: openclaw history -s \(context.sessionKey) -n 2 -o text")
        }
    }

    /// SIGINT/SIGTERM: abort the run, print what comes back (briefly), exit 130/143.
    private mutating func interrupt(_ signal: Int32, loop: FrameLoop) throws -> Never {
        let status = ExitStatus(signal: signal)
        // What comes back is printed while the signal's grace lasts, never longer: the exit follows
        // within 2 s of the signal whatever the gateway and the reader of stdout do.
        let deadline = min(context.deadline, context.signals.exitDeadline)
        if let id = abort.send(by: deadline) {
            var sawResponse = false, sawEnd = false
            loop.reportsSignals = false  // the signal is being acted on
            while !(sawResponse && sawEnd) {
                guard case .frame(let frame)? = try? loop.next(until: deadline) else { break }
                if frame.responseID == id {
                    sawResponse = true
                    if context.format == .ndjson { context.printFrame(frame) }
                    // Nothing was running: no aborted event will follow.
                    if frame.payload?["aborted"]?.boolValue != true { sawEnd = true }
                } else if belongsToRun(frame) {
                    let isChat = frame.eventName == GatewayEventName.chat
                    if isChat || agentEvents, context.format == .ndjson { context.printFrame(frame) }
                    if isChat && frame.state != ChatState.delta.rawValue { sawEnd = true }
                }
            }
        }
        if context.format == .text { renderer.interrupted() }
        try? context.console.flushOutput()
        throw CommandFailure(status, "interrupted: sent chat.abort for run \(runID)")
    }
}
