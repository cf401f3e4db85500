import Glibc
import OpenClawKit

/// `openclaw send`: chat.send, then the run's chat (and agent) events until it ends.
enum SendCommand {
    static func run(_ context: CommandContext) throws {
        if context.environment["OPENCLAW_SHELL"] == "exec" {
            throw CommandFailure(.usage, "refusing to send from inside an agent's exec tool (OPENCLAW_SHELL=exec)")
        }
        let options = context.options.send
        let message = try MessageInput.read(arguments: context.positionals, file: options.file)
        let attachments = try options.attachments.map(Attachment.load)
        let runID = options.idempotencyKey ?? SecureRandom.uuid()

        var params: JSONObject = [ChatField.sessionKey: .string(context.sessionKey), ChatField.message: .string(message)]
        if let thinking = options.thinking { params["thinking"] = .string(thinking) }
        if options.deliver { params["deliver"] = true }
        if !attachments.isEmpty { params["attachments"] = .array(attachments) }
        params["idempotencyKey"] = .string(runID)

        let session = try context.openSession()
        defer { session.close() }
        var stream = RunStream(context: context, session: session, runID: runID)
        try stream.start(params: .object(params))
    }
}

/// Follows one run: prints the ack, then its events until `final`, `aborted` or `error`.
struct RunStream {
    let context: CommandContext
    let session: GatewaySession
    let runID: String
    private var reply = ReplyText()
    private var early: [GatewayFrame] = []
    private var earlyBytes = 0
    /// Events of the run held back until the ack: a gateway that never acks cannot grow them without bound.
    static let maxEarlyBytes = 16 * 1024 * 1024
    private let agentEvents: Bool

    init(context: CommandContext, session: GatewaySession, runID: String) {
        self.context = context
        self.session = session
        self.runID = runID
        agentEvents = context.options.send.agentEvents
    }

    mutating func start(params: JSONValue) throws {
        let id: String
        do { id = try session.send(method: GatewayMethod.chatSend, params: params, deadline: context.deadline) } catch { throw CommandFailure(error) }
        let loop = context.loop(session)
        // Wait for the ack; events of the run that overtake it are printed after it.
        var ack: GatewayFrame? = nil
        while ack == nil {
            switch try nextEvent(loop) {
            case .frame(let frame):
                if frame.responseID == id { ack = frame }
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
        guard let ack else { return }
        if context.format == .ndjson { context.printFrame(ack) }
        if ack.error != nil { throw gatewayFailure(ack, method: GatewayMethod.chatSend) }
        // A stop command (`/stop`, `stop`, `abort`, …) starts no run: the ack says what it aborted.
        if let stopped = ack.payload?["runIds"]?.arrayValue, ack.payload?["status"] == nil {
            if context.format == .text { context.console.out.write("aborted \(stopped.count) run(s)\n") }
            return
        }
        let status = ack.payload?["status"]?.stringValue.flatMap(ChatSendStatus.init(rawValue:))
        if context.options.send.noWait || status == .ok { return }

        for frame in early { if try handle(frame) { return } }
        while true {
            switch try nextEvent(loop) {
            case .frame(let frame):
                if belongsToRun(frame) { if try handle(frame) { return } }
                else if context.raw { context.printFrame(frame) }
            case .signal(let signal): try interrupt(signal, loop: loop)
            case .input: continue  // no input descriptor here
            case .timeout: throw context.timeoutFailure("waiting for run \(runID) to end")
            }
        }
    }

    private func nextEvent(_ loop: FrameLoop) throws -> LoopEvent {
        do { return try loop.next(until: context.deadline) } catch let error as GatewayError {
            if context.format == .text { context.console.out.write("\n"); try? context.console.flushOutput() }
            throw CommandFailure(error)
        }
    }

    private func belongsToRun(_ frame: GatewayFrame) -> Bool {
        guard let name = frame.eventName, GatewayEventName.isRunEvent(name) else { return false }
        return frame.header.runId == runID
    }

    /// Prints one event of the run; true when the run has ended (and the command with it).
    private mutating func handle(_ frame: GatewayFrame) throws -> Bool {
        if frame.eventName == GatewayEventName.agent {
            if agentEvents && context.format == .ndjson { context.printFrame(frame) }
            return false
        }
        let payload = frame.payload
        let state = frame.header.state.flatMap(ChatState.init(rawValue:))
        switch context.format {
        case .ndjson: context.printFrame(frame)
        case .text: reply.show(payload, final: state != .delta, to: context.console.out)
        }
        switch state {
        case .final: return true
        case .aborted: throw CommandFailure(.gatewayError, "run \(runID) was aborted")
        case .error:
            let reason = payload?[ChatField.errorMessage]?.stringValue ?? "no reason given"
            throw CommandFailure(.gatewayError, "run \(runID) failed: \(reason)")
        default: return false
        }
    }

    /// SIGINT/SIGTERM: abort the run, print what comes back (briefly), exit 130/143.
    private mutating func interrupt(_ signal: Int32, loop: FrameLoop) throws -> Never {
        let status = ExitStatus(signal: signal)
        let deadline = min(context.deadline, .after(seconds: 5))
        let params: JSONValue = [ChatField.sessionKey: .string(context.sessionKey), ChatField.runId: .string(runID)]
        if let id = try? session.send(method: GatewayMethod.chatAbort, params: params, deadline: deadline) {
            var sawResponse = false, sawEnd = false
            var frames = loop
            frames.reportsSignals = false  // the signal is being acted on
            while !(sawResponse && sawEnd) {
                guard case .frame(let frame)? = try? frames.next(until: deadline) else { break }
                if frame.responseID == id {
                    sawResponse = true
                    if context.format == .ndjson { context.printFrame(frame) }
                    // Nothing was running: no aborted event will follow.
                    if frame.payload?["aborted"]?.boolValue != true { sawEnd = true }
                } else if belongsToRun(frame) {
                    let isChat = frame.eventName == GatewayEventName.chat
                    if isChat || agentEvents, context.format == .ndjson { context.printFrame(frame) }
                    if isChat && frame.header.state != ChatState.delta.rawValue { sawEnd = true }
                }
            }
        }
        if context.format == .text { context.console.out.write("\n") }
        try? context.console.flushOutput()
        throw CommandFailure(status, "interrupted: sent chat.abort for run \(runID)")
    }
}

/// The reply text for `-o text`: prints only what is new in each delta.
struct ReplyText {
    private var printed: [UInt8] = []

    mutating func show(_ payload: JSONValue?, final: Bool, to out: OutputStream) {
        var full: [UInt8]
        if let message = payload?["message"], !message.isNull {
            full = Array(TranscriptText.text(of: message).utf8)
        } else if let delta = payload?["deltaText"]?.stringValue {
            full = payload?["replace"]?.boolValue == true ? Array(delta.utf8) : printed + Array(delta.utf8)
        } else {
            full = printed
        }
        if full.starts(with: printed) {
            out.write(full[printed.count...])
        } else {
            // The gateway replaced the text: start it again on a new line.
            out.write("\n")
            out.write(full)
        }
        printed = full
        if final { out.write("\n") }
    }
}
