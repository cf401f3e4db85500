import Glibc

/// A child process started with `posix_spawn(3)`: an executable path and argv, never a shell, with
/// exactly the environment and working directory given, and each standard stream a pipe or
/// `/dev/null`. The child starts with default signal dispositions and an empty signal mask, in its
/// own process group by default, so `signal` and `terminate` reach whatever it started too.
///
/// The owner must end it: `terminate()` (SIGTERM, then SIGKILL after a grace period) or a wait that
/// saw it exit. `deinit` kills and reaps a child still running, so none outlives its owner's scope.
/// One thread uses an instance at a time.
@_spi(Engine) public final class Subprocess: @unchecked Sendable {
    /// What a standard stream of the child is connected to.
    @_spi(Engine) public enum Stream: Sendable, Equatable {
        /// `/dev/null`.
        case null
        /// A pipe whose other end the parent holds (`standardInput`, `standardOutput`, `standardError`).
        case pipe
    }

    @_spi(Engine) public struct Configuration: Sendable {
        /// Absolute path of the program (no PATH search).
        @_spi(Engine) public var executable: String
        /// argv[1...]; argv[0] is `executable`.
        @_spi(Engine) public var arguments: [String]
        /// The child's whole environment.
        @_spi(Engine) public var environment: [String: String]
        /// The child's working directory; nil keeps the parent's.
        @_spi(Engine) public var workingDirectory: String?
        @_spi(Engine) public var standardInput: Stream = .null
        @_spi(Engine) public var standardOutput: Stream = .null
        @_spi(Engine) public var standardError: Stream = .null
        /// Start the child as the leader of a new process group, so signals reach its own children too.
        @_spi(Engine) public var newProcessGroup = true
        /// The child gets SIGTERM when the calling thread ends, however this process ends (SIGKILL
        /// included): see `ParentDeathSignal`. Where the system cannot arrange that, it starts without.
        @_spi(Engine) public var endsWithParent = false

        @_spi(Engine) public init(executable: String, arguments: [String] = [], environment: [String: String] = [:],
                    workingDirectory: String? = nil) {
            self.executable = executable
            self.arguments = arguments
            self.environment = environment
            self.workingDirectory = workingDirectory
        }
    }

    /// How the child ended.
    @_spi(Engine) public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        @_spi(Engine) public var description: String {
            switch self {
            case .exited(let code): return "exited with code \(code)"
            case .signalled(let signal): return "killed by signal \(signal)"
            }
        }
    }

    @_spi(Engine) public enum Failure: Error, Sendable, Equatable {
        /// posix_spawn failed (the program is missing, not executable, …).
        case spawnFailed(SystemError)
        /// A pipe or poll call failed.
        case io(SystemError)
    }

    @_spi(Engine) public let pid: Int32
    /// The write end of the child's stdin, or -1.
    @_spi(Engine) public private(set) var standardInput: Int32
    /// The read end of the child's stdout, or -1.
    @_spi(Engine) public private(set) var standardOutput: Int32
    /// The read end of the child's stderr, or -1.
    @_spi(Engine) public private(set) var standardError: Int32
    /// Set once the child has been reaped.
    @_spi(Engine) public private(set) var termination: Termination?
    private let isGroupLeader: Bool

    private init(pid: Int32, stdin: Int32, stdout: Int32, stderr: Int32, isGroupLeader: Bool) {
        self.pid = pid
        standardInput = stdin
        standardOutput = stdout
        standardError = stderr
        self.isGroupLeader = isGroupLeader
    }

    deinit {
        if termination == nil { terminate(grace: 0) }
        closeStandardInput()
        closeStandardOutput()
        closeStandardError()
    }

    /// Starts the child. The parent's ends of the pipes are non-blocking and close-on-exec.
    @_spi(Engine) public static func spawn(_ configuration: Configuration) throws(Failure) -> Subprocess {
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        func closeAll() {
            for fd in parentEnds + childEnds where fd >= 0 { _ = close(fd) }
        }
        /// (parent end, child end); the parent writes stdin and reads the others.
        func makePipe(parentWrites: Bool) throws(Failure) -> (Int32, Int32) {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else {
                let error = SystemError.last
                closeAll()
                throw .io(error)
            }
            // pipe2(2) is not visible to Swift; this process spawns from one thread at a time.
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            let (parent, child) = parentWrites ? (fds[1], fds[0]) : (fds[0], fds[1])
            _ = fcntl(parent, F_SETFL, fcntl(parent, F_GETFL) | O_NONBLOCK)
            parentEnds.append(parent)
            childEnds.append(child)
            return (parent, child)
        }
        let stdinPipe = configuration.standardInput == .pipe ? try makePipe(parentWrites: true) : nil
        let stdoutPipe = configuration.standardOutput == .pipe ? try makePipe(parentWrites: false) : nil
        let stderrPipe = configuration.standardError == .pipe ? try makePipe(parentWrites: false) : nil

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, pipe) in [(Int32(0), stdinPipe), (1, stdoutPipe), (2, stderrPipe)] {
            if let (_, child) = pipe {
                // dup2 clears close-on-exec on the target, which is what the child needs.
                posix_spawn_file_actions_adddup2(&actions, child, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        if let directory = configuration.workingDirectory {
            guard let addChangeDirectory = Self.addChangeDirectory else {
                closeAll()
                throw .spawnFailed(SystemError(code: ENOSYS))
            }
            _ = addChangeDirectory(&actions, directory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        if configuration.newProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var emptySet = sigset_t()
        sigemptyset(&emptySet)
        posix_spawnattr_setsigmask(&attributes, &emptySet)
        // Signals the parent ignores (SIGPIPE, …) would stay ignored across exec: reset them all.
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)

        var (executable, arguments) = (configuration.executable, configuration.arguments)
        if configuration.endsWithParent, let wrapped = ParentDeathSignal.wrap(executable: executable, arguments: arguments) {
            (executable, arguments) = wrapped
        }
        let argv = CStringArray([executable] + arguments)
        let envp = CStringArray(configuration.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        var pid: pid_t = 0
        var result = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        // ETXTBSY is transient: a program just written is still open for writing in a child another
        // thread is starting (until that child's exec closes it, which on a loaded machine can take a
        // while). Try again for up to 2 s.
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        let giveUp = Deadline.after(seconds: 2)
        while result == ETXTBSY && !giveUp.hasPassed {
            _ = nanosleep(&pause, nil)
            pause.tv_nsec = min(pause.tv_nsec * 2, 50_000_000)
            result = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
        }
        for fd in childEnds { _ = close(fd) }
        childEnds = []
        guard result == 0 else {
            closeAll()
            throw .spawnFailed(SystemError(code: result))
        }
        return Subprocess(pid: pid, stdin: stdinPipe?.0 ?? -1, stdout: stdoutPipe?.0 ?? -1,
                          stderr: stderrPipe?.0 ?? -1, isGroupLeader: configuration.newProcessGroup)
    }

    /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29+), looked up at run time because the C
    /// library's module does not show its GNU extensions to Swift.
    private typealias AddChangeDirectory = @convention(c) (
        UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?
    ) -> Int32
    private static let addChangeDirectory: AddChangeDirectory? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: AddChangeDirectory.self)
    }()

    @_spi(Engine) public func closeStandardInput() {
        if standardInput >= 0 { _ = close(standardInput); standardInput = -1 }
    }

    @_spi(Engine) public func closeStandardOutput() {
        if standardOutput >= 0 { _ = close(standardOutput); standardOutput = -1 }
    }

    @_spi(Engine) public func closeStandardError() {
        if standardError >= 0 { _ = close(standardError); standardError = -1 }
    }

    /// Hands the read end of the child's stderr to the caller (who closes it); -1 if there is none.
    @_spi(Engine) public func takeStandardError() -> Int32 {
        defer { standardError = -1 }
        return standardError
    }

    /// Sends `signal` to the child, or to its whole process group when it leads one.
    /// After the child was reaped, only the group (what the child left running) can still be signalled.
    @_spi(Engine) public func send(signal: Int32) {
        if isGroupLeader {
            _ = kill(-pid, signal)
        } else if termination == nil {
            _ = kill(pid, signal)
        }
    }

    /// The child's termination if it has ended (reaping it), without waiting.
    @discardableResult
    @_spi(Engine) public func checkTermination() -> Termination? {
        if let termination { return termination }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                termination = Self.decode(status)
                return termination
            }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            // ECHILD: someone else reaped it; report it as gone.
            termination = .signalled(SIGKILL)
            return termination
        }
    }

    /// Waits until the child ends or `deadline` passes; nil when it is still running.
    /// (There is no descriptor for a child's exit that works on every kernel this runs on, so this
    /// checks with `waitpid(WNOHANG)` at short, growing intervals of at most 20 ms.)
    @_spi(Engine) public func wait(until deadline: Deadline) -> Termination? {
        var interval: UInt64 = 500_000
        while true {
            if let termination = checkTermination() { return termination }
            if deadline.hasPassed { return nil }
            var pause = timespec(tv_sec: 0, tv_nsec: Int(interval))
            if !deadline.isNever {
                let left = deadline.nanoseconds &- MonotonicClock.nanoseconds()
                if left < interval { pause.tv_nsec = Int(max(left, 1)) }
            }
            _ = nanosleep(&pause, nil)
            interval = min(interval * 2, 20_000_000)
        }
    }

    /// Ends the child: SIGTERM, then SIGKILL if it is still running after `grace` seconds, and reaps
    /// it. What it started in its process group gets the same signals; SIGKILL goes to the group in
    /// any case, so nothing it left behind keeps running.
    @discardableResult
    @_spi(Engine) public func terminate(grace: Double = 1.5) -> Termination {
        if termination == nil {
            send(signal: SIGTERM)
            _ = wait(until: .after(seconds: grace))
        }
        send(signal: SIGKILL)
        while termination == nil {
            var status: Int32 = 0
            let result = waitpid(pid, &status, 0)
            if result == pid { termination = Self.decode(status) } else if errno != EINTR { termination = .signalled(SIGKILL) }
        }
        return termination!
    }

    private static func decode(_ status: Int32) -> Termination {
        let low = status & 0x7f
        if low == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(low)
    }
}

/// NUL-terminated copies of strings plus the NULL-terminated pointer array `exec` wants; freed on deinit.
private final class CStringArray {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointers = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() { pointers[index] = strdup(string) }
        pointers[strings.count] = nil
    }

    deinit {
        for index in 0..<count { free(pointers[index]) }
        pointers.deallocate()
    }
}
