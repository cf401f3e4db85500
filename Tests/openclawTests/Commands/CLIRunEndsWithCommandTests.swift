import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// A run ends with the command that started it, whatever ends the command: its `--timeout`, a
/// reader that went away, as a signal does (CLIExitStatusTests). `--no-wait` leaves it on purpose.
@Suite("a run ends with its command")
struct CLIRunEndsWithCommandTests {
    @Test func sendsTimeoutAbortsItsRunOnceAndExits5() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let result = try gateway.run(["send", "--timeout", "1", "--idempotency-key", "slow-1", "take your time"])
        #expect(result.status == 5, "\(result.stderr)")
        let aborts = requests(gateway, "chat.abort")
        #expect(aborts.count == 1)
        #expect(aborts.first?["runId"]?.stringValue == "slow-1")
    }

    @Test func sendWhoseReaderGoesAwayAbortsItsRun() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let script = #""$0" send --idempotency-key piped-1 "a long answer please" | head -c 100 > /dev/null"#
        let shell = try CLIProcess(["-c", script, BuiltProducts.executable("openclaw").path],
                                   environment: gateway.cli.variables, executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(waitForRequests(gateway.simulator, "chat.abort"), "no chat.abort after the reader went away")
        #expect(shell.finish().status == 0)
        #expect(requests(gateway, "chat.abort").first?["runId"]?.stringValue == "piped-1")
    }

    @Test func noWaitLeavesTheRunGoing() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        #expect(try gateway.run(["send", "--no-wait", "--timeout", "1", "keep going"]).status == 0)
        #expect(requests(gateway, "chat.abort").isEmpty)
    }
}

/// A reader that goes away ends a streaming command even while nothing is written: the write end of
/// the pipe reports the error in poll(2).
@Suite("a closed reader ends an idle command")
struct CLIClosedReaderTests {
    /// Runs `pipeline` (`$0` is openclaw) under sh: its status, or 137 once killed after 25 s, long
    /// past any keepalive and short of the next tick or poll.
    static func statusOfPipeline(_ pipeline: String, _ gateway: GatewayFixture) throws -> CLIResult {
        try CLIProcess(["-c", pipeline, BuiltProducts.executable("openclaw").path],
                       environment: gateway.cli.variables, executable: URL(fileURLWithPath: "/bin/sh")).finish(timeout: 25)
    }

    /// `openclaw watch | true` on a gateway with nothing to say: without noticing the closed pipe,
    /// watch would wait for its next write, which an idle gateway never causes (ticks are not printed).
    @Test func watchEndsWhenItsReaderGoesAwayOnAnIdleGateway() throws {
        let gateway = try GatewayFixture()
        let result = try Self.statusOfPipeline(#""$0" watch | true"#, gateway)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The same while waiting to connect again: nothing listens (port 1, refused), so watch waits
    /// between attempts for as long as its --timeout; the closed pipe ends the wait, exit 0.
    @Test func watchWaitingToConnectEndsWhenItsReaderGoesAway() throws {
        let gateway = try GatewayFixture()
        let result = try Self.statusOfPipeline(
            #""$0" watch --url ws://127.0.0.1:1 --retry-connrefused --timeout 60 | true"#, gateway)
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// The same for `logs --follow` between its polls: head takes the first poll's first line and goes;
    /// the next poll (and write) is ten minutes away.
    @Test func logsFollowEndsWhenItsReaderGoesAway() throws {
        let gateway = try GatewayFixture()
        let result = try Self.statusOfPipeline(#""$0" logs --follow --interval 600000 | head -1 > /dev/null"#, gateway)
        #expect(result.status == 0, "\(result.stderr)")
    }
}
