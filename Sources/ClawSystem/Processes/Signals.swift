import Glibc

/// Signal dispositions for a command-line program: which signals it handles, and with what.
@_spi(Engine) public enum Signals {
    /// SIGINT (Ctrl-C).
    @_spi(Engine) public static let interrupt = SIGINT
    /// SIGTERM (`kill`, `systemctl stop`).
    @_spi(Engine) public static let terminate = SIGTERM

    /// A handler may only do async-signal-safe things: atomics, `FileDescriptor.writeFromSignalHandler`.
    @_spi(Engine) public typealias Handler = @convention(c) (Int32) -> Void

    /// SIGPIPE ignored: a write to a closed pipe or socket fails with EPIPE instead of killing the process.
    @_spi(Engine) public static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// `signal(2)`: `handler` runs when `signalNumber` arrives.
    @_spi(Engine) public static func handle(_ signalNumber: Int32, with handler: Handler) {
        _ = signal(signalNumber, handler)
    }

    /// Removes the signals from the blocked mask, which a parent may have handed down (signal masks
    /// survive exec).
    @_spi(Engine) public static func unblock(_ signalNumbers: Int32...) {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in signalNumbers { sigaddset(&set, signalNumber) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}
