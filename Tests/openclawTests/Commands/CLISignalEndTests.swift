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
        // As under a terminal: bash with SIGINT at its default, the signal sent to the whole group.
        // setsid makes bash the leader of a group of its own, which the signal then goes to.
        let loop = #"for i in 1 2 3; do "$0" send --idempotency-key "loop-$i" "message $i"; done"#
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        shell.arguments = ["bash", "-c", loop, BuiltProducts.executable("openclaw").path]
        shell.environment = gateway.cli.variables
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        try shell.run()
        #expect(waitForRequests(gateway.simulator, "chat.send"))
        // The first send is following its run: interrupt the group (bash and send alike).
        #expect(eventually(20) { gateway.simulator.logEntries().contains { $0["frame"]?["payload"]?["status"]?.stringValue == "started" } })
        kill(-shell.processIdentifier, SIGINT)
        shell.waitUntilExit()
        #expect(shell.terminationReason == .uncaughtSignal && shell.terminationStatus == SIGINT,
                "bash ended with \(shell.terminationStatus) (\(shell.terminationReason == .exit ? "exit" : "signal"))")
        #expect(requests(gateway, "chat.send").map { $0["idempotencyKey"]?.stringValue } == ["loop-1"])
        #expect(requests(gateway, "chat.abort").count == 1)
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
