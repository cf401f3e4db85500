@_spi(Engine) import ClawProtocol
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawState

/// What a refused request says about sending it again: `UNAVAILABLE` that is `retryable` (the gateway's
/// control-plane write rate limit, a full request queue) or that the gateway is suspending, draining
/// for a restart or starting (`details.reason`). An idempotent request may be sent again after
/// `retryAfterMs` (1 s unless it says); one that is not only when it was refused before it ran.
@_spi(Engine) public enum RetryAdvice {
    /// A refusal from a gateway that is suspending, draining for a restart or starting: the request
    /// was turned away at admission and did nothing, so even one that is not idempotent may be resent.
    @_spi(Engine) public static func refusedBeforeRunning(_ error: ErrorShape?) -> Bool {
        guard let error, error.code == "UNAVAILABLE", let reason = error.details?["reason"]?.stringValue else { return false }
        return ErrorShape.passingUnavailableReasons.contains(reason)
    }

    /// Seconds to wait before sending again, when `error` is a refusal worth repeating.
    @_spi(Engine) public static func delay(for error: ErrorShape?) -> Double? {
        error?.waitBeforeRetryMs.map { Double($0) / 1000 }
    }
}
