import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// openclaw answers the gateway's keepalive pings while idle, while stdout is blocked, and while `send` reads stdin.
@Suite struct CLIKeepaliveTests {
    @Test func anIdleWatchAnswersTheGatewaysPings() throws {
        let gateway = try GatewayFixture(["--ping-ms", "100", "--pong-timeout-ms", "1000"])
        let watch = try gateway.cli.start(["watch"])
        #expect(eventually { pongs(gateway.simulator) >= 5 })
        #expect(dropped(gateway.simulator).isEmpty)
        #expect(watch.process.isRunning)
        watch.send(signal: SIGTERM)
        #expect(watch.finish().status == 143)
    }

    @Test func aStdoutBlockedByASlowReaderDoesNotStopThePongs() throws {
        // Events of about 300 bytes: half a MiB more than the pipe holds (1 MiB once openclaw has enlarged
        // it, 64 KiB where the system refuses), which is less than what openclaw reads ahead (1 MiB).
        let events = (Self.largestPipe() + 512 * 1024) / 300
        let gateway = try GatewayFixture(["--ping-ms", "100", "--pong-timeout-ms", "1000", "--blast", String(events), "--blast-bytes", "300"])
        let watch = try CLIProcess(["watch", "--count", String(events)], environment: gateway.cli.variables, stdoutIsUnreadPipe: true)
        // The pipe is full: every write of openclaw's now waits for the reader.
        #expect(eventually { watch.unreadPipeBytes >= watch.unreadPipeCapacity - 4096 }, "\(watch.unreadPipeBytes)")
        let before = pongs(gateway.simulator)
        #expect(eventually { pongs(gateway.simulator) >= before + 5 }, "pongs while stdout is blocked")
        #expect(watch.unreadPipeBytes >= watch.unreadPipeCapacity - 4096, "nothing read the pipe meanwhile")
        #expect(dropped(gateway.simulator).isEmpty)
        // Then every event arrives, in order.
        let output = watch.readUnreadPipe()
        let result = watch.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let seqs = output.split(separator: "\n").map { (try? JSONValue.parse(Array($0.utf8)))?["seq"]?.intValue ?? -1 }
        #expect(seqs.count == events)
        #expect(seqs == Array(seqs.sorted()) && Set(seqs).count == events && !seqs.contains(-1))
    }

    /// How large openclaw can make a pipe here: 1 MiB, or the default where the user's pipe quota says no.
    static func largestPipe() -> Int {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return 64 * 1024 }
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        return Int(fcntl(fds[1], 1032 /* F_GETPIPE_SZ */))
    }

    @Test(.notUnderQEMU("its pong deadline is sized for native speed; emulated, the handshake alone outlasts it"))
    func sendReadsAStdinThatTakesLongerThanAPongDeadlineBeforeItConnects() throws {
        let gateway = try GatewayFixture(["--ping-ms", "100", "--pong-timeout-ms", "1000"])
        let send = try CLIProcess(["send", "-o", "text"], environment: gateway.cli.variables, stdinIsPipe: true)
        let head = String(repeating: "x", count: 300_000)
        send.write(stdin: head)
        // A client that never answers pings: its drop shows that a pong deadline has passed.
        let silent = try TestGatewayClient(gateway.simulator)
        try silent.handshake(try .device(token: GatewayFixture.token))
        #expect(eventually { dropped(gateway.simulator).count == 1 })
        send.write(stdin: " end")
        send.closeStdin()
        let result = send.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == head + " end\n")
        #expect(dropped(gateway.simulator).count == 1, "only the silent client was dropped")
    }
}

/// An interrupt is acted on at once, whatever stdout is doing.
@Suite struct CLIInterruptWhileBlockedTests {
    @Test func anInterruptAbortsTheRunWhileStdoutIsStuck() throws {
        // Each delta line carries the whole text so far: the pipe fills within a few hundred deltas (the
        // last few KiB of it stay free when the next write is larger than what is left).
        let gateway = try GatewayFixture(["--reply", "lorem:20000", "--delta-ms", "1"])
        let send = try CLIProcess(["send", "tell me everything"], environment: gateway.cli.variables, stdoutIsUnreadPipe: true)
        try #require(eventually { send.unreadPipeBytes > 0 && send.unreadPipeBytes >= send.unreadPipeCapacity - 16 * 1024 },
                     "\(send.unreadPipeBytes) of \(send.unreadPipeCapacity)")
        // Hundreds of kilobytes more sent than the pipe has room for: openclaw is now waiting on stdout.
        let sentWhenFull = sentFrames(gateway.simulator)
        try #require(eventually { sentFrames(gateway.simulator) >= sentWhenFull + 300 })
        send.send(signal: SIGINT)
        // The abort reaches the gateway while nothing has read the pipe.
        #expect(eventually { gateway.receivedMethods().contains("chat.abort") }, "\(gateway.receivedMethods())")
        _ = send.readUnreadPipe()
        let result = send.finish()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("interrupted: sent chat.abort for run"), "\(result.stderr)")
        #expect(gateway.receivedMethods().filter { $0 == "chat.abort" }.count == 1, "one abort, not a second after the output moved")
    }

    /// `openclaw send … | sleep 40` and Ctrl-C: the abort goes out, and the process ends with the
    /// signal's status although nothing ever reads its output (the output's grace is over).
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalEndsSendWhenTheReaderNeverReads(_ signal: Int32, _ status: Int32) throws {
        let gateway = try GatewayFixture(["--reply", "lorem:20000", "--delta-ms", "1"])
        let send = try CLIProcess(["send", "tell me everything"], environment: gateway.cli.variables, stdoutIsUnreadPipe: true)
        try #require(eventually { send.unreadPipeBytes > 0 && send.unreadPipeBytes >= send.unreadPipeCapacity - 16 * 1024 })
        send.send(signal: signal)
        #expect(eventually { !send.process.isRunning }, "it ended with the pipe still unread")
        #expect(send.unreadPipeBytes > 0, "nothing read the pipe")
        let result = send.finish()
        #expect(result.status == status, "\(result.stderr)")
        #expect(gateway.receivedMethods().filter { $0 == "chat.abort" }.count == 1)
    }

    /// `watch` flooding a pipe nobody reads: SIGTERM ends it with 143.
    @Test func sigtermEndsAWatchWhoseReaderNeverReads() throws {
        let gateway = try GatewayFixture(["--blast", "200000", "--blast-bytes", "300"])
        let watch = try CLIProcess(["watch"], environment: gateway.cli.variables, stdoutIsUnreadPipe: true)
        try #require(eventually { watch.unreadPipeBytes > 0 && watch.unreadPipeBytes >= watch.unreadPipeCapacity - 4096 })
        watch.send(signal: SIGTERM)
        #expect(eventually { !watch.process.isRunning }, "it ended with the pipe still unread")
        #expect(watch.finish().status == 143)
    }

    /// `send -` waiting for a stdin nobody writes: SIGINT ends it (130) instead of waiting for end of file.
    @Test func aSignalEndsSendWhileItWaitsForStdin() throws {
        let gateway = try GatewayFixture()
        let send = try CLIProcess(["send", "-"], environment: gateway.cli.variables, stdinIsPipe: true)
        try #require(eventually { handlesSIGINT(send.process.processIdentifier) }, "the handlers are installed")
        send.send(signal: SIGINT)
        #expect(eventually { !send.process.isRunning }, "it ended with stdin still open")
        let result = send.finish()
        #expect(result.status == 130, "\(result.stderr)")
        #expect(result.stderr.contains("interrupted while reading stdin"), "\(result.stderr)")
        send.closeStdin()
    }

    /// A second signal ends the process at once, with the second signal's status.
    @Test func aSecondSignalExitsAtOnce() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:20000", "--delta-ms", "1"])
        let send = try CLIProcess(["send", "tell me everything"], environment: gateway.cli.variables, stdoutIsUnreadPipe: true)
        try #require(eventually { send.unreadPipeBytes > 0 && send.unreadPipeBytes >= send.unreadPipeCapacity - 16 * 1024 })
        send.send(signal: SIGINT)
        #expect(eventually { gateway.receivedMethods().contains("chat.abort") })
        send.send(signal: SIGTERM)
        let result = send.finish()
        #expect([130, 143].contains(result.status), "\(result.status) \(result.stderr)")
    }
}

/// Whether process `pid` has a handler for SIGINT (its /proc status's SigCgt mask): a signal sent
/// before openclaw installs its handlers would end it by the default action instead.
func handlesSIGINT(_ pid: Int32) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
          let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
    return mask & (1 << UInt64(SIGINT - 1)) != 0
}

/// Frames the simulator has sent so far.
private func sentFrames(_ simulator: SimulatorProcess) -> Int {
    simulator.logEntries().filter { $0["dir"]?.stringValue == "out" }.count
}
