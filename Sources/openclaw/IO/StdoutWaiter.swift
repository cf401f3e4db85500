@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// What a write that would block waits with (`OutputStream.whileBlocked`).
protocol OutputWaiter: AnyObject {
    /// Returns true once `descriptor` may take bytes (or has failed: the next write says how), false
    /// when the output is to be given up (a signal's grace for a slow reader is over).
    func waitUntilWritable(_ descriptor: Int32) -> Bool
}

/// How stdout waits for a slow reader, from the start of a command to its end, so that a signal ends
/// the command whatever the reader does: what the signal must do at once (`send`'s abort) runs at
/// once, the output then gets `SignalWatcher.drainSeconds` to leave, and past that it is given up.
///
/// While a session is open it also keeps the session alive (`pump`): the gateway pings and drops a
/// client that does not answer in time, and a command that only waited for stdout would not read its
/// socket. So the wait is the engine's (`ConnectionRunner.waitUntilWritable`): it reads what arrives (pongs
/// going out at once, messages kept for the command, up to `GatewaySession.readAheadLimit`; past it the
/// gateway's own slow-consumer rule applies, as to any client that stops reading).
final class StdoutWaiter: OutputWaiter {
    private let signals: SignalWatcher
    /// The engine's driver of the open connection (strong, not weak: a weak reference gives it a side
    /// table, and every retain and release of it on the per-event path then takes the runtime's slow
    /// path, which `make bench` measures in `watch`). A closed connection's socket is no longer watched.
    var runner: ConnectionRunner?
    /// What a signal must do at once, even while stdout is stuck (send's abort): run once, then cleared.
    /// The command acts on the signal as usual once the output moves or is given up.
    var onInterrupt: (() -> Void)?

    init(signals: SignalWatcher) {
        self.signals = signals
    }

    func waitUntilWritable(_ descriptor: Int32) -> Bool {
        while true {
            if signals.received != 0 {
                if let act = onInterrupt {
                    onInterrupt = nil
                    act()
                }
                let drain = signals.drainDeadline
                return !drain.hasPassed && wait(descriptor, alert: -1, until: drain) == .writable
            }
            // The signal pipe is left full: the command's own wait sees it too.
            if wait(descriptor, alert: signals.descriptor, until: .never) == .writable { return true }
        }
    }

    private func wait(_ descriptor: Int32, alert: Int32, until deadline: Deadline) -> ConnectionRunner.OutputWait {
        if let runner { return runner.waitUntilWritable(descriptor, alert: alert, until: deadline) }
        return ConnectionRunner.waitUntilWritable(descriptor, alert: alert, until: deadline)
    }
}
