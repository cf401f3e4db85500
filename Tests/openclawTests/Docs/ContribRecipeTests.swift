import Foundation
import Testing
@_spi(Engine) import ClawJSON
@testable import openclaw

/// The cron line (contrib/cron/openclaw.crontab) and the systemd user unit
/// (contrib/systemd/openclaw-watch.service), run as cron and systemd would run them against the
/// simulator; the README shows the cron line and describes the unit.
@Suite struct ContribRecipeTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let crontab = repository.appendingPathComponent("contrib/cron/openclaw.crontab")
    static let unit = repository.appendingPathComponent("contrib/systemd/openclaw-watch.service")

    // MARK: cron

    /// The one schedule line: (the five time fields, the command as cron hands it to /bin/sh).
    static func cronEntry() throws -> (schedule: [String], command: String) {
        let text = try String(contentsOf: crontab, encoding: .utf8)
        let entries = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard entries.count == 1 else { throw CLIProcessError(description: "expected one cron line, found \(entries.count)") }
        var fields = entries[0].split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true).map(String.init)
        guard fields.count == 6 else { throw CLIProcessError(description: "not a cron line: \(entries[0])") }
        let raw = fields.removeLast()
        // cron(8): an unescaped % ends the command (the rest is stdin); \% is a literal %.
        var command = "", escaped = false
        for character in raw {
            if escaped { command.append(character == "%" ? "%" : "\\\(character)"); escaped = false; continue }
            if character == "\\" { escaped = true; continue }
            if character == "%" { throw CLIProcessError(description: "bare % in the cron command: cron would cut it there") }
            command.append(character)
        }
        if escaped { command.append("\\") }
        return (fields, command)
    }

    /// Runs the command the way cron does: /bin/sh -c, cron's small environment, stdin /dev/null.
    static func runCron(_ command: String, gateway: GatewayFixture, home: URL) throws -> CLIResult {
        var environment = gateway.cli.variables
        environment["HOME"] = home.path
        environment["SHELL"] = "/bin/sh"
        environment["LOGNAME"] = "cron-test"
        environment["PATH"] = BuiltProducts.directory.path + ":/usr/bin:/bin"
        environment["OPENCLAW_STATE_DIR"] = home.appendingPathComponent(".openclaw").path
        let process = try CLIProcess(["-c", command], environment: environment, executable: URL(fileURLWithPath: "/bin/sh"))
        return process.finish(timeout: 120)
    }

    /// Final chat events the simulator sent for `runId`: one per agent run.
    static func finals(_ gateway: GatewayFixture, runId: String) -> Int {
        gateway.simulator.logEntries().filter {
            $0["dir"]?.stringValue == "out" && $0["frame"]?["event"]?.stringValue == "chat"
                && $0["frame"]?["payload"]?["state"]?.stringValue == "final"
                && $0["frame"]?["payload"]?["runId"]?.stringValue == runId
        }.count
    }

    @Test func theCronLineIsScheduledDailyWithTimeoutFlockAndAnIdempotencyKey() throws {
        let entry = try Self.cronEntry()
        #expect(entry.schedule == ["30", "7", "*", "*", "*"])
        #expect(entry.command.hasPrefix("flock -n -E 75 "))
        #expect(entry.command.contains(" timeout -k 10 660 openclaw send "))
        #expect(entry.command.contains("--idempotency-key \"report-$(date +%F)\""))
        let text = try String(contentsOf: Self.crontab, encoding: .utf8)
        // The comment explains the statuses a cron job sees, with openclaw's numbers.
        let explained: [(openclaw.ExitStatus, String)] = [(.success, "sent"), (.gatewayError, "the gateway refused"),
            (.connection, "gateway unreachable"), (.authentication, "authentication or pairing"), (.timeout, "timed out")]
        for (status, meaning) in explained {
            #expect(text.contains("\(status.rawValue) \(meaning)"), "exit status \(status.rawValue) explained")
        }
        #expect(text.contains("75 skipped") && text.contains("124 killed"))
    }

    @Test func theCronLineSendsOncePerDayEvenWhenRetriedAndSkipsWhileLocked() throws {
        let command = try Self.cronEntry().command
        let gateway = try GatewayFixture(["--reply", "lorem:5"])
        let home = gateway.cli.home
        let report = home.appendingPathComponent("openclaw-report.txt")
        let runId = "report-" + (try Self.today())

        let first = try Self.runCron(command, gateway: gateway, home: home)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.isEmpty && first.stderr.isEmpty, "cron would mail: \(first.stdout)\(first.stderr)")
        let written = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        #expect(written.split(separator: " ").count >= 5, "report: \(written)")
        #expect(Self.finals(gateway, runId: runId) == 1)

        // A retry the same day: exit 0, and the agent does not run again.
        let retry = try Self.runCron(command, gateway: gateway, home: home)
        #expect(retry.status == 0, "\(retry.stderr)")
        #expect(Self.finals(gateway, runId: runId) == 1)
        let sends = gateway.receivedMethods().filter { $0 == "chat.send" }.count
        #expect(sends == 2)

        // Another run holds the lock: skipped with 75, nothing sent.
        let lockPath = home.appendingPathComponent(".openclaw-report.lock").path
        let lock = open(lockPath, O_RDWR | O_CREAT, 0o600)
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        let locked = try Self.runCron(command, gateway: gateway, home: home)
        close(lock)
        #expect(locked.status == 75)
        #expect(gateway.receivedMethods().filter { $0 == "chat.send" }.count == sends)
    }

    @Test func theCronLineExitsThreeWhenTheGatewayIsDown() throws {
        let command = try Self.cronEntry().command
        let gateway = try GatewayFixture()
        gateway.simulator.stop()
        let result = try Self.runCron(command, gateway: gateway, home: gateway.cli.home)
        #expect(result.status == ExitStatus.connection.rawValue, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("openclaw: error: "))
    }

    static func today() throws -> String {
        let date = try CLIProcess(["+%F"], environment: ["PATH": "/usr/bin:/bin"], executable: URL(fileURLWithPath: "/bin/date")).finish()
        return date.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: systemd

    /// `Key=value` lines of the unit, in order (comments and section headers left out).
    static func unitSettings() throws -> [(key: String, value: String)] {
        try String(contentsOf: unit, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("["), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    static func setting(_ key: String) throws -> String? { try unitSettings().first { $0.key == key }?.value }

    @Test func theUnitRestartsOnFailureButNotForWhatARestartCannotFix() throws {
        #expect(try Self.setting("ExecStart") == "/usr/bin/openclaw watch --client-events")
        #expect(try Self.setting("Restart") == "on-failure")
        let prevented = try #require(try Self.setting("RestartPreventExitStatus"))
        #expect(prevented == [ExitStatus.usage, .authentication, .protocolError].map { String($0.rawValue) }.joined(separator: " "))
        #expect(try Self.setting("StandardOutput") == "journal")
        #expect(try Self.setting("StandardError") == "journal")
        #expect(try Self.setting("WantedBy") == "default.target")
    }

    /// The unit's ExecStart with the built binary in place of /usr/bin/openclaw.
    static func execStart(extra: [String]) throws -> [String] {
        let words = try #require(try setting("ExecStart")).split(separator: " ").map(String.init)
        #expect(words.first == "/usr/bin/openclaw")
        return Array(words.dropFirst()) + extra
    }

    @Test func theUnitsCommandStreamsEventsAndStopsCleanlyOnSIGTERM() throws {
        let gateway = try GatewayFixture(["--reply", "lorem:3"])
        let watch = try gateway.cli.start(try Self.execStart(extra: []))
        try waitUntilConnected(gateway.simulator)
        #expect(try gateway.run(["send", "--idempotency-key", "unit-run", "hello"]).status == 0)
        #expect(watch.waitForStdout(#""state":"final""#))
        // systemctl stop sends SIGTERM: exit 143, which the unit names a success, so Restart=on-failure
        // does not fire.
        #expect(try Self.setting("SuccessExitStatus") == "143")
        watch.send(signal: SIGTERM)
        let result = watch.finish(timeout: 30)
        #expect(result.status == 143, "\(result.stderr)")
        #expect(result.frames.allSatisfy { $0["type"]?.stringValue == "event" || $0["type"]?.stringValue == "client" })
        #expect(result.frames.contains { $0["payload"]?["runId"]?.stringValue == "unit-run" })
    }

    @Test func theUnitsCommandReportsReconnectsAsClientEvents() throws {
        let first = try SimulatorProcess(["--token", GatewayFixture.token])
        let cli = CLIEnvironment(url: first.url, token: GatewayFixture.token)
        let watch = try cli.start(try Self.execStart(extra: ["--backoff-base", "0.05", "--backoff-max", "0.2"]))
        try waitUntilConnected(first)
        first.kill()
        #expect(watch.waitForStdout(#""event":"disconnected""#))
        let second = try SimulatorProcess(["--token", GatewayFixture.token], port: first.port)
        #expect(watch.waitForStdout(#""event":"reconnected""#))
        watch.send(signal: SIGTERM)
        #expect(watch.finish(timeout: 30).status == 143)
        second.stop()
    }

    static var systemdAnalyze: URL? {
        ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// `systemd-analyze --user verify` on a copy of the unit whose ExecStart is the built binary and
    /// whose man page is found through MANPATH: (status, everything it printed).
    static func verify(_ text: String) throws -> (status: Int32, output: String) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("unit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let runtime = scratch.appendingPathComponent("runtime"), man1 = scratch.appendingPathComponent("man/man1")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: man1, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("man/openclaw.1"), to: man1.appendingPathComponent("openclaw.1"))
        let unitCopy = scratch.appendingPathComponent("openclaw-watch.service")
        try text.replacingOccurrences(of: "ExecStart=/usr/bin/openclaw ", with: "ExecStart=\(BuiltProducts.executable("openclaw").path) ")
            .write(to: unitCopy, atomically: true, encoding: .utf8)
        let environment = ["PATH": "/usr/bin:/bin", "HOME": scratch.path, "XDG_RUNTIME_DIR": runtime.path,
                           "MANPATH": scratch.appendingPathComponent("man").path, "SYSTEMD_LOG_COLOR": "0"]
        let process = try CLIProcess(["--user", "verify", unitCopy.path], environment: environment, executable: try #require(systemdAnalyze))
        let result = process.finish(timeout: 60)
        return (result.status, result.stdout + result.stderr)
    }

    @Test(.enabled(if: systemdAnalyze != nil,
                   "NOTE: systemd-analyze is not installed; the unit was not checked with `systemd-analyze verify`"))
    func systemdAnalyzeVerifyAcceptsTheUnit() throws {
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        let verdict = try Self.verify(text)
        #expect(verdict.status == 0 && verdict.output.isEmpty, "\(verdict.output)")
        // The check can fail: a misspelt setting is reported.
        let broken = try Self.verify(text.replacingOccurrences(of: "Restart=on-failure", with: "Restart=on-failur"))
        #expect(broken.output.contains("on-failur"), "systemd-analyze verify accepted a broken unit")
    }

    // MARK: README

    /// The README shows the cron line as the file has it, and points at the unit file it describes.
    @Test func theReadmeShowsTheRecipesAsTheFilesHaveThem() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let entry = try String(contentsOf: Self.crontab, encoding: .utf8).split(separator: "\n")
            .first { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(readme.contains(String(try #require(entry))))
        #expect(readme.contains("(contrib/systemd/openclaw-watch.service)"), "the README's link to the unit")
        #expect(readme.contains("install -D -m 0644 contrib/systemd/openclaw-watch.service"))
        let unit = try String(contentsOf: Self.unit, encoding: .utf8)
        for setting in ["ExecStart=/usr/bin/openclaw watch --client-events", "RestartPreventExitStatus=2 4 6",
                        "StartLimitIntervalSec=600", "StartLimitBurst=5"] {
            #expect(unit.contains(setting), "the README describes \(setting)")
        }
    }
}
