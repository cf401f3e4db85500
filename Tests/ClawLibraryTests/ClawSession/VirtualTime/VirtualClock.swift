import Glibc
import Testing
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawSession

/// The engine's clock in virtual time, as swift-nio's `EmbeddedEventLoop` runs a loop: a wait looks at
/// its descriptors without blocking; when nothing is ready, time jumps to the wait's deadline, or to
/// the first scheduled gateway action before it, which then runs (and its bytes are waited for). A
/// life of minutes of pings, silences and backoffs takes milliseconds.
final class VirtualClock: EngineClock {
    /// Starts at the real monotonic time, so that a deadline it gives the real I/O underneath (a
    /// connect's, a write's) is never in the past.
    let start = MonotonicClock.nanoseconds()
    private(set) var now: UInt64
    private var scheduled: [(at: UInt64, action: () -> Void)] = []

    init() { now = start }

    /// Seconds of virtual time since the start.
    var elapsed: Double { Double(now - start) / 1e9 }

    /// Runs `action` (the gateway's, or the user's) at `seconds` of virtual time; a wait that would pass
    /// that moment stops there, runs it, and waits for what it made readable (up to 5 s of real time).
    func at(_ seconds: Double, _ action: @escaping () -> Void) {
        scheduled.append((start + UInt64(seconds * 1e9), action))
        scheduled.sort { $0.at < $1.at }
    }

    func readable(_ first: Int32, _ second: Int32, _ third: Int32, until deadline: Deadline)
        throws(SystemError) -> (first: Bool, second: Bool, third: Bool) {
        var patience = Deadline(nanoseconds: 0)
        while true {
            let ready = try Poll.readable(first, second, third, until: patience)
            if ready.first || ready.second || ready.third { return (ready.first, ready.second, ready.third) }
            guard runScheduled(before: deadline) else {
                return (false, false, false)
            }
            patience = .after(seconds: 5)  // the action's bytes are on their way
        }
    }

    func writableOrReadable(output: Int32, input: Int32, alert: Int32, until deadline: Deadline)
        -> (writable: Bool, readable: Bool, alerted: Bool)? {
        while true {
            guard let ready = Poll.writableOrReadable(output: output, input: input, alert: alert, until: Deadline(nanoseconds: 0)) else { return nil }
            if ready.writable || ready.readable || ready.alerted { return ready }
            guard runScheduled(before: deadline) else { return (false, false, false) }
        }
    }

    /// Nothing is ready: runs the first action due by `deadline` (true), or moves to `deadline`.
    private func runScheduled(before deadline: Deadline) -> Bool {
        if let next = scheduled.first, next.at <= deadline.nanoseconds {
            scheduled.removeFirst()
            now = max(now, next.at)
            next.action()
            return true
        }
        if deadline.isNever {
            Issue.record("a wait without a deadline, and nothing scheduled: the life would hang here")
            return false
        }
        now = max(now, deadline.nanoseconds)
        return false
    }
}
