import Foundation
import Testing
@_spi(Engine) import ClawJSON
@testable import openclaw

/// `openclaw health` and `openclaw system event`, the official CLI's, against the simulator.
@Suite("health and system event")
struct CLIHealthAndSystemTests {
    /// openclaw/openclaw `src/cli/program/register.status-health-sessions.ts` (`health`: --json,
    /// --timeout <ms>, --verbose, --debug) and `src/cli/system-cli.ts` (`system event`: --text, --mode,
    /// --session-key, --json, plus the shared --url --token --password --port --timeout --expect-final;
    /// --url, --token and --password are our global flags), 2026.9.4.
    static let officialHealthFlags: Set = ["json", "timeout", "verbose", "debug"]
    static let officialSystemEventFlags: Set = ["text", "mode", "session-key", "json", "port", "timeout", "expect-final"]

    @Test func theFlagsAreTheOfficialOnes() throws {
        #expect(Set(try #require(CommandTable.command(named: "health")).flags.map(\.long)) == Self.officialHealthFlags)
        #expect(Set(try #require(CommandTable.command(named: "system")).flags.map(\.long)) == Self.officialSystemEventFlags)
    }

    @Test func healthPrintsTheSummaryAndProbesWithVerbose() throws {
        let gateway = try GatewayFixture()
        let json = try gateway.run(["health", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let summary = try JSONValue.parse(Array(json.stdout.utf8))
        #expect(json.stdout == summary.prettyText + "\n")
        #expect(summary["ok"]?.boolValue == true)
        let text = try gateway.run(["health", "--verbose"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("Gateway: ok"), "\(text.stdout)")
        #expect(gateway.receivedMethods().filter { $0 == "health" }.count == 2)
        #expect(requests(gateway, "health") == [["probe": true]])  // the first sent no params
    }

    @Test func healthOfAGatewayThatIsDownIsTheTransportEnvelopeAndExit1() throws {
        let cli = CLIEnvironment(url: "ws://127.0.0.1:9", token: "x")
        let result = try cli.run(["health", "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let envelope = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(envelope["ok"] == .bool(false))
        #expect(envelope["error"]?["type"]?.stringValue == "gateway_transport_error")
        #expect(envelope["error"]?["kind"]?.stringValue == "closed")
        #expect(envelope["gateway"]?["url"]?.stringValue == "ws://127.0.0.1:9")
        #expect(envelope["gateway"]?["urlSource"]?.stringValue == "env OPENCLAW_GATEWAY_URL")
        let text = try cli.run(["health"])
        #expect(text.status == 1 && text.stdout.isEmpty)
        #expect(try cli.run(["health", "--timeout", "0"]).status == 2)
    }

    @Test func systemEventWakesTheGateway() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["system", "event", "--text", "deploy finished", "--mode", "now"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok\n")
        #expect(requests(gateway, "wake").first == ["mode": "now", "text": "deploy finished"])
        let json = try gateway.run(["system", "event", "--text", "again", "--json", "--session-key", "agent:main:main"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(try JSONValue.parse(Array(json.stdout.utf8))["ok"]?.boolValue == true)
        #expect(requests(gateway, "wake").last?["mode"]?.stringValue == "next-heartbeat")
    }

    @Test func systemEventBadInputAndGatewayRefusal() throws {
        let gateway = try GatewayFixture()
        let missing = try gateway.run(["system", "event", "--text", "  "])
        #expect(missing.status == 2)
        #expect(missing.stderr == "openclaw: error: --text is required. Example: openclaw system event --text \"deploy finished\".\n")
        let mode = try gateway.run(["system", "event", "--text", "x", "--mode", "later", "--json"])
        #expect(mode.status == 2)
        #expect(try JSONValue.parse(Array(mode.stdout.utf8)) == ["ok": false, "error": ["type": "cli_error", "message": "--mode must be now or next-heartbeat"]])
        let refused = try gateway.run(["system", "event", "--text", "x", "--session-key", "agent:main:subagent:abc", "--json"])
        #expect(refused.status == 1, "\(refused.stderr)")
        let envelope = try JSONValue.parse(Array(refused.stdout.utf8))
        #expect(envelope["error"]?["type"]?.stringValue == "cli_error")
        #expect(envelope["error"]?["message"]?.stringValue?.contains("cannot target a subagent session") == true, "\(refused.stdout)")
    }

    @Test func otherSystemSubcommandsGoToTheOfficialCLI() throws {
        let official = try OfficialCLITests.StandIn(status: 0)
        #expect(try official.cli.run(["system", "presence"]).status == 0)
        #expect(try official.recordedArguments() == ["system", "presence"])
        #expect(try official.cli.run(["sessions", "cleanup", "--dry-run"]).status == 0)
        #expect(try official.recordedArguments() == ["sessions", "cleanup", "--dry-run"])
        #expect(try official.cli.run(["cron", "add", "--name", "x"]).status == 0)
        #expect(try official.recordedArguments() == ["cron", "add", "--name", "x"])
    }
}
