@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawCrypto

/// The whole process, from the arguments to the exit. A plain function, not top-level code: Swift 6
/// makes top-level code main-actor isolated, and that one reference to `MainActor` links the
/// concurrency runtime and libdispatch into a program that uses neither (about 130 KB of tables
/// relocated at every start). packaging/package-test.sh holds the shipped binary to that.
enum ProcessMain {
    static func run() -> Never {
        OpenSSLRuntime.prepareForShortLivedProcess()
        // Swift decodes argv leniently (U+FFFD for bad bytes): find an argument that is not UTF-8 first,
        // so it is refused, as stdin and --file are, instead of sent changed.
        let notUTF8 = (1..<Int(CommandLine.argc)).first { index in
            CommandLine.unsafeArgv[index].map { String(validatingCString: $0) == nil } ?? false
        }
        let status = Dispatcher.run(Array(CommandLine.arguments.dropFirst()), invalidUTF8Argument: notUTF8)
        // Ended by SIGINT or SIGTERM (the run aborted, the output drained): die by that signal, as Unix
        // tools do, so that `$?` is still 130/143 and a shell loop running us stops instead of going on.
        if status == .interrupted || status == .terminated, SignalWatcher.firstReceived != 0 {
            ThisProcess.endBySignal(SignalWatcher.firstReceived)
        }
        ThisProcess.exit(status.rawValue)
    }
}
