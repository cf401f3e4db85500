import Glibc
import OpenClawKit

/// `openclaw send`: chat.send, then the run's chat (and agent) events until it ends.
enum SendCommand {
    static func run(_ context: CommandContext) throws {
        if context.environment["OPENCLAW_SHELL"] == "exec" {
            throw CommandFailure(.usage, "refusing to send from inside an agent's exec tool (OPENCLAW_SHELL=exec)")
        }
        let message = try MessageInput.read(context.invocation)
        let attachments = try context.invocation.strings("attach").map(Attachment.load)
        let runID = context.invocation.string("idempotency-key") ?? SecureRandom.uuid()

        var params: JSONObject = ["sessionKey": .string(context.sessionKey), "message": .string(message)]
        if let thinking = context.invocation.string("thinking") { params["thinking"] = .string(thinking) }
        if context.invocation.has("deliver") { params["deliver"] = true }
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
        agentEvents = context.invocation.has("agent-events")
    }

    mutating func start(params: JSONValue) throws {
        let id: String
        do { id = try session.send(method: "chat.send", params: params, deadline: context.deadline) } catch { throw CommandFailure(error) }
        let loop = FrameLoop(session: session)
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
        if ack.error != nil { throw gatewayFailure(ack, method: "chat.send") }
        let status = ack.payload?["status"]?.stringValue
        if context.invocation.has("no-wait") || status == "ok" { return }

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
            if context.format == .text { Console.out.write("\n"); try? flushOutput() }
            throw CommandFailure(error)
        }
    }

    private func belongsToRun(_ frame: GatewayFrame) -> Bool {
        guard let name = frame.eventName, name == "chat" || name == "agent" else { return false }
        return frame.payload?["runId"]?.stringValue == runID
    }

    /// Prints one event of the run; true when the run has ended (and the command with it).
    private mutating func handle(_ frame: GatewayFrame) throws -> Bool {
        if frame.eventName == "agent" {
            if agentEvents && context.format == .ndjson { context.printFrame(frame) }
            return false
        }
        let payload = frame.payload
        let state = payload?["state"]?.stringValue ?? ""
        switch context.format {
        case .ndjson: context.printFrame(frame)
        case .text: reply.show(payload, final: state != "delta")
        }
        switch state {
        case "final": return true
        case "aborted": throw CommandFailure(.gatewayError, "run \(runID) was aborted")
        case "error":
            let reason = payload?["errorMessage"]?.stringValue ?? "no reason given"
            throw CommandFailure(.gatewayError, "run \(runID) failed: \(reason)")
        default: return false
        }
    }

    /// SIGINT/SIGTERM: abort the run, print what comes back (briefly), exit 130/143.
    private mutating func interrupt(_ signal: Int32, loop: FrameLoop) throws -> Never {
        let status = ExitStatus(signal: signal)
        let deadline = min(context.deadline, .after(seconds: 5))
        let params: JSONValue = ["sessionKey": .string(context.sessionKey), "runId": .string(runID)]
        if let id = try? session.send(method: "chat.abort", params: params, deadline: deadline) {
            var sawResponse = false, sawEnd = false
            while !(sawResponse && sawEnd), !deadline.hasPassed {
                guard let frame = try? session.receive(deadline: deadline) else { break }
                if frame.responseID == id {
                    sawResponse = true
                    if context.format == .ndjson { context.printFrame(frame) }
                    // Nothing was running: no aborted event will follow.
                    if frame.payload?["aborted"]?.boolValue != true { sawEnd = true }
                } else if belongsToRun(frame) {
                    let state = frame.payload?["state"]?.stringValue ?? ""
                    if frame.eventName == "chat" || agentEvents, context.format == .ndjson { context.printFrame(frame) }
                    if frame.eventName == "chat" && state != "delta" { sawEnd = true }
                }
            }
        }
        if context.format == .text { Console.out.write("\n") }
        try? flushOutput()
        throw CommandFailure(status, "interrupted: sent chat.abort for run \(runID)")
    }
}

/// The reply text for `-o text`: prints only what is new in each delta.
struct ReplyText {
    private var printed: [UInt8] = []

    mutating func show(_ payload: JSONValue?, final: Bool) {
        var full: [UInt8]
        if let message = payload?["message"], !message.isNull {
            full = Array(TranscriptText.text(of: message).utf8)
        } else if let delta = payload?["deltaText"]?.stringValue {
            full = payload?["replace"]?.boolValue == true ? Array(delta.utf8) : printed + Array(delta.utf8)
        } else {
            full = printed
        }
        if full.starts(with: printed) {
            Console.out.write(full[printed.count...])
        } else {
            // The gateway replaced the text: start it again on a new line.
            Console.out.write("\n")
            Console.out.write(full)
        }
        printed = full
        if final { Console.out.write("\n") }
    }
}
