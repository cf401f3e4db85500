import Glibc

/// The running process itself: its executable, its environment as children inherit it, handing it
/// over to another program, and its end.
@_spi(Engine) public enum ThisProcess {
    /// A path that `stat(2)` and `realpath(3)` resolve to this process's executable file (procfs's
    /// link on Linux), so a file found elsewhere can be compared with it.
    @_spi(Engine) public static let executablePath = "/proc/self/exe"

    /// Sets `name` in the process environment (what `replace(with:arguments:)` passes on).
    @_spi(Engine) public static func setEnvironmentVariable(_ name: String, to value: String) {
        _ = setenv(name, value, 1)
    }

    @_spi(Engine) public static func removeEnvironmentVariable(_ name: String) {
        _ = unsetenv(name)
    }

    /// `execv(2)`: runs `path` in place of this process, `arguments` as its whole argv (argv[0]
    /// included), with this process's environment, descriptors and signal dispositions. Returns only
    /// when it cannot, with why.
    @_spi(Engine) public static func replace(with path: String, arguments: [String]) -> SystemError {
        // Never freed: on success the process image is gone, on failure the caller is about to exit.
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        execv(path, argv)
        return .last
    }

    /// `exit(3)`: ends the process with `status` (the low 8 bits reach the parent).
    @_spi(Engine) public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// `_exit(2)`: ends the process at once, from a signal handler (async-signal-safe: no atexit
    /// handlers, no stdio flush).
    @_spi(Engine) public static func exitFromSignalHandler(_ status: Int32) -> Never {
        Glibc._exit(status)
    }

    /// Ends the process by `signalNumber` itself, its default action restored: what a Unix tool does
    /// after its clean-up, so that the parent sees a death by that signal (a shell running a loop
    /// stops), not an exit with 128+N. `_exit(128+N)` if the signal does not end it. Async-signal-safe.
    @_spi(Engine) public static func endBySignal(_ signalNumber: Int32) -> Never {
        _ = signal(signalNumber, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signalNumber)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        _ = kill(getpid(), signalNumber)
        Glibc._exit(128 + signalNumber)
    }
}
