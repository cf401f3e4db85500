import Foundation
import Testing
@_spi(Engine) import ClawJSON

/// Tools written for the official CLI drive `openclaw` with its global options. clawmonitor (PyPI) runs
/// every call as `openclaw --log-level silent gateway call METHOD --json --timeout 10000 --params JSON`
/// (its `openclaw_cli.gateway_call`, params from Python's `json.dumps`): each must be answered natively,
/// JSON only on stdout, nothing on stderr. Every official global option is accepted in each of its forms;
/// `--container` and `--update` hand the whole command line to the official CLI.
@Suite("The official CLI's global options")
struct OfficialGlobalOptionsTests {
    /// clawmonitor's argv for one call.
    static func clawmonitor(_ method: String, _ params: String, timeoutMs: Int = 10000) -> [String] {
        ["--log-level", "silent", "gateway", "call", method, "--json", "--timeout", String(timeoutMs), "--params", params]
    }

    /// Runs clawmonitor's command line and returns the JSON it would read (clawmonitor takes stdout from its
    /// first `{` or `[`; here stdout must be nothing but that JSON).
    func call(_ gateway: GatewayFixture, _ method: String, _ params: String) throws -> JSONValue {
        let result = try gateway.run(Self.clawmonitor(method, params))
        #expect(result.status == 0, "\(method): \(result.stderr)")
        #expect(result.stderr.isEmpty, "\(method): \(result.stderr)")
        let value = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(result.stdout == value.prettyText + "\n")
        return value
    }

    @Test func clawmonitorsCallsAreAnsweredNatively() throws {
        let gateway = try GatewayFixture(["--reply", "echo"])
        let health = try call(gateway, "health", "{}")
        #expect(health["ok"] == true)
        // chat.send exactly as clawmonitor's send_nudge builds it.
        let key = UUID().uuidString.lowercased()
        let send = try call(gateway, "chat.send",
                            #"{"sessionKey": "main", "message": "status?", "deliver": true, "timeoutMs": 0, "idempotencyKey": "\#(key)"}"#)
        #expect(send["runId"]?.stringValue == key && send["status"] == "started")
        let history = try call(gateway, "chat.history", #"{"sessionKey": "main", "limit": 20}"#)
        #expect(history["messages"]?.arrayValue?.first?["role"] == "user", "\(history)")
        let sessions = try call(gateway, "sessions.list", #"{"limit": 50, "includeLastMessage": true}"#)
        #expect(sessions["sessions"]?.arrayValue?.first?["key"] != nil, "\(sessions)")
        // The method v3 clients call in their health checks.
        let presence = try call(gateway, "system-presence", "{}")
        #expect(presence.arrayValue?.first?["reason"] == "self", "\(presence)")
        #expect(gateway.receivedMethods().filter { $0 != "connect" }
                == ["health", "chat.send", "chat.history", "sessions.list", "system-presence"])
    }

    @Test func aGatewayErrorIsStillTheJSONEnvelopeClawmonitorReads() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(Self.clawmonitor("chat.history", #"{"limit": "many"}"#))
        #expect(result.status == 1 && result.stderr.isEmpty, "\(result.stderr)")
        let envelope = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(envelope["ok"] == false && envelope["error"]?["type"] == "gateway_request_error")
    }

    // MARK: --log-level

    @Test(arguments: [
        ["--log-level", "silent", "gateway", "call", "health", "--json"],
        ["--log-level=silent", "gateway", "call", "health", "--json"],
        ["gateway", "--log-level", "error", "call", "health", "--json"],
        ["gateway", "call", "health", "--json", "--log-level", "fatal"],
        ["gateway", "call", "health", "--log-level=trace", "--json"],
        ["--log-level", "warn", "gateway", "call", "health", "--json"],
        ["--log-level", "info", "gateway", "call", "health", "--json"],
        ["--log-level", "debug", "gateway", "call", "health", "--json"],
    ])
    func everyLevelInEveryFormAndPlaceIsAccepted(_ arguments: [String]) throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try JSONValue.parse(Array(result.stdout.utf8))["ok"] == true)
    }

    @Test func anInvalidLevelIsAUsageErrorNamingTheLevels() throws {
        let cli = CLIEnvironment()
        for arguments in [["--log-level", "loud", "gateway", "call", "health"], ["--log-level=Silent", "history"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 2)
            let bad = arguments[0].contains("=") ? "Silent" : "loud"
            #expect(result.stderr == "openclaw: error: --log-level expects one of silent, fatal, error, warn, info, debug, trace, "
                + "got '\(bad)'\n", "\(result.stderr)")
        }
        let missing = try cli.run(["history", "--log-level"])
        #expect(missing.status == 2 && missing.stderr == "openclaw: error: --log-level needs a value: LEVEL\n")
    }

    @Test func silentFatalAndErrorQuietDiagnosticsAsQuietDoes() throws {
        // A gateway still starting: `history` waits it out with a note on stderr, which the quiet levels drop.
        for (level, noted) in [("silent", false), ("fatal", false), ("error", false), ("warn", true), ("info", true)] {
            let gateway = try GatewayFixture(["--fault", "starting:1"])
            let result = try gateway.run(["--log-level", level, "history"])
            #expect(result.status == 0, "\(level): \(result.stderr)")
            #expect(result.stderr.contains("trying again") == noted, "\(level): \(result.stderr)")
        }
        // The final error line stays, as with --quiet.
        let failing = try CLIEnvironment().run(["--log-level", "silent", "history", "--url", "ws://127.0.0.1:1", "--token", "t"])
        #expect(failing.status == 3 && failing.stderr.hasPrefix("openclaw: error: "), "\(failing.stderr)")
    }

    // MARK: --no-color, --dev, --profile, -V/--version/-v

    @Test(arguments: [
        ["--no-color", "gateway", "call", "health", "--json"],
        ["gateway", "call", "health", "--no-color", "--json"],
        ["--profile", "work", "gateway", "call", "health", "--json"],
        ["--profile=work", "gateway", "call", "health", "--json"],
        ["gateway", "call", "health", "--json", "--profile", "work"],
        ["--dev", "gateway", "call", "health", "--json"],
        ["--dev", "--log-level", "silent", "--no-color", "history"],
    ])
    func theOtherOptionsAreAcceptedEverywhere(_ arguments: [String]) throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func devAndAnotherProfileExcludeEachOtherAsInTheOfficialCLI() throws {
        let result = try GatewayFixture().run(["--dev", "--profile", "work", "gateway", "call", "health"])
        #expect(result.status == 2 && result.stderr.contains("--dev cannot be combined with --profile work"), "\(result.stderr)")
    }

    @Test func theVersionInEachOfItsSpellings() throws {
        let cli = CLIEnvironment()
        let version = try cli.run(["version"]).stdout
        for arguments in [["-V"], ["--version"], ["-v"], ["--log-level", "silent", "-v"], ["-v", "gateway", "call", "health"], ["history", "-V"]] {
            let result = try cli.run(arguments)
            #expect(result.status == 0 && result.stdout == version, "\(arguments): \(result.stderr)")
        }
        // After the command word `-v` is that command's flag, as in the official CLI: none of ours has it.
        let late = try cli.run(["history", "-v"])
        #expect(late.status == 2 && late.stderr.contains("unknown flag -v for 'history'"), "\(late.stderr)")
    }

    // MARK: what only the official CLI can do

    @Test(arguments: [
        ["--container", "box", "gateway", "call", "health", "--json"],
        ["--container=box", "--log-level", "silent", "gateway", "call", "health", "--json", "--timeout", "10000", "--params", "{}"],
        ["gateway", "call", "health", "--container", "box"],
        ["history", "--container=box", "-n", "5"],
        ["--container", "box", "send", "hi"],
        ["--container", "box", "--version"],
    ])
    func containerHandsTheWholeCommandLineToTheOfficialCLI(_ arguments: [String]) throws {
        let official = try OfficialCLITests.StandIn(status: 7)
        let result = try official.cli.run(arguments)
        #expect(result.status == 7, "\(result.stderr)")
        #expect(try official.recordedArguments() == arguments)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    }

    @Test func theContainerVariableHandsOverGatewayCallButNotOurOwnCommands() throws {
        let official = try OfficialCLITests.StandIn(status: 0)
        let gateway = try GatewayFixture()
        var cli = official.cli
        cli.variables["OPENCLAW_GATEWAY_URL"] = gateway.simulator.url
        cli.variables["OPENCLAW_GATEWAY_TOKEN"] = GatewayFixture.token
        cli.variables["OPENCLAW_CONTAINER"] = "box"
        let arguments = Self.clawmonitor("health", "{}")
        #expect(try cli.run(arguments).status == 0)
        #expect(try official.recordedArguments() == arguments)
        try FileManager.default.removeItem(at: official.directory.appendingPathComponent("argv"))
        // Our own commands run here; inside the container (the official CLI's bypass set) so does gateway call.
        let history = try cli.run(["history"])
        #expect(history.status == 0 && history.frames.first?["type"] == "res", "\(history.stderr)")
        cli.variables["OPENCLAW_CLI_CONTAINER_BYPASS"] = "1"
        let inside = try cli.run(arguments)
        #expect(inside.status == 0 && inside.stderr.isEmpty, "\(inside.stderr)")
        #expect(!FileManager.default.fileExists(atPath: official.directory.appendingPathComponent("argv").path))
        #expect(gateway.receivedMethods().filter { $0 != "connect" } == ["chat.history", "health"])
    }

    @Test func withoutTheOfficialCLIContainerIsOneLineAndExit2() throws {
        var cli = CLIEnvironment()
        cli.variables["PATH"] = "/usr/bin:/bin"
        let result = try cli.run(["--container", "box", "gateway", "call", "health"])
        #expect(result.status == 2)
        #expect(result.stderr == "openclaw: error: --container box runs the command in a container through the official OpenClaw CLI, "
            + "which was not found on PATH; install it (npm install -g openclaw) or set OPENCLAW_OFFICIAL_CLI to its path\n")
        cli.variables["OPENCLAW_CONTAINER"] = "box"
        let variable = try cli.run(["gateway", "call", "health"])
        #expect(variable.status == 2 && variable.stderr.hasPrefix("openclaw: error: OPENCLAW_CONTAINER=box runs the command"), "\(variable.stderr)")
    }

    @Test func updateBeforeTheCommandWordIsTheOfficialUpdate() throws {
        let official = try OfficialCLITests.StandIn(status: 0)
        for arguments in [["--update"], ["--log-level", "silent", "--update"]] {
            #expect(try official.cli.run(arguments).status == 0)
            #expect(try official.recordedArguments() == arguments)
        }
        var cli = CLIEnvironment()
        cli.variables["PATH"] = "/usr/bin:/bin"
        let alone = try cli.run(["--update"])
        #expect(alone.status == 2 && alone.stderr.contains("'update' is a command of the official OpenClaw CLI"), "\(alone.stderr)")
    }

    @Test func clawmonitorsPushGoesToTheOfficialCLIWithItsArgumentsAsGiven() throws {
        // push_notify.py: `openclaw --log-level silent message send --channel … --json`.
        let official = try OfficialCLITests.StandIn(status: 0)
        let arguments = ["--log-level", "silent", "message", "send", "--channel", "telegram", "--target", "123",
                         "--message", "hello", "--json"]
        #expect(try official.cli.run(arguments).status == 0)
        #expect(try official.recordedArguments() == arguments)
    }
}
