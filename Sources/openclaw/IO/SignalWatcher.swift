@_spi(Engine) import ClawSystem
import Synchronization

// The C signal handler can reach only globals: these are set once (the pipe) or atomically.
private let signalPipeWriteEnd = Atomic<Int32>(-1)
private let firstSignal = Atomic<Int32>(0)
/// When the first signal arrived, on the monotonic clock (0: none yet).
private let firstSignalAt = Atomic<UInt64>(0)
private let signalCount = Atomic<Int32>(0)

/// Turns SIGINT and SIGTERM into readable bytes on a pipe, so the poll loop can react to
/// them between frames (finish the line being written, abort the run, then exit).
/// One per process, created by the dispatcher and carried in the command context.
///
/// The first signal starts a grace period: what it must do at once (`send`'s abort) happens at once,
/// output then gets `drainSeconds` to reach a slow reader, and every wait ends by `exitSeconds` after
/// the signal, whatever the reader of stdout does. A second signal exits at once (130/143); an SSH
/// tunnel's ssh ends with us (its parent-death signal).
struct SignalWatcher: Sendable {
    /// The pipe's read end: readable once a signal arrived.
    let descriptor: Int32

    /// How long output may still take to leave after a signal before it is given up.
    static let drainSeconds = 1.0
    /// How long after a signal every wait may last: the abort's answer, the last flush.
    static let exitSeconds = 1.5

    static func install() -> SignalWatcher {
        Signals.ignoreBrokenPipe()
        let pipe = Pipes.makeNonBlocking()
        if let pipe { signalPipeWriteEnd.store(pipe.write, ordering: .sequentiallyConsistent) }
        let handler: Signals.Handler = { signalNumber in
            // Only async-signal-safe calls: atomics, clock_gettime, write, _exit.
            if signalCount.add(1, ordering: .sequentiallyConsistent).newValue > 1 {
                ThisProcess.endBySignal(signalNumber)
            }
            // Seen at once by loops that are busy with frames and not polling.
            firstSignalAt.store(MonotonicClock.nanoseconds(), ordering: .sequentiallyConsistent)
            _ = firstSignal.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
            FileDescriptor.writeFromSignalHandler(UInt8(truncatingIfNeeded: signalNumber),
                                                  to: signalPipeWriteEnd.load(ordering: .sequentiallyConsistent))
        }
        Signals.handle(Signals.interrupt, with: handler)
        Signals.handle(Signals.terminate, with: handler)
        // A parent may hand down a mask that blocks them.
        Signals.unblock(Signals.interrupt, Signals.terminate)
        return SignalWatcher(descriptor: pipe?.read ?? -1)
    }

    /// The first signal received, or 0.
    var received: Int32 { firstSignal.load(ordering: .relaxed) }

    /// The first signal this process received (0: none), for its end: `main` dies by it after the
    /// clean-up, so the calling script stops too.
    static var firstReceived: Int32 { firstSignal.load(ordering: .sequentiallyConsistent) }

    /// `seconds` after the first signal; `never` before one.
    func deadline(afterSignal seconds: Double) -> Deadline {
        let at = firstSignalAt.load(ordering: .sequentiallyConsistent)
        guard received != 0, at != 0 else { return .never }
        return Deadline(nanoseconds: at + UInt64(seconds * 1e9))
    }

    /// Until when output may still wait for its reader: `drainSeconds` after the signal.
    var drainDeadline: Deadline { deadline(afterSignal: Self.drainSeconds) }

    /// Until when any wait may last: `exitSeconds` after the signal.
    var exitDeadline: Deadline { deadline(afterSignal: Self.exitSeconds) }

    /// Empties the pipe after poll(2) said it is readable; returns the first signal seen.
    func drain() -> Int32 {
        Pipes.drain(descriptor)
        return received
    }
}
