@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// One `agent` request followed to its final response: the `accepted` ack (kept for the abort),
/// the run's `agent` events (printed under `--json-stream`), then the second `res` with the same id.
/// A signal, or our deadline passing, aborts the run on the gateway before the command ends.
struct AgentTurn {
    let context: CommandContext
    let request: AgentRequest
    private(set) var runId: String?
    private var sessionKey: String?
    private let output: AgentOutput
    /// How long past `--timeout` the gateway's own timeout answer is awaited before we abort.
    static let graceSeconds = 5.0

    init(context: CommandContext, request: AgentRequest) {
        self.context = context
        self.request = request
        sessionKey = request.sessionKey
        output = AgentOutput(context: context)
    }

    mutating func run() throws {
        let limit = request.timeoutSeconds
        let deadline: Deadline = limit > 0 ? .after(seconds: Double(limit) + Self.graceSeconds) : .never
        let session = try context.connect(try ConnectionSetup.sessionOptions(for: context), deadline: deadline)
        defer { session.close() }
        let id: String
        do { id = try session.send(method: GatewayMethod.agent, params: .object(request.params), deadline: deadline) } catch {
            throw CommandFailure(error)
        }
        let loop = context.loop(session)
        while true {
            let event: LoopEvent
            do { event = try loop.next(until: deadline) } catch let error as GatewayError {
                throw lost(error)
            } catch let closed as OutputClosed {
                // The reader went away (`agent --json-stream | head`): the turn would go on for no one.
                _ = abort(.success, session: session, loop: loop, until: .after(seconds: 2), why: "lost its reader")
                throw closed
            }
            switch event {
            case .frame(let frame):
                if frame.responseID == id {
                    if frame.isAcceptedAck {
                        runId = frame.payload?[ChatField.runId]?.stringValue ?? runId
                        sessionKey = frame.payload?[ChatField.sessionKey]?.stringValue ?? sessionKey
                        continue
                    }
                    return try output.finish(frame, runId: runId)
                }
                if let runId, frame.eventName == GatewayEventName.agent, frame.runId == runId {
                    output.event(frame)
                } else if context.raw {
                    context.printFrame(frame)
                }
            case .signal(let signal):
                throw abort(ExitStatus(signal: signal), session: session, loop: loop,
                            until: min(deadline, context.signals.exitDeadline), why: "interrupted")
            case .input: continue
            case .timeout:
                let failure = abort(.timeout, session: session, loop: loop, until: .after(seconds: 2),
                                    why: "timed out after \(limit)s (--timeout \(limit))")
                throw failure
            }
        }
    }

    /// The connection dropped mid-turn: the official hint (the gateway may still run it).
    private func lost(_ error: GatewayError) -> CommandFailure {
        let failure = CommandFailure(error)
        guard runId != nil else { return failure }
        return CommandFailure(failure.status, failure.message + "; the gateway may still be running this turn: check `openclaw history` before retrying, so the turn does not run twice")
    }

    /// One `chat.abort` for the run, its answer awaited until `until`; the failure to end with.
    private func abort(_ status: ExitStatus, session: GatewaySession, loop: FrameLoop, until: Deadline, why: String) -> CommandFailure {
        guard let runId else { return CommandFailure(status, "agent turn \(why) before the gateway accepted it") }
        let params: JSONValue = [ChatField.sessionKey: .string(sessionKey ?? "main"), ChatField.runId: .string(runId)]
        loop.reportsSignals = false  // the signal is being acted on
        if let id = try? session.send(method: GatewayMethod.chatAbort, params: params, deadline: until) {
            while case .frame(let frame)? = try? loop.next(until: until), frame.responseID != id {}
        }
        return CommandFailure(status, "agent run \(runId) \(why): sent chat.abort")
    }
}
