@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession

/// Sends one request and waits for its response, printing unrelated frames only with `--raw`.
/// With `resendWhenAsked` (the request is idempotent), a refusal the gateway asks to repeat
/// (`RetryAfter`) is waited out and the request sent again while `--timeout` allows; any request is
/// when the gateway refused it for suspending, restarting or starting (it ran nothing).
func request(_ method: String, params: JSONValue?, on session: GatewaySession, context: CommandContext,
             expectFinal: Bool = false, resendWhenAsked: Bool = false) throws -> GatewayFrame {
    var attempt = 0
    while true {
        let id: String
        do { id = try session.send(method: method, params: params, deadline: context.deadline) } catch { throw CommandFailure(error) }
        let response = try awaitResponse(id: id, method: method, on: session, context: context, expectFinal: expectFinal)
        attempt += 1
        guard resendWhenAsked || RetryAfter.refusedBeforeRunning(response),
              try RetryAfter.wait(after: response, method: method, attempt: attempt, session: session, context: context) else {
            return response
        }
    }
}

func awaitResponse(id: String, method: String, on session: GatewaySession, context: CommandContext,
                   expectFinal: Bool, deadline: Deadline? = nil) throws -> GatewayFrame {
    let deadline = deadline ?? context.deadline
    let loop = context.loop(session)
    while true {
        let event: LoopEvent
        do { event = try loop.next(until: deadline) } catch let error as GatewayError { throw CommandFailure(error) }
        switch event {
        case .frame(let frame):
            if frame.responseID == id && !(expectFinal && frame.isAcceptedAck) { return frame }
            if context.raw { context.printFrame(frame) }
        case .signal(let signal):
            throw CommandFailure(ExitStatus(signal: signal), "interrupted")
        case .input: continue  // no input descriptor here
        case .timeout:
            throw context.timeoutFailure("waiting for the \(method) response")
        }
    }
}

/// The failure for a response with `ok:false` (exit 1), after the frame itself was printed.
func gatewayFailure(_ frame: GatewayFrame, method: String) -> CommandFailure {
    let shape = frame.error ?? ErrorShape(.null)
    // Someone must act (exit 4): grant the scope, or ask for it.
    if shape.code == "FORBIDDEN", shape.detailsCode == "MISSING_SCOPE" {
        let scope = shape.details?["missingScope"]?.stringValue ?? shape.details?["requiredScopes"]?.arrayValue?.first?.stringValue ?? "?"
        return CommandFailure(.authentication, "\(method) needs the \(scope) scope, which this device was not granted: "
            + "request it with --scope \(scope) if the device was approved for it, or approve the scope upgrade on the gateway host (openclaw devices list)")
    }
    return CommandFailure(.gatewayError, "\(method) failed: \(shape.code): \(shape.message)")
}
