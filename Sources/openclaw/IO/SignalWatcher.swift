@_spi(Engine) import ClawSystem
import Synchronization

// The C signal handler can reach only globals: these two are set once (the pipe) or atomically.
private let signalPipeWriteEnd = Atomic<Int32>(-1)
private let firstSignal = Atomic<Int32>(0)

/// Turns SIGINT and SIGTERM into readable bytes on a pipe, so the poll loop can react to
/// them between frames (finish the line being written, abort the run, then exit).
/// One per process, created by the dispatcher and carried in the command context.
struct SignalWatcher: Sendable {
    /// The pipe's read end: readable once a signal arrived.
    let descriptor: Int32

    static func install() -> SignalWatcher {
        Signals.ignoreBrokenPipe()
        let pipe = Pipes.makeNonBlocking()
        if let pipe { signalPipeWriteEnd.store(pipe.write, ordering: .sequentiallyConsistent) }
        let handler: Signals.Handler = { signalNumber in
            // Seen at once by loops that are busy with frames and not polling.
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

    /// Empties the pipe after poll(2) said it is readable; returns the first signal seen.
    func drain() -> Int32 {
        Pipes.drain(descriptor)
        return received
    }
}
