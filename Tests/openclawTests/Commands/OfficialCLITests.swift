import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawSystem

/// Beside the official CLI: commands we do not have run a stand-in "official" `openclaw` found
/// later on PATH (a script that records its argv, one per line, NUL-terminated, and its stdin, and
/// exits with a chosen status); `gateway call` is answered natively, in the official CLI's words.
@Suite("Beside the official CLI")
struct OfficialCLITests {
    /// A directory holding a stand-in official `openclaw`, and a CLI environment with it on PATH.
    struct StandIn {
        let directory: URL
        var cli: CLIEnvironment

        init(status: Int32 = 7, script: String? = nil) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("official-\(UUID().uuidString)")
            let bin = directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let body = script ?? """
                for argument in "$@"; do printf '%s\\0' "$argument"; done > "\(directory.path)/argv"
                cat > "\(directory.path)/stdin"
                exit \(status)
                """
            let path = bin.appendingPathComponent("openclaw")
            try ("#!/bin/sh\n" + body + "\n").write(to: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path.path)
            cli = CLIEnvironment()
            cli.variables["PATH"] = "/usr/bin:/bin:" + bin.path
        }

        var executable: String { directory.appendingPathComponent("bin/openclaw").path }

        func recordedArguments() throws -> [String] {
            let data = try Data(contentsOf: directory.appendingPathComponent("argv"))
            return data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        }

        func recordedStdin() throws -> String {
            try String(contentsOf: directory.appendingPathComponent("stdin"), encoding: .utf8)
        }
    }

    @Test func aCommandWeDoNotHaveRunsTheOfficialCLIWithItsArgumentsStdinAndStatus() throws {
        let official = try StandIn(status: 7)
        let arguments = ["--quiet", "doctor", "--fix", "two words", "it's \"quoted\"", "", "--", "-x"]
        let result = try official.cli.run(arguments, stdin: Data("line one\nline two\n".utf8))
        #expect(result.status == 7, "\(result.stderr)")
        #expect(try official.recordedArguments() == arguments)
        #expect(try official.recordedStdin() == "line one\nline two\n")
        #expect(result.stderr.isEmpty && result.stdout.isEmpty)
    }

    @Test func gatewaySubcommandsOtherThanCallAndHelpForAnOfficialCommandAreHandedOver() throws {
        let official = try StandIn(status: 0)
        #expect(try official.cli.run(["gateway", "status", "--deep"]).status == 0)
        #expect(try official.recordedArguments() == ["gateway", "status", "--deep"])
        #expect(try official.cli.run(["help", "onboard"]).status == 0)
        #expect(try official.recordedArguments() == ["help", "onboard"])
        // Ours stay ours: nothing is recorded for them.
        try? FileManager.default.removeItem(at: official.directory.appendingPathComponent("argv"))
        #expect(try official.cli.run(["help", "send"]).stdout.hasPrefix("Usage: openclaw send"))
        #expect(try official.cli.run(["version"]).stdout.contains("official-cli \(official.executable)\n"))
        #expect(try official.cli.run(["help"]).stdout.contains("Commands of the official OpenClaw CLI, run by it (\(official.executable)):"))
        #expect(!FileManager.default.fileExists(atPath: official.directory.appendingPathComponent("argv").path))
    }

    @Test func aSignalReachesTheOfficialCLI() throws {
        let official = try StandIn(script: """
            trap 'echo terminated; exit 42' TERM
            echo ready
            while :; do sleep 0.05; done
            """)
        let process = try official.cli.start(["tui"])
        #expect(process.waitForStdout("ready"))
        process.send(signal: SIGTERM)
        let result = process.finish()
        #expect(result.status == 42)
        #expect(result.stdout == "ready\nterminated\n")
    }

    @Test func withoutAnOfficialCLIOneLineSaysWhereItShouldBe() throws {
        var cli = CLIEnvironment()
        cli.variables["PATH"] = "/usr/bin:/bin"
        let result = try cli.run(["doctor", "--fix"])
        #expect(result.status == 2)
        #expect(result.stderr == "openclaw: error: 'doctor' is a command of the official OpenClaw CLI, which was not found on PATH; "
            + "install it (npm install -g openclaw) or set OPENCLAW_OFFICIAL_CLI to its path\n")
        // A word neither CLI has is still our typo.
        let typo = try cli.run(["hisotry"])
        #expect(typo.status == 2 && typo.stderr.contains("did you mean 'history'?"), "\(typo.stderr)")
    }

    @Test func aSymlinkToThisBinaryOnPathIsSkippedNotLoopedThrough() throws {
        let official = try StandIn(status: 5)
        let links = official.directory.appendingPathComponent("ours")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: links.appendingPathComponent("openclaw"),
                                                   withDestinationURL: BuiltProducts.executable("openclaw"))
        var cli = official.cli
        cli.variables["PATH"] = links.path + ":" + (cli.variables["PATH"] ?? "")
        let result = try cli.run(["status"])
        #expect(result.status == 5, "\(result.stderr)")
        #expect(try official.recordedArguments() == ["status"])
        // With only the symlink to ourselves on PATH: the not-found line, at once.
        cli.variables["PATH"] = links.path + ":/usr/bin:/bin"
        let alone = try cli.run(["status"])
        #expect(alone.status == 2 && alone.stderr.contains("was not found on PATH"), "\(alone.stderr)")
    }

    @Test func aCopyOfThisClientOnPathRefusesToHandOverAgain() throws {
        let official = try StandIn()
        let copies = official.directory.appendingPathComponent("copy")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BuiltProducts.executable("openclaw"), to: copies.appendingPathComponent("openclaw"))
        var cli = official.cli
        cli.variables["PATH"] = copies.path + ":/usr/bin:/bin"
        let result = try cli.run(["status"], timeout: 30)
        #expect(result.status == 2)
        #expect(result.stderr.contains("was handed over to another copy of this client"), "\(result.stderr)")
    }

    @Test func officialCLIVariableWinsOverPath() throws {
        let onPath = try StandIn(status: 3)
        let named = try StandIn(status: 9)
        var cli = onPath.cli
        cli.variables["OPENCLAW_OFFICIAL_CLI"] = named.executable
        #expect(try cli.run(["models", "list"]).status == 9)
        #expect(try named.recordedArguments() == ["models", "list"])
        cli.variables["OPENCLAW_OFFICIAL_CLI"] = BuiltProducts.executable("openclaw").path
        let ourselves = try cli.run(["models"])
        #expect(ourselves.status == 2 && ourselves.stderr.contains("is this client, not the official OpenClaw CLI"), "\(ourselves.stderr)")
    }

    // MARK: gateway call, answered natively

    @Test func gatewayCallPrintsWhatTheOfficialCLIPrints() throws {
        let gateway = try GatewayFixture()
        let params = #"{"sessionKey":"main","message":"hi","idempotencyKey":"gw-call-1"}"#
        let result = try gateway.run(["gateway", "call", "chat.send", "--params", params])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Gateway call: chat.send\n{\n  \"runId\": \"gw-call-1\",\n  \"status\": \"started\"\n}\n")
        #expect(result.stderr.isEmpty)
        let second = #"{"sessionKey":"main","message":"hi","idempotencyKey":"gw-call-2"}"#
        let json = try gateway.run(["gateway", "call", "chat.send", "--params", second, "--json"])
        #expect(json.status == 0)
        #expect(json.stdout == "{\n  \"runId\": \"gw-call-2\",\n  \"status\": \"started\"\n}\n", "\(json.stdout)")
        #expect(gateway.receivedMethods().filter { $0 == "chat.send" }.count == 2)
    }

    @Test func aGatewayErrorIsOneStderrLineOrTheJSONEnvelopeAndExit1() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["gateway", "call", "chat.history", "--params", #"{"limit":"many"}"#])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let line = try #require(result.stderr.split(separator: "\n").first.map(String.init))
        #expect(line.hasPrefix("Gateway call failed: GatewayClientRequestError: "), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)

        let json = try gateway.run(["gateway", "call", "chat.history", "--params", #"{"limit":"many"}"#, "--json"])
        #expect(json.status == 1 && json.stderr.isEmpty)
        let envelope = try JSONValue.parse(Array(json.stdout.utf8))
        #expect(json.stdout == envelope.prettyText + "\n")
        #expect(envelope["ok"] == .bool(false))
        #expect(envelope["error"]?.objectValue?.members.map(\.key).prefix(3) == ["type", "code", "message"])
        #expect(envelope["error"]?["type"] == "gateway_request_error")
        #expect(envelope["error"]?["code"] == "INVALID_REQUEST")
        #expect(envelope["error"]?["retryable"] == .bool(false))
        #expect(line == "Gateway call failed: GatewayClientRequestError: " + (envelope["error"]?["message"]?.stringValue ?? "?"))
    }

    @Test func aTimeoutNamesTheTargetAsTheOfficialCLIDoes() throws {
        // A listener that accepts and never answers the upgrade.
        let listener = try TCPListener(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let url = "ws://127.0.0.1:\(listener.port)"
        var cli = CLIEnvironment()
        cli.variables["PATH"] = "/usr/bin:/bin"
        let result = try cli.run(["gateway", "call", "health", "--url", url, "--token", "t", "--timeout", "400"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let config = cli.stateDirectory.appendingPathComponent("openclaw.json").path
        #expect(result.stderr == "Gateway call failed: GatewayTransportError: gateway timeout after 400ms\n"
            + "Gateway target: \(url)\nSource: cli --url\nConfig: \(config)\n")
        let json = try cli.run(["gateway", "call", "health", "--url", url, "--token", "t", "--timeout", "300", "--json"])
        #expect(json.status == 1 && json.stderr.isEmpty)
        #expect(json.stdout == """
            {
              "ok": false,
              "error": {
                "type": "gateway_transport_error",
                "kind": "timeout",
                "message": "gateway timeout after 300ms",
                "timeoutMs": 300
              },
              "gateway": {
                "url": "\(url)",
                "urlSource": "cli --url"
              }
            }

            """)
    }

    @Test func badParamsAndTimeoutsAreTheOfficialCLIsLines() throws {
        var cli = CLIEnvironment()
        cli.variables["PATH"] = "/usr/bin:/bin"
        let params = try cli.run(["gateway", "call", "health", "--params", "{nope"])
        #expect(params.status == 1 && params.stderr == "Gateway call failed: Error: --params must be valid JSON.\n")
        let timeout = try cli.run(["gateway", "call", "health", "--timeout", "10s", "--json"])
        #expect(timeout.status == 1 && timeout.stderr
            == "Gateway call failed: Error: Invalid --timeout. Use a positive millisecond value, e.g. --timeout 30000. Received: \"10s\".\n")
        #expect(try cli.run(["gateway", "call"]).stderr == "error: missing required argument 'method'\n")
    }

    // MARK: the list of the official CLI's commands

    /// An official CLI installed on this machine (not this client), if any.
    static let installedOfficialCLI: String? = {
        let ours = BuiltProducts.executable("openclaw").resolvingSymlinksInPath().path
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = URL(fileURLWithPath: String(directory)).appendingPathComponent("openclaw")
            guard FileManager.default.isExecutableFile(atPath: path.path), path.resolvingSymlinksInPath().path != ours,
                  let data = FileManager.default.contents(atPath: path.resolvingSymlinksInPath().path),
                  data.range(of: Data("a scriptable client for the OpenClaw Gateway".utf8)) == nil else { continue }
            return path.path
        }
        return nil
    }()

    /// Where an official CLI is installed, every top-level command its `help` lists is on our list
    /// (or is one of ours), so it is offered by completion and named in our help.
    @Test(.enabled(if: installedOfficialCLI != nil)) func theListCoversTheInstalledOfficialCLI() throws {
        let help = try DocsTestSupport.run(URL(fileURLWithPath: try #require(Self.installedOfficialCLI)), ["help"])
        let listed = help.lines.drop { !$0.hasPrefix("Commands:") }.dropFirst()
            .prefix { $0.hasPrefix("  ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { !$0.hasPrefix("-") }
        #expect(!listed.isEmpty, "\(help.stdout)")
        let ours: Set = ["history", "send", "abort", "watch", "call", "gateway", "completion", "help", "version"]
        let known = ours.union(try officialCommandsFromHelp())
        #expect(Set(listed).subtracting(known).isEmpty, "missing from OfficialCommands: \(Set(listed).subtracting(known).sorted())")
    }
}
