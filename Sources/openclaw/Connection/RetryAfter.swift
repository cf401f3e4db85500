@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawSession
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawState

/// A refusal the gateway asks us to repeat: `UNAVAILABLE` that is `retryable` (its control-plane
/// write rate limit, a full request queue) or says the gateway is suspending, draining for a restart
/// or starting (`details.reason`). Commands whose request is idempotent wait `retryAfterMs` (1 s
/// unless it says) and send the same request again (chat.send with the same idempotency key), as
/// long as `--timeout` allows.
enum RetryAfter {
    /// A refusal from a gateway that is suspending, draining for a restart or starting: the request
    /// was turned away at admission and did nothing, so even one that is not idempotent may be resent.
    static func refusedBeforeRunning(_ frame: GatewayFrame) -> Bool { RetryAdvice.refusedBeforeRunning(frame.error) }

    /// Seconds to wait before resending, when `frame` is such a refusal.
    static func delay(for frame: GatewayFrame) -> Double? { RetryAdvice.delay(for: frame.error) }

    /// Waits out `frame`'s delay on the session's loop, with one note on stderr; false (no wait) when
    /// resending would come after the command's deadline. Frames that arrive meanwhile are printed only
    /// with `--raw`; a signal ends the command.
    static func wait(after frame: GatewayFrame, method: String, attempt: Int, session: GatewaySession,
                     context: CommandContext) throws -> Bool {
        guard let seconds = delay(for: frame) else { return false }
        let resendAt = Deadline.after(seconds: seconds)
        guard resendAt < context.deadline else { return false }
        var reason = frame.error.map { $0.message.isEmpty ? $0.code : $0.message } ?? "retryable"
        if let word = frame.error?.details?["reason"]?.stringValue { reason += ", \(word)" }
        context.console.note("\(method) refused for now (\(reason)); sending it again in \(formatDelay(seconds)) (retry \(attempt))")
        let loop = context.loop(session)
        while true {
            let event: LoopEvent
            do { event = try loop.next(until: resendAt) } catch let error as GatewayError { throw CommandFailure(error) }
            switch event {
            case .timeout: return true
            case .frame(let other): if context.raw { context.printFrame(other) }
            case .input: continue
            case .signal(let signal): throw CommandFailure(ExitStatus(signal: signal), "interrupted while waiting to send \(method) again")
            }
        }
    }
}
