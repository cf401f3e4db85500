import Foundation
import Testing
@_spi(Engine) @testable import ClawSystem

/// `Subprocess`: real children started with posix_spawn, their pipes, limits and ends. No test
/// asserts a duration; each waits for what it expects (an exit, a pid file, a process gone).
@Suite struct SubprocessTests {
    private func exchange(_ path: String, arguments: [String] = [], environment: [String: String] = [:],
                          directory: String? = nil, input: String = "", limits: Subprocess.ExchangeLimits)
        throws -> Subprocess.Exchanged {
        var configuration = Subprocess.Configuration(executable: path, arguments: arguments, environment: environment,
                                                     workingDirectory: directory)
        configuration.standardInput = .pipe
        configuration.standardOutput = .pipe
        configuration.standardError = .pipe
        let child = try Subprocess.spawn(configuration)
        return try child.exchange(input: Array(input.utf8), limits: limits)
    }

    private static let generous = Subprocess.ExchangeLimits(deadline: .after(seconds: 30))

    @Test func argvEnvironmentDirectoryAndStdinReachTheChildExactly() throws {
        let dir = ConfigTestDirectory()
        let path = ProcessTestSupport.script(dir, "echo.sh", """
            read line
            printf 'in=%s\\n' "$line"
            printf 'args=%s|%s\\n' "$1" "$2"
            printf 'only=%s\\n' "$ONLY"
            printf 'cwd=%s\\n' "$(pwd)"
            printf 'to stderr' >&2
            exit 7
            """)
        dir.mkdir("work")
        let result = try exchange(path, arguments: ["a b", "$HOME;c"], environment: ["ONLY": "x y"],
                                  directory: dir.sub("work"), input: "hello there\n", limits: Self.generous)
        let lines = String(decoding: result.standardOutput, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == ["in=hello there", "args=a b|$HOME;c", "only=x y", "cwd=\(dir.sub("work"))"])
        #expect(String(decoding: result.standardError, as: UTF8.self) == "to stderr")
        #expect(result.termination == .exited(7))
        // The environment is exactly the one given: nothing of ours (PATH, HOME, …) leaks in.
        let env = try exchange("/usr/bin/env", environment: ["ONLY": "x y", "B": "2"], limits: Self.generous)
        #expect(String(decoding: env.standardOutput, as: UTF8.self) == "B=2\nONLY=x y\n")
    }

    @Test func signalsTheParentIgnoresAreDefaultInTheChild() throws {
        let dir = ConfigTestDirectory()
        // A child that inherited SIG_IGN for SIGPIPE would not die on it; with the default it does.
        let path = ProcessTestSupport.script(dir, "pipe.sh", "kill -PIPE $$\nsleep 5")
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let result = try exchange(path, limits: Self.generous)
        #expect(result.termination == .signalled(SIGPIPE))
    }

    @Test(.notUnderQEMU("qemu-user's posix_spawn reports success for a missing or non-executable program; the child exits 127"))
    func aMissingOrNonExecutableProgramFailsToSpawn() throws {
        let dir = ConfigTestDirectory()
        #expect(throws: Subprocess.Failure.spawnFailed(SystemError(code: ENOENT))) {
            try Subprocess.spawn(.init(executable: dir.sub("missing")))
        }
        let plain = ProcessTestSupport.script(dir, "plain.sh", "exit 0", mode: 0o600)
        #expect(throws: Subprocess.Failure.spawnFailed(SystemError(code: EACCES))) {
            try Subprocess.spawn(.init(executable: plain))
        }
    }

    @Test func theDeadlineStopsTheChildAndEverythingItStarted() throws {
        let dir = ConfigTestDirectory()
        let pids = dir.sub("pids")
        let path = ProcessTestSupport.script(dir, "slow.sh", """
            sleep 60 &
            echo $! >> "\(pids)"
            echo $$ >> "\(pids)"
            wait
            """)
        var limits = Subprocess.ExchangeLimits(deadline: .after(seconds: 60))
        // Give it until both pids are written, then let the deadline pass at once.
        var configuration = Subprocess.Configuration(executable: path)
        configuration.standardOutput = .pipe
        let child = try Subprocess.spawn(configuration)
        let started = ProcessTestSupport.waitForPIDs(in: pids, count: 2)
        #expect(started.count == 2)
        limits.deadline = .now
        #expect(throws: Subprocess.ExchangeFailure.timedOut) { try child.exchange(input: [], limits: limits) }
        #expect(child.termination != nil)
        #expect(ProcessTestSupport.waitUntilGone(started), "still running: \(started)")
    }

    @Test func silenceBeyondTheIdleLimitFails() throws {
        let dir = ConfigTestDirectory()
        let path = ProcessTestSupport.script(dir, "quiet.sh", "echo first\nexec sleep 60")
        let limits = Subprocess.ExchangeLimits(deadline: .after(seconds: 60), idleTimeout: 0.2)
        #expect(throws: Subprocess.ExchangeFailure.idleTimedOut) { try exchange(path, limits: limits) }
    }

    @Test func outputBeyondTheLimitFailsCountingBothStreams() throws {
        let dir = ConfigTestDirectory()
        let path = ProcessTestSupport.script(dir, "loud.sh", """
            printf '%0600d' 0
            printf '%0600d' 0 >&2
            exec sleep 60
            """)
        let limits = Subprocess.ExchangeLimits(deadline: .after(seconds: 60), maxOutputBytes: 1000)
        #expect(throws: Subprocess.ExchangeFailure.outputLimitExceeded) { try exchange(path, limits: limits) }
        let within = Subprocess.ExchangeLimits(deadline: .after(seconds: 60), maxOutputBytes: 1200)
        let quick = ProcessTestSupport.script(dir, "loud2.sh", "printf '%0600d' 0\nprintf '%0600d' 0 >&2")
        let result = try exchange(quick, limits: within)
        #expect(result.standardOutput.count == 600 && result.standardError.count == 600)
    }

    @Test func anInterruptDescriptorStopsTheExchange() throws {
        let dir = ConfigTestDirectory()
        let path = ProcessTestSupport.script(dir, "wait.sh", "exec sleep 60")
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var byte: UInt8 = 2
        #expect(write(fds[1], &byte, 1) == 1)
        let limits = Subprocess.ExchangeLimits(deadline: .after(seconds: 60), interruptDescriptor: fds[0])
        #expect(throws: Subprocess.ExchangeFailure.interrupted) { try exchange(path, limits: limits) }
    }

    @Test func aChildThatIgnoresSIGTERMIsKilled() throws {
        let dir = ConfigTestDirectory()
        let ready = dir.sub("ready")
        let path = ProcessTestSupport.script(dir, "stubborn.sh", """
            trap '' TERM
            echo $$ > "\(ready)"
            while :; do sleep 1; done
            """)
        let child = try Subprocess.spawn(.init(executable: path))
        let pids = ProcessTestSupport.waitForPIDs(in: ready, count: 1)
        #expect(pids == [child.pid])
        #expect(child.terminate(grace: 0.1) == .signalled(SIGKILL))
        #expect(ProcessTestSupport.waitUntilGone([child.pid]))
    }

    @Test func aChildNobodyEndedIsKilledWhenItsOwnerGoesAway() throws {
        let dir = ConfigTestDirectory()
        let ready = dir.sub("ready")
        let path = ProcessTestSupport.script(dir, "forgotten.sh", "echo $$ > \"\(ready)\"\nexec sleep 60")
        var pid: Int32 = 0
        do {
            let child = try Subprocess.spawn(.init(executable: path))
            pid = child.pid
            #expect(ProcessTestSupport.waitForPIDs(in: ready, count: 1) == [pid])
        }
        #expect(ProcessTestSupport.waitUntilGone([pid]))
    }

    @Test func aChildThatStopsReadingStdinDoesNotHurtTheParent() throws {
        let dir = ConfigTestDirectory()
        let path = ProcessTestSupport.script(dir, "deaf.sh", "exec 0<&-\necho done")
        // More than a pipe holds, to a child that closed its stdin: EPIPE, no SIGPIPE for us.
        let input = String(repeating: "x", count: 1 << 20)
        let result = try exchange(path, input: input, limits: Self.generous)
        #expect(String(decoding: result.standardOutput, as: UTF8.self) == "done\n")
        #expect(result.termination == .exited(0))
    }

    @Test func aChildThatExitsWhileAHelperHoldsItsOutputIsJudgedByItsExit() throws {
        // The helper keeps stdout and stderr open far past the deadline: only the child's exit can end the
        // exchange in time, with what the child wrote and its own status.
        let dir = ConfigTestDirectory()
        let helper = dir.sub("helper")
        let path = ProcessTestSupport.script(dir, "leaves-a-helper.sh", """
            sleep 300 &
            echo $! > "\(helper)"
            echo out
            echo err >&2
            exit 3
            """)
        let result = try exchange(path, limits: Subprocess.ExchangeLimits(deadline: .after(seconds: 120), idleTimeout: 120))
        defer { for pid in ProcessTestSupport.waitForPIDs(in: helper, count: 1) { kill(pid, SIGKILL) } }
        #expect(result.termination == .exited(3))
        #expect(String(decoding: result.standardOutput, as: UTF8.self) == "out\n")
        #expect(String(decoding: result.standardError, as: UTF8.self) == "err\n")
        // The helper was not the child: it is left alone, still running.
        let pids = ProcessTestSupport.waitForPIDs(in: helper, count: 1)
        #expect(pids.count == 1 && ProcessTestSupport.isRunning(pids[0]))
    }

    @Test func aPipeDrainKeepsReadingSoTheWriterNeverBlocks() throws {
        // 1 MiB on stderr is sixteen pipes full: the child can only finish if the drain keeps reading.
        var configuration = Subprocess.Configuration(executable: "/bin/sh", arguments: ["-c", "head -c 1048576 /dev/zero | tr '\\0' x >&2; printf 'the end' >&2"])
        configuration.standardError = .pipe
        let child = try Subprocess.spawn(configuration)
        let drain = try PipeDrain(descriptor: child.takeStandardError(), limit: 1000)
        #expect(child.wait(until: .after(seconds: 120)) == .exited(0))
        #expect(ProcessTestSupport.wait(timeout: 30) { drain.hasEnded })
        let (kept, total) = drain.read()
        #expect(total == 1_048_576 + 7)
        #expect(kept.count == 1000)
        #expect(String(decoding: kept.suffix(8), as: UTF8.self) == "xthe end")
        drain.stop()
        drain.stop()
        #expect(drain.read().total == total)
    }

    @Test func aPipeDrainReadTakesWhatIsWaitingNow() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let drain = try PipeDrain(descriptor: fds[0], limit: 64)
        defer { drain.stop() }
        for line in ["one\n", "two\n"] {
            #expect(write(fds[1], line, line.utf8.count) == line.utf8.count)
            // Whether or not its thread got there first, what was written is there.
            #expect(String(decoding: drain.read().kept, as: UTF8.self).hasSuffix(line))
        }
        close(fds[1])
        #expect(ProcessTestSupport.wait(timeout: 30) { drain.hasEnded })
        let (kept, total) = drain.read()
        #expect(String(decoding: kept, as: UTF8.self) == "one\ntwo\n" && total == 8)
    }
}
