import Glibc
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
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            signalPipeWriteEnd.store(fds[1], ordering: .sequentiallyConsistent)
        }
        let handler: @convention(c) (Int32) -> Void = { signalNumber in
            // Seen at once by loops that are busy with frames and not polling.
            _ = firstSignal.compareExchange(expected: 0, desired: signalNumber, ordering: .sequentiallyConsistent)
            var byte = UInt8(truncatingIfNeeded: signalNumber)
            _ = Glibc.write(signalPipeWriteEnd.load(ordering: .sequentiallyConsistent), &byte, 1)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
        // A parent may hand down a mask that blocks them (signal masks survive exec).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        return SignalWatcher(descriptor: fds[0])
    }

    /// The first signal received, or 0.
    var received: Int32 { firstSignal.load(ordering: .relaxed) }

    /// Empties the pipe after poll(2) said it is readable; returns the first signal seen.
    func drain() -> Int32 {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) == 1 {}
        return received
    }
}
