import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// The `openclaw` binary against the simulator: every command and output mode of docs/cli.md.
@Suite struct CLICommandTests {
    @Test func historyPrintsTheResFrameAsReceived() throws {
        let gateway = try GatewayFixture(["--history-fixture", "3:20"])
        let result = try gateway.run(["history", "--limit", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 1)
        let frame = try #require(result.frames.first)
        #expect(frame.objectValue?.keys == ["type", "id", "ok", "payload"])
        #expect(frame["payload"]?["messages"]?.arrayValue?.count == 2)
        // Byte-for-byte: the line is exactly what the simulator logged as sent.
        let sent = gateway.simulator.logEntries().last { $0["dir"]?.stringValue == "out" && $0["frame"]?["type"]?.stringValue == "res" }
        #expect(sent?["frame"]?.compactText == result.lines[0])
        #expect(result.stderr.isEmpty)
    }

    @Test func historyTextRendersRoleAndText() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        #expect(try gateway.run(["send", "ping pong"]).status == 0)
        let result = try gateway.run(["history", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == ["user: ping pong", "assistant: ping pong"])
    }

    @Test func sendPrintsAckThenTheRunsChatEventsUntilFinal() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:4"])
        let result = try gateway.run(["send", "--idempotency-key", "run-1", "hello"])
        #expect(result.status == 0, "\(result.stderr)")
        let frames = result.frames
        #expect(frames.first?["type"]?.stringValue == "res")
        #expect(frames.first?["payload"]?["runId"]?.stringValue == "run-1")
        #expect(frames.first?["payload"]?["status"]?.stringValue == "started")
        let events = frames.dropFirst()
        #expect(events.count >= 2)
        #expect(events.allSatisfy { $0["event"]?.stringValue == "chat" && $0["payload"]?["runId"]?.stringValue == "run-1" })
        #expect(events.last?["payload"]?["state"]?.stringValue == "final")
        #expect(events.dropLast().allSatisfy { $0["payload"]?["state"]?.stringValue == "delta" })
        #expect(TextOf.final(frames).split(separator: " ").count == 4)
    }

    @Test func sendAgentEventsAddsTheRunsAgentFrames() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:2"])
        let result = try gateway.run(["send", "--agent-events", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = result.frames.compactMap { $0["event"]?.stringValue }
        #expect(names.contains("agent"))
        #expect(names.last == "chat")
        // Per-run seq counts the run's events: increasing within each event family.
        for family in ["chat", "agent"] {
            let seqs = result.frames.filter { $0["event"]?.stringValue == family }.compactMap { $0["payload"]?["seq"]?.int64Value }
            #expect(!seqs.isEmpty && seqs == seqs.sorted() && Set(seqs).count == seqs.count, "\(family): \(seqs)")
        }
    }

    @Test func sendTextStreamsOnlyTheReply() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        let result = try gateway.run(["-o", "text", "send", "Grüße 👋 from 日本"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Grüße 👋 from 日本\n")
    }

    @Test func sendTextWorksWithProtocol3CumulativeDeltas() throws {
        let gateway = try GatewayFixture(["--protocol", "3", "--reply", "echo"])
        let result = try gateway.run(["send", "-o", "text", "one two three four"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "one two three four\n")
    }

    @Test func sendReadsStdinFileAndDash() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        let fromStdin = try gateway.run(["send", "-o", "text"], stdin: Data("from stdin\n".utf8))
        #expect(fromStdin.stdout == "from stdin\n\n" || fromStdin.stdout == "from stdin\n", "\(fromStdin.stdout)")
        let dash = try gateway.run(["send", "-o", "text", "-"], stdin: Data("dash".utf8))
        #expect(dash.stdout == "dash\n")
        let file = gateway.cli.home.appendingPathComponent("message.txt")
        try Data("from a file".utf8).write(to: file)
        let fromFile = try gateway.run(["send", "-o", "text", "--file", file.path])
        #expect(fromFile.stdout == "from a file\n")
    }

    @Test func sendCarriesAMebibyteMessageIntact() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:1"])
        let message = String(repeating: "abcdefghij", count: 104_858)
        let result = try gateway.run(["send", "-"], stdin: Data(message.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let sent = gateway.simulator.logEntries().first { $0["frame"]?["method"]?.stringValue == "chat.send" }
        #expect(sent?["frame"]?["params"]?["message"]?.stringValue == message)
    }

    @Test func sendWithOptionsPassesThemToTheGateway() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        let attachment = gateway.cli.home.appendingPathComponent("pixel.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: attachment)
        let result = try gateway.run(["send", "--thinking", "low", "--deliver", "--attach", attachment.path,
                                      "--idempotency-key", "opts-1", "--session", "agent:main:main", "x"])
        #expect(result.status == 0, "\(result.stderr)")
        let params = gateway.simulator.logEntries().first { $0["frame"]?["method"]?.stringValue == "chat.send" }?["frame"]?["params"]
        #expect(params?["thinking"]?.stringValue == "low")
        #expect(params?["deliver"]?.boolValue == true)
        #expect(params?["idempotencyKey"]?.stringValue == "opts-1")
        #expect(params?["sessionKey"]?.stringValue == "agent:main:main")
        let item = params?["attachments"]?.arrayValue?.first
        #expect(item?["mimeType"]?.stringValue == "image/png")
        #expect(item?["fileName"]?.stringValue == "pixel.png")
        #expect(item?["content"]?.stringValue == "iVBORw==")
    }

    @Test func anAttachmentOverThePolicyLimitIsRefusedBeforeAnythingIsSent() throws {
        let gateway = try GatewayFixture(["--attachment-max-bytes", "1000"])
        let file = gateway.cli.home.appendingPathComponent("notes.txt")
        try Data(repeating: 0x61, count: 2000).write(to: file)
        let result = try gateway.run(["send", "see attached", "--attach", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains(file.path) && result.stderr.contains("2000 bytes") && result.stderr.contains("1000 bytes"), "\(result.stderr)")
        #expect(requests(gateway, "chat.send").isEmpty)
        let small = gateway.cli.home.appendingPathComponent("small.txt")
        try Data(repeating: 0x62, count: 500).write(to: small)
        #expect(try gateway.run(["send", "see attached", "--attach", small.path]).status == 0)
    }

    @Test func queueModeIsSentAndAnInterruptIsNoted() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        #expect(try gateway.run(["send", "x", "--queue-mode", "sideways"]).status == 2)
        let first = try gateway.cli.start(["send", "long one"])
        #expect(waitForRequests(gateway.simulator, "chat.send"))
        #expect(first.waitForStdout("\"status\":\"started\""))
        let second = try gateway.run(["send", "now this", "--queue-mode", "interrupt", "-o", "text", "--no-wait"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("interrupted the session's active run"), "\(second.stderr)")
        #expect(requests(gateway, "chat.send").last?["queueMode"]?.stringValue == "interrupt")
        #expect(first.finish().status == 1)
    }

    @Test func sendNoWaitPrintsOnlyTheAck() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let result = try gateway.run(["send", "--no-wait", "hi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 1)
        #expect(result.frames[0]["payload"]?["status"]?.stringValue == "started")
    }

    @Test func sendWithTheSameKeyTwiceDoesNotRunTwice() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        #expect(try gateway.run(["send", "--idempotency-key", "cron-1", "once"]).status == 0)
        let again = try gateway.run(["send", "--idempotency-key", "cron-1", "once"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.lines.count == 1)
        #expect(again.frames[0]["payload"]?["status"]?.stringValue == "ok")
        let history = try gateway.run(["history"])
        #expect(history.frames[0]["payload"]?["messages"]?.arrayValue?.count == 2)
    }

    @Test func abortReportsAbortedRuns() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        #expect(try gateway.run(["send", "--no-wait", "--idempotency-key", "long-1", "x"]).status == 0)
        let result = try gateway.run(["abort", "-o", "text"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "aborted 1 run(s)\n")
        let none = try gateway.run(["abort", "--run", "long-1"])
        #expect(none.status == 0)
        #expect(none.frames[0]["payload"]?["aborted"]?.boolValue == false)
    }

    @Test func callPrintsTheResAndTextPrettyPrints() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["call", "chat.history", "{\"sessionKey\":\"main\",\"limit\":1}"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.frames[0]["payload"]?["sessionKey"]?.stringValue == "main")
        let text = try gateway.run(["call", "health", "-o", "text"])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("{\n  \"ok\": true"))
        let fromStdin = try gateway.run(["call", "chat.history", "-"], stdin: Data("{\"sessionKey\":\"main\"}".utf8))
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")
    }

    @Test func callExpectFinalWaitsPastTheAcceptedAck() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:3"])
        let params = #"{"message":"hi","idempotencyKey":"agent-run-1"}"#
        let ack = try gateway.run(["call", "agent", params])
        #expect(ack.status == 0, "\(ack.stderr)")
        #expect(ack.frames.count == 1 && ack.frames[0]["payload"]?["status"]?.stringValue == "accepted")
        let final = try gateway.run(["call", "agent", #"{"message":"hi","idempotencyKey":"agent-run-2"}"#, "--expect-final", "--raw"])
        #expect(final.status == 0, "\(final.stderr)")
        let responses = final.frames.filter { $0["type"]?.stringValue == "res" }
        // hello-ok, the accepted ack (shown by --raw), then the final answer last.
        #expect(responses.count == 3)
        #expect(responses[1]["payload"]?["status"]?.stringValue == "accepted")
        #expect(final.frames.last?["payload"]?["status"]?.stringValue == "ok")
        #expect(final.frames.last?["id"] == responses[1]["id"])
    }

    @Test func callBatchPipelinesAThousandRequestsOverOneConnection() throws {
        let gateway = try GatewayFixture()
        var input = ""
        for i in 0..<1000 { input += "{\"method\":\"chat.history\",\"params\":{\"sessionKey\":\"s\(i)\",\"limit\":1}}\n" }
        let result = try gateway.run(["call", "--batch"], stdin: Data(input.utf8), timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 1000)
        let keys = Set(result.frames.compactMap { $0["payload"]?["sessionKey"]?.stringValue })
        #expect(keys.count == 1000)
        let connects = gateway.receivedMethods().filter { $0 == "connect" }
        #expect(connects.count == 1)
    }

    @Test func callBatchStreamsRequestsAsTheyAreWritten() throws {
        let gateway = try GatewayFixture()
        let batch = try CLIProcess(["call", "--batch"], environment: gateway.cli.variables, stdinIsPipe: true)
        batch.write(stdin: "{\"method\":\"health\"}\n")
        // The first answer arrives while stdin is still open: requests are not held until EOF.
        #expect(batch.waitForLines(1))
        batch.write(stdin: "{\"method\":\"chat.history\",\"params\":{\"sessionKey\":\"main\"}}")
        batch.closeStdin()
        let result = batch.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.frames.map { $0["id"]?.stringValue } == ["2", "3"])
    }

    @Test func callBatchStopsAtABadLineButPrintsWhatWasSent() throws {
        let gateway = try GatewayFixture()
        let input = "{\"method\":\"health\"}\n\n{\"method\":\"health\"}\nnot json\n{\"method\":\"health\"}\n"
        let result = try gateway.run(["call", "--batch"], stdin: Data(input.utf8))
        #expect(result.status == 2)
        let named = try gateway.run(["call", "--batch"], stdin: Data("{\"id\":\"h\",\"method\":\"health\"}\n".utf8))
        #expect(named.frames.first?["id"]?.stringValue == "h")
        #expect(result.lines.count == 2)
        #expect(result.stderr.contains("batch line 4: not valid JSON"))
    }

    @Test func rawAddsTheHandshakeFramesWithSecretsRedacted() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["history", "--raw"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.frames.first?["event"]?.stringValue == "connect.challenge")
        #expect(result.frames[1]["payload"]?["type"]?.stringValue == "hello-ok")
        #expect(result.frames.last?["payload"]?["messages"] != nil)
        #expect(!result.stdout.contains(GatewayFixture.token))
        let issued = gateway.simulator.logEntries().compactMap { $0["frame"]?["payload"]?["auth"]?["deviceToken"]?.stringValue }
        for token in issued { #expect(!result.stdout.contains(token)) }
    }

    @Test func traceWritesRedactedFramesToStderr() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["history", "--trace"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").map { (try? JSONValue.parse(String($0))) ?? .null }
        #expect(lines.count >= 4)
        #expect(lines.allSatisfy { ["send", "recv"].contains($0["dir"]?.stringValue ?? "") && $0["ts"]?.int64Value != nil })
        let connect = lines.first { $0["frame"]?["method"]?.stringValue == "connect" }
        #expect(connect?["frame"]?["params"]?["auth"]?["token"]?.stringValue == "<redacted>")
        #expect(!result.stderr.contains(GatewayFixture.token))
        #expect(result.lines.count == 1)
    }

    @Test func quietSilencesDiagnosticsButNotTheFinalError() throws {
        let gateway = try GatewayFixture()
        var cli = gateway.cli
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = "wrong"
        let result = try cli.run(["history", "-q"])
        #expect(result.status == 4)
        #expect(result.stderr.hasPrefix("openclaw: error: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpAndVersionGoToStdout() throws {
        let cli = CLIEnvironment()
        let help = try cli.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("Usage: openclaw"))
        let sendHelp = try cli.run(["send", "-h"])
        #expect(sendHelp.status == 0 && sendHelp.stdout.contains("--idempotency-key"))
        let version = try cli.run(["version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("openclaw "))
        #expect(try cli.run(["-V"]).stdout == version.stdout)
    }

    @Test func aConfigSyntaxErrorNamesItsPositionOnce() throws {
        let cli = CLIEnvironment()
        try FileManager.default.createDirectory(at: cli.stateDirectory, withIntermediateDirectories: true)
        let config = cli.stateDirectory.appendingPathComponent("openclaw.json")
        try "{\n  gateway: {\n    port: ,\n  }\n}\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try cli.run(["history"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("openclaw: error: config file \(config.path):3:11: "), "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "3:11").count == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("line") && !result.stderr.contains("column"), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }
}

enum TextOf {
    /// The text of the final chat event among NDJSON frames.
    static func final(_ frames: [JSONValue]) -> String {
        let final = frames.last { $0["payload"]?["state"]?.stringValue == "final" }
        return final?["payload"]?["message"]?["content"]?.arrayValue?.first?["text"]?.stringValue ?? ""
    }
}
