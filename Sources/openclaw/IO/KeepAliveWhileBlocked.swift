@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// What a write that would block waits with (`OutputStream.whileBlocked`).
protocol OutputWaiter: AnyObject {
    /// Returns once `descriptor` may take more bytes, or has failed (the next write says how).
    func waitUntilWritable(_ descriptor: Int32)
}

/// While stdout is blocked by a slow reader, keeps the session alive: the gateway pings and drops a
/// client that does not answer in time, and a command that only waited for stdout would not read its
/// socket. So the wait is the engine's (`GatewayPump.waitUntilWritable`): it reads what arrives (pongs
/// going out at once, messages kept for the command, up to `GatewaySession.readAheadLimit`; past it the
/// gateway's own slow-consumer rule applies, as to any client that stops reading). It also watches the
/// signal pipe, so that what a signal must do at once (`send`'s abort) does not wait for the reader.
final class KeepAliveWhileBlocked: OutputWaiter {
    /// Strong, not weak: a weak reference gives the session a side table, and every retain and release
    /// of it on the per-event path then takes the runtime's slow path (`make bench` measures it in
    /// `watch`). The session is closed, not freed, when it ends, and `isOpen` says so.
    private let pump: GatewayPump
    private let signals: SignalWatcher
    /// What a signal must do at once, even while stdout is stuck (send's abort): run once, then cleared.
    /// The command acts on the signal as usual once the output moves.
    var onInterrupt: (() -> Void)?

    init(session: GatewaySession, signals: SignalWatcher) {
        pump = GatewayPump(session: session)
        self.signals = signals
    }

    func waitUntilWritable(_ descriptor: Int32) {
        while true {
            if signals.received != 0, let act = onInterrupt {
                onInterrupt = nil
                act()
            }
            switch pump.waitUntilWritable(descriptor, alert: onInterrupt != nil ? signals.descriptor : -1) {
            case .writable: return
            case .alerted: _ = signals.drain()
            }
        }
    }
}
