import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `--write-rate-limit N`: the gateway's budget for control-plane writes, N requests per window
/// per method and client (the official default is 30 per 60 s). Only requests that would start
/// new work are offered to it; an idempotent replay is answered before it is asked.
final class WriteRateLimiter: @unchecked Sendable {
    /// The methods that count as control-plane writes here.
    static let methods: Set<String> = [
        GatewayMethod.chatSend, GatewayMethod.chatAbort, GatewayMethod.chatInject, GatewayMethod.agent,
    ]

    let limit: Int
    let windowMs: Int
    private let lock = NSLock()
    /// Monotonic admission times (ms) per "client|method", oldest first.
    private var admitted: [String: [UInt64]] = [:]

    init(limit: Int, windowMs: Int) {
        self.limit = limit
        self.windowMs = windowMs
    }

    /// Counts one request and returns nil, or refuses it with the milliseconds until the oldest
    /// counted request leaves the window (a sliding window, so a retry after that is admitted).
    func admit(method: String, client: String, nowMs: UInt64 = MonotonicClock.nanoseconds() / 1_000_000) -> Int? {
        lock.withLock {
            let key = client + "|" + method
            let window = UInt64(windowMs)
            var times = admitted[key, default: []]
            times.removeAll { nowMs >= $0 + window }
            guard times.count < limit else {
                admitted[key] = times
                return Int(times[0] + window - nowMs)
            }
            times.append(nowMs)
            admitted[key] = times
            return nil
        }
    }

    /// The refusal, in the official words (`rate limit exceeded for METHOD; retry after Ns`).
    func refusal(method: String, retryAfterMs: Int) -> ErrorShape {
        let seconds = (retryAfterMs + 999) / 1000
        return ErrorShape(code: "UNAVAILABLE", message: "rate limit exceeded for \(method); retry after \(seconds)s",
                          details: ["method": .string(method), "limit": .string("\(limit) per \(Self.windowText(windowMs))")],
                          retryable: true, retryAfterMs: Int64(retryAfterMs))
    }

    /// `60s`, or `0.5s` for a test's short window (as JavaScript prints `windowMs / 1000`).
    static func windowText(_ ms: Int) -> String {
        ms % 1000 == 0 ? "\(ms / 1000)s" : "\(Double(ms) / 1000)s"
    }
}
