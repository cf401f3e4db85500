import Foundation
import Testing
@_spi(Engine) import ClawJSON
@testable import openclaw

/// `openclaw agent`, the official CLI's one agent turn, against the simulator: the official flags
/// and params, text and `--json` output, `--json-stream`, the exit statuses, a signal's abort.
@Suite("agent")
struct CLIAgentTests {
    /// The flags of `openclaw agent` in the official CLI 2026.9.4, transcribed from
    /// openclaw/openclaw `src/cli/program/register.agent-turn.ts` (the `agent` command's `.option`
    /// calls; the 2026.9.4 help matches them word for word). Ours add `--json-stream`.
    static let officialFlags: Set = ["message", "message-file", "to", "session-key", "session-id", "agent", "model",
                                     "thinking", "verbose", "channel", "reply-to", "reply-channel", "reply-account",
                                     "local", "deliver", "json", "timeout"]

    @Test func theFlagsAreTheOfficialOnesPlusJsonStream() throws {
        let spec = try #require(CommandTable.command(named: "agent"))
        #expect(Set(spec.flags.map(\.long)) == Self.officialFlags.union(["json-stream"]))
        #expect(spec.flags.first { $0.long == "message" }?.short == "m")
        #expect(spec.flags.first { $0.long == "to" }?.short == "t")
    }

    @Test func aTurnPrintsItsReplyAndSendsTheOfficialParams() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["agent", "-m", "hello agent", "--agent", "Main", "--thinking", "low", "--deliver",
                                      "--reply-channel", "slack", "--timeout", "120"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hello agent\n")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let params = try #require(requests(gateway, "agent").first)
        #expect(params["message"]?.stringValue == "hello agent")
        #expect(params["agentId"]?.stringValue == "main")
        #expect(params["thinking"]?.stringValue == "low")
        #expect(params["deliver"]?.boolValue == true)
        #expect(params["replyChannel"]?.stringValue == "slack")
        #expect(params["timeout"]?.intValue == 120)
        #expect(params["cleanupBundleMcpOnRunEnd"]?.boolValue == true)
        #expect(params["idempotencyKey"]?.stringValue?.count == 36)
        #expect(params["sessionKey"] == nil)  // the gateway picks the agent's main session
    }

    @Test func jsonPrintsTheFinalResponseAsTheOfficialCLIDoes() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["agent", "--message", "json please", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try JSONValue.parse(Array(result.stdout.utf8))
        // One two-space document, as JSON.stringify(result, null, 2).
        #expect(result.stdout == document.prettyText + "\n")
        #expect(document["status"]?.stringValue == "ok")
        #expect(document["summary"]?.stringValue == "completed")
        #expect(document["runId"]?.stringValue == requests(gateway, "agent").first?["idempotencyKey"]?.stringValue)
        #expect(document["result"]?["payloads"]?.arrayValue?.first?["text"]?.stringValue == "json please")
        #expect(document["ok"] == nil)  // the ack is never printed
    }

    /// The example of docs/cli/agent.md (openclaw/docs@c0a8fa9): `deliveryStatus` is copied from
    /// `result.deliveryStatus` to the top level, the rest printed as it came.
    @Test func deliveryStatusIsCopiedToTheTopLevel() throws {
        let payload = try JSONValue.parse(Array(#"""
            {"runId":"6f0c","status":"ok","summary":"completed","result":{"payloads":[{"text":"Report ready","mediaUrl":null}],
             "meta":{"durationMs":1200,"stopReason":"stop"},
             "deliveryStatus":{"requested":true,"attempted":true,"status":"sent","succeeded":true,"resultCount":1}}}
            """#.utf8))
        let document = AgentOutput.document(payload)
        #expect(document["deliveryStatus"] == payload["result"]?["deliveryStatus"])
        #expect(document.objectValue?.members.map(\.key) == ["runId", "status", "summary", "result", "deliveryStatus"])
        #expect(AgentOutput.document(document) == document)
    }

    @Test func jsonStreamPrintsTheTurnsEventsThenTheFinalObject() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:5"])
        let result = try gateway.run(["agent", "-m", "stream it", "--json-stream"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = result.frames
        #expect(records.count >= 3, "\(result.stdout)")
        let events = records.dropLast()
        #expect(events.allSatisfy { $0["stream"]?.stringValue != nil && $0["runId"] == records.last?["runId"] })
        #expect(events.first?["stream"]?.stringValue == "lifecycle")
        #expect(events.contains { $0["stream"]?.stringValue == "assistant" })
        #expect(records.last?["status"]?.stringValue == "ok")
        #expect(records.last?["result"] != nil)
        #expect(result.lines.allSatisfy { !$0.contains("\n") && !$0.hasPrefix(" ") })
    }

    @Test func theMessageComesFromStdinOrAFile() throws {
        let gateway = try GatewayFixture()
        let piped = try gateway.run(["agent", "--message", "-"], stdin: Data("from stdin\n".utf8))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == "from stdin\n")
        let file = gateway.cli.home.appendingPathComponent("prompt.txt")
        try Data([0xEF, 0xBB, 0xBF] + Array("from a file".utf8)).write(to: file)
        let fromFile = try gateway.run(["agent", "--message-file", file.path])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(requests(gateway, "agent").last?["message"]?.stringValue == "from a file")  // BOM dropped
    }

    @Test func badInputIsAUsageErrorInTheOfficialWordsWithTheEnvelopeUnderJson() throws {
        let gateway = try GatewayFixture()
        let cases: [([String], String)] = [
            (["agent"], "Missing message. Use openclaw agent --message \"...\" --agent <id> or openclaw agent --message-file <path> --agent <id>."),
            (["agent", "-m", "x", "--message-file", "/dev/null"], "Use either --message or --message-file, not both."),
            (["agent", "-m", "x", "--timeout", "soon"], "Invalid --timeout. Use seconds as a non-negative integer, for example --timeout 600. Use --timeout 0 to disable the timeout."),
            (["agent", "-m", "x", "--agent", " "], "--agent must not be blank"),
            (["agent", "-m", "x", "--session-key", "agent:main:"], "Invalid --session-key \"agent:main:\". Agent-prefixed session keys must use agent:<agent-id>:<session-key>."),
            (["agent", "-m", "x", "--agent", "work", "--session-key", "agent:main:k"], "Agent id \"work\" does not match session key agent \"main\"."),
            (["agent", "-m", "/compact now"], "Slash commands cannot be executed via --message from the CLI. Use: openclaw sessions compact <key>"),
        ]
        for (arguments, message) in cases {
            let result = try gateway.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
            #expect(result.stderr == "openclaw: error: \(message)\n", "\(arguments)")
            let json = try gateway.run(arguments + ["--json"])
            let envelope = try JSONValue.parse(Array(json.stdout.utf8))
            #expect(json.status == 2)
            #expect(envelope == ["ok": false, "error": ["type": "cli_error", "message": .string(message)]], "\(json.stdout)")
        }
        #expect(requests(gateway, "agent").isEmpty)
    }

    @Test func aFailedTurnExits1WithTheGatewaysReason() throws {
        let gateway = try GatewayFixture(["--reply", "error"])
        let result = try gateway.run(["agent", "-m", "fail please", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let document = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(document["status"]?.stringValue == "error")
        #expect(result.stderr.hasPrefix("openclaw: error: agent run "), "\(result.stderr)")
    }

    @Test func aSignalAbortsTheTurnOnTheGateway() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let agent = try gateway.cli.start(["agent", "-m", "a long one", "--json-stream"])
        #expect(agent.waitForStdout("\"lifecycle\""))
        agent.send(signal: SIGINT)
        let result = agent.finish()
        #expect(result.status == 130, "\(result.stderr)")
        let runId = requests(gateway, "agent").first?["idempotencyKey"]?.stringValue
        let aborts = requests(gateway, "chat.abort")
        #expect(aborts.count == 1)
        #expect(aborts.first?["runId"]?.stringValue == runId)
    }

    @Test func aTurnTheGatewayTimesOutExits5AndIsNeverOk() throws {
        let gateway = try GatewayFixture(["--reply", "slow"])
        let result = try gateway.run(["agent", "-m", "too slow", "--timeout", "1", "--json"])
        #expect(result.status == 5, "\(result.stdout)\(result.stderr)")
        let document = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(document["status"]?.stringValue == "timeout")
        #expect(result.stderr.contains("timed out"), "\(result.stderr)")
    }

    @Test func unreachableGatewayUnderJsonIsTheCliErrorEnvelope() throws {
        var cli = CLIEnvironment(url: "ws://127.0.0.1:9", token: "x")
        cli.variables["OPENCLAW_GATEWAY_URL"] = "ws://127.0.0.1:9"
        let result = try cli.run(["agent", "-m", "hi", "--json"])
        #expect(result.status == 3, "\(result.stderr)")
        let envelope = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(envelope["ok"] == .bool(false))
        #expect(envelope["error"]?["type"]?.stringValue == "cli_error")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func localAndSubcommandsGoToTheOfficialCLI() throws {
        let official = try OfficialCLITests.StandIn(status: 0)
        #expect(try official.cli.run(["agent", "--local", "-m", "hi"]).status == 0)
        #expect(try official.recordedArguments() == ["agent", "--local", "-m", "hi"])
        #expect(try official.cli.run(["agent", "exec", "do it"]).status == 0)
        #expect(try official.recordedArguments() == ["agent", "exec", "do it"])
        let none = try CLIEnvironment().run(["agent", "--local", "-m", "hi"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("agent --local runs the turn in the official OpenClaw CLI's embedded runtime"), "\(none.stderr)")
    }
}
