import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// `send -o text` against scripted runs: on a pipe the final text once, with `--stream` append-only,
/// whatever the events did (duplicates, reordering, replace, status, parts, a changed final).
@Suite struct CLIReplyTextTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let steps: [JSONValue]
        /// stdout of `send -o text` into a pipe.
        let piped: String
        /// stdout of `send -o text --stream` into a pipe.
        let streamed: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "a repeated seq is applied once",
             steps: [["state": "delta", "deltaText": "Hello"], ["state": "delta", "deltaText": " there"],
                     ["state": "delta", "deltaText": " there", "seq": 2], ["state": "final"]],
             piped: "Hello there\n", streamed: "Hello there\n"),
        Case(name: "seq 1, 3, 2: the stale event is dropped",
             steps: [["state": "delta", "deltaText": "Hel", "message": "Hel"],
                     ["state": "delta", "deltaText": "lo!", "message": "Hello!", "seq": 3],
                     ["state": "delta", "deltaText": "lo", "message": "Hello", "seq": 2],
                     ["state": "final", "seq": 4]],
             piped: "Hello!\n", streamed: "Hello!\n"),
        Case(name: "replace drops the replaced text",
             steps: [["state": "delta", "deltaText": "Hello wor"], ["state": "delta", "deltaText": "Goodbye", "replace": true],
                     ["state": "final"]],
             piped: "Goodbye\n", streamed: "Hello wor\nGoodbye\n"),
        Case(name: "a status event is not text",
             steps: [["state": "status", "phase": "preparing_workspace"], ["state": "delta", "deltaText": "Hi", "message": "Hi"],
                     ["state": "final", "message": "Hi"]],
             piped: "Hi\n", streamed: "Hi\n"),
        Case(name: "text parts are joined as sent",
             steps: [["state": "final", "message": ["role": "assistant", "content": [
                ["type": "text", "text": "Hello "], ["type": "text", "text": "world"]]]]],
             piped: "Hello world\n", streamed: "Hello world\n"),
        Case(name: "a final that differs from the streamed text",
             steps: [["state": "delta", "deltaText": "Hello wor", "message": "Hello wor"], ["state": "final", "message": "Goodbye."]],
             piped: "Goodbye.\n", streamed: "Hello wor\nGoodbye.\n"),
        Case(name: "an empty final",
             steps: [["state": "final"]],
             piped: "\n", streamed: "\n"),
        Case(name: "tool calls show as markers, thinking is hidden",
             steps: [["agent": "tool", "data": ["phase": "start", "name": "web_search"]],
                     ["state": "final", "message": ["role": "assistant", "content": [
                        ["type": "thinking", "thinking": "hmm"], ["type": "text", "text": "Found it."],
                        ["type": "toolCall", "name": "web_search", "arguments": [:]]]]]],
             piped: "Found it. [tool web_search]\n", streamed: "Found it. [tool web_search]\n"),
    ]

    @Test(arguments: cases)
    func textOnAPipeIsExact(_ c: Case) throws {
        let script = try ScriptFile(c.steps)
        let gateway = try GatewayFixture(["--script", script.path])
        let piped = try gateway.run(["send", "-o", "text", "hi"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == c.piped)
        let streamed = try gateway.run(["send", "-o", "text", "--stream", "hi"])
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(streamed.stdout == c.streamed)
    }

    @Test func failedAndAbortedRunsNameTheirKindAndReason() throws {
        let failing = try ScriptFile([["state": "delta", "deltaText": "Hel"],
                                      ["state": "error", "errorMessage": "Error: 429 rate limited", "errorKind": "rate_limit"]])
        let gateway = try GatewayFixture(["--script", failing.path])
        let result = try gateway.run(["send", "-o", "text", "--idempotency-key", "k-err", "hi"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasSuffix("openclaw: error: run k-err failed: Error: 429 rate limited (errorKind: rate_limit)\n"), "\(result.stderr)")

        let aborting = try ScriptFile([["state": "aborted", "stopReason": "rpc", "message": "par"]])
        let aborted = try GatewayFixture(["--script", aborting.path]).run(["send", "--idempotency-key", "k-ab", "hi"])
        #expect(aborted.status == 1)
        #expect(aborted.stderr.contains("run k-ab was aborted (stopReason: rpc)"), "\(aborted.stderr)")
    }

    @Test func aRetriedSendOfAFinishedRunIsNeverSilent() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        let first = try gateway.run(["send", "-o", "text", "--idempotency-key", "same-key", "once"])
        #expect(first.stdout == "once\n")
        let again = try gateway.run(["send", "-o", "text", "--idempotency-key", "same-key", "once"])
        #expect(again.status == 0, "\(again.stderr)")
        // The simulator's transcript does not name runs, so the reply cannot be identified with certainty.
        #expect(again.stdout.isEmpty)
        #expect(again.stderr.contains("run same-key already ran"), "\(again.stderr)")
        #expect(again.stderr.contains("openclaw history -s main -n 2 -o text"))
    }

    @Test func historyTextIndentsContinuationLines() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        #expect(try gateway.run(["send", "line one\nline two"]).status == 0)
        let result = try gateway.run(["history", "-o", "text"])
        #expect(result.stdout == "user: line one\n  line two\nassistant: line one\n  line two\n")
    }

    @Test func historyRolesAreColouredOnlyOnATerminalWithoutNoColor() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        #expect(try gateway.run(["send", "hi"]).status == 0)
        #expect(try Self.underTerminal("history -o text", gateway).screen.contains("\u{1B}[1;36muser:\u{1B}[0m hi"))
        #expect(!(try Self.underTerminal("history -o text", gateway, ["NO_COLOR": "1"])).screen.contains("\u{1B}["))
        #expect(!(try gateway.run(["history", "-o", "text"])).stdout.contains("\u{1B}["))
        // The official CLI's --no-color, before or after the command word, is NO_COLOR.
        for arguments in ["--no-color history -o text", "history -o text --no-color"] {
            let (status, screen) = try Self.underTerminal(arguments, gateway)
            #expect(status == 0 && screen.contains("user: hi") && !screen.contains("\u{1B}["), "\(arguments): \(screen.debugDescription)")
        }
    }

    /// A terminal on both streams (script(1) gives the command a pty): the reply streams live, a
    /// replaced text is erased and redrawn, and the status line shows on stderr before any text.
    @Test func aTerminalSeesTheStreamTheRedrawAndTheStatusLine() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            Issue.record("script(1) is not installed (util-linux); .ci/run installs it"); return
        }
        let steps: [JSONValue] = [
            ["state": "status", "phase": "preparing_workspace"],
            ["state": "delta", "deltaText": "Hello wor", "delayMs": 50],
            ["state": "delta", "deltaText": "Goodbye", "replace": true, "delayMs": 50],
            ["state": "final", "delayMs": 50],
        ]
        let script = try ScriptFile(steps)
        let gateway = try GatewayFixture(["--script", script.path])
        let (exitStatus, screen) = try Self.underTerminal("send -o text hi", gateway)
        #expect(exitStatus == 0, "\(screen)")
        #expect(screen.contains("preparing workspace…"), "\(screen.debugDescription)")
        #expect(screen.contains("Hello wor"))
        #expect(screen.contains("\r\u{1B}[J") || screen.contains("\u{1B}[J"), "the replaced text is erased: \(screen.debugDescription)")
        #expect(screen.hasSuffix("Goodbye\r\n"), "\(screen.debugDescription)")
        // The status line is cleared before the text is written.
        let status = try #require(screen.range(of: "preparing workspace…"))
        let clear = try #require(screen.range(of: "\r\u{1B}[2K", range: status.upperBound..<screen.endIndex))
        let text = try #require(screen.range(of: "Hello wor"))
        #expect(clear.upperBound <= text.lowerBound)
    }

    @Test func newAndUnknownStatusPhasesAreProgressNeverAnEnd() throws {
        let script = try ScriptFile([
            ["state": "status", "phase": "waiting_for_state"],
            ["state": "status", "phase": "state_contention"],
            ["state": "status", "phase": "a_phase_from_next_year"],
            ["state": "delta", "deltaText": "Hello", "message": "Hello"],
            ["state": "final", "message": "Hello"],
        ])
        let gateway = try GatewayFixture(["--script", script.path])
        let text = try gateway.run(["send", "-o", "text", "hi"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "Hello\n")
        #expect(text.stderr.isEmpty, "\(text.stderr)")
        let ndjson = try gateway.run(["send", "hi"])
        #expect(ndjson.status == 0, "\(ndjson.stderr)")
        let phases = ndjson.frames.compactMap { $0["payload"]?["phase"]?.stringValue }
        #expect(phases == ["waiting_for_state", "state_contention", "a_phase_from_next_year"])
        #expect(ndjson.frames.last?["payload"]?["state"] == "final")

        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            Issue.record("script(1) is not installed (util-linux); .ci/run installs it"); return
        }
        let (status, screen) = try CLIReplyTextTests.underTerminal("send -o text hi", gateway)
        #expect(status == 0, "\(screen)")
        #expect(screen.contains("waiting for the session's state…"), "\(screen.debugDescription)")
        #expect(screen.contains("a phase from next year…"), "\(screen.debugDescription)")
        #expect(screen.hasSuffix("Hello\r\n"), "\(screen.debugDescription)")
    }

    /// Runs `openclaw ARGUMENTS` with stdout and stderr on a pty (script(1)); returns what the terminal got.
    static func underTerminal(_ arguments: String, _ gateway: GatewayFixture, _ extra: [String: String] = [:]) throws
        -> (status: Int32, screen: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", "\(BuiltProducts.executable("openclaw").path) \(arguments)", "/dev/null"]
        process.environment = gateway.cli.variables.merging(["TERM": "xterm"].merging(extra) { $1 }) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
