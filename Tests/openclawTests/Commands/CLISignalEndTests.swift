import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// After its clean-up, a command ended by SIGINT or SIGTERM dies by that signal (default action
/// restored, signal raised again), as Unix tools do: `$?` is still 130/143, and a shell running it
/// in a loop stops instead of starting the next iteration.
@Suite("ending by the signal")
struct CLISignalEndTests {
    @Test func ctrlCStopsABashLoopOfSendsAfterTheFirstAbort() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        // As under a terminal: bash with SIGINT at its default, and the signal reaching both bash and
        // the send it waits for (a terminal sends it to the whole foreground group).
        let loop = #"for i in 1 2 3; do "$0" send --idempotency-key "loop-$i" "message $i"; done"#
        let shell = Process()
        // `env --default-signal=INT`: the test runner may hand down SIGINT ignored, which bash would keep.
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        shell.arguments = ["--default-signal=INT", "bash", "-c", loop, BuiltProducts.executable("openclaw").path]
        shell.environment = gateway.cli.variables
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        // The first send is following its run: interrupt it and bash alike.
        #expect(eventually(20) { gateway.simulator.logEntries().contains { $0["frame"]?["payload"]?["status"]?.stringValue == "started" } })
        let send = try #require(Self.child(of: shell.processIdentifier))
        // bash first: a terminal's SIGINT reaches the whole group at once, and bash acts on a child that
        // died of SIGINT only if it got the signal too (pending before the child's end, as it is then).
        kill(shell.processIdentifier, SIGINT)
        kill(send, SIGINT)
        shell.waitUntilExit()
        #expect(shell.terminationReason == .uncaughtSignal && shell.terminationStatus == SIGINT,
                "bash ended with \(shell.terminationStatus) (\(shell.terminationReason == .exit ? "exit" : "signal"))")
        #expect(requests(gateway, "chat.send").map { $0["idempotencyKey"]?.stringValue } == ["loop-1"])
        #expect(requests(gateway, "chat.abort").count == 1)
    }

    /// The one child process of `parent` (from /proc).
    static func child(of parent: Int32) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, Int32(fields[1]) == parent { return pid }
        }
        return nil
    }

    @Test func theStatusIsStill130And143() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            let send = try gateway.cli.start(["send", "wait for it"])
            #expect(send.waitForStdout("\"status\":\"started\""))
            send.send(signal: signal)
            let result = send.finish()
            // Died by the signal; a shell's `$?` shows 128 + N (`finish` reports it so).
            #expect(send.process.terminationReason == .uncaughtSignal, "\(result.stderr)")
            #expect(result.status == status)
        }
    }
}
