import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// Whether the gateway admits work now (docs/protocol.md §3.8). Suspended (`--suspended`, SIGUSR1,
/// until SIGUSR2 or `--suspend-ms`), it answers a connect `UNAVAILABLE` and closes it 1013, and
/// refuses every request but `health` with `UNAVAILABLE`; both retryable with `retryAfterMs` 1000
/// and `details.reason` (`--suspend-reason`) and `details.phase`, as the October 2026 gateway's
/// admission does. The `restarting:N` and `close-1013:N` faults and the operator access policy
/// (`--operator-access-file`) are decided here too.
final class Admission: @unchecked Sendable {
    private let options: SimulatorOptions
    private let lock = NSLock()
    private var suspended: Bool
    private var resumesAt: Deadline?
    private var restartingRequestsLeft: Int
    private var closed1013Left: Int

    static let retryAfterMs: Int64 = 1000

    init(options: SimulatorOptions) {
        self.options = options
        suspended = options.startSuspended
        restartingRequestsLeft = options.restartingRequests
        closed1013Left = options.closed1013Connects
        if suspended, let ms = options.suspendMs { resumesAt = .after(seconds: Double(ms) / 1000) }
    }

    /// SIGUSR1: stop admitting work.
    func suspend() {
        lock.withLock {
            suspended = true
            resumesAt = options.suspendMs.map { .after(seconds: Double($0) / 1000) }
        }
    }

    /// SIGUSR2: admit work again.
    func resume() { lock.withLock { suspended = false; resumesAt = nil } }

    var isSuspended: Bool {
        lock.withLock {
            if suspended, let resumesAt, resumesAt.hasPassed { suspended = false; self.resumesAt = nil }
            return suspended
        }
    }

    private var reason: String { options.suspendReason }
    private var phase: String { reason == "gateway-restarting" ? "draining" : reason == "gateway-suspending" ? "prepared" : "starting" }
    private var during: String { reason == "gateway-restarting" ? "restart" : reason == "gateway-suspending" ? "suspension" : "start-up" }

    /// The refusal of a connect while suspended, and the close that follows it.
    func connectRefusal() -> (error: ErrorShape, closeReason: String)? {
        guard isSuspended else { return nil }
        let error = ErrorShape(code: "UNAVAILABLE", message: "connect unavailable during gateway \(during)",
                               details: ["reason": .string(reason), "phase": .string(phase)], retryable: true,
                               retryAfterMs: Self.retryAfterMs)
        return (error, reason == "gateway-restarting" ? "gateway restarting" : "gateway suspended")
    }

    /// The refusal of a request while suspended (or one of the first `restarting:N`); `health` always passes.
    func requestRefusal(method: String) -> ErrorShape? {
        guard method != GatewayMethod.health else { return nil }
        if isSuspended {
            return ErrorShape(code: "UNAVAILABLE", message: "\(method) unavailable during gateway \(during)",
                              details: ["method": .string(method), "reason": .string(reason), "phase": .string(phase)],
                              retryable: true, retryAfterMs: Self.retryAfterMs)
        }
        let restarting = lock.withLock { () -> Bool in
            guard restartingRequestsLeft > 0 else { return false }
            restartingRequestsLeft -= 1
            return true
        }
        guard restarting else { return nil }
        return ErrorShape(code: "UNAVAILABLE", message: "\(method) unavailable during gateway restart",
                          details: ["method": .string(method), "reason": "gateway-restarting", "phase": "draining"],
                          retryable: true, retryAfterMs: Self.retryAfterMs)
    }

    /// `close-1013:N`: true for the first N connections, closed 1013 before any frame.
    func takeClose1013() -> Bool {
        lock.withLock {
            guard closed1013Left > 0 else { return false }
            closed1013Left -= 1
            return true
        }
    }

    /// The refusal of an operator the access policy grants nothing (`--operator-access-file` absent).
    func operatorAccessRefusal(role: String) -> ErrorShape? {
        guard role == "operator", let path = options.operatorAccessFile, !FileManager.default.fileExists(atPath: path) else { return nil }
        return ErrorShape(code: "FORBIDDEN", message: Self.accessDeniedMessage, details: ["code": "OPERATOR_ACCESS_DENIED"])
    }

    static let accessDeniedMessage = "Gateway access is no longer active; ask a Gateway administrator to restore it."
}
