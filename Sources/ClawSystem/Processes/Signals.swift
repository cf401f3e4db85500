import Glibc

/// Signal dispositions for a command-line program: which signals it handles, and with what.
package enum Signals {
    /// SIGINT (Ctrl-C).
    package static let interrupt = SIGINT
    /// SIGTERM (`kill`, `systemctl stop`).
    package static let terminate = SIGTERM

    /// A handler may only do async-signal-safe things: atomics, `FileDescriptor.writeFromSignalHandler`.
    package typealias Handler = @convention(c) (Int32) -> Void

    /// SIGPIPE ignored: a write to a closed pipe or socket fails with EPIPE instead of killing the process.
    package static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// `signal(2)`: `handler` runs when `signalNumber` arrives.
    package static func handle(_ signalNumber: Int32, with handler: Handler) {
        _ = signal(signalNumber, handler)
    }

    /// Removes the signals from the blocked mask, which a parent may have handed down (signal masks
    /// survive exec).
    package static func unblock(_ signalNumbers: Int32...) {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in signalNumbers { sigaddset(&set, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}
