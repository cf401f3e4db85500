import Foundation
import Testing
@_spi(Engine) import ClawJSON
@testable import openclaw

/// `openclaw logs`, the official CLI's, against the simulator's file log: the records of `--json`,
/// the text lines, `--follow` through a rotation, a signal, and a million lines in constant memory.
@Suite("logs")
struct CLILogsTests {
    /// openclaw/openclaw `src/cli/logs-cli.ts` (2026.9.4): --limit, --max-bytes, --interval, --follow,
    /// --json, --plain, --utc, --local-time (also --no-color, our global flag), and the shared
    /// --url --token --password (our global flags) --port --timeout --expect-final.
    static let officialFlags: Set = ["limit", "max-bytes", "interval", "follow", "json", "plain", "utc", "local-time",
                                     "port", "timeout", "expect-final"]

    @Test func theFlagsAreTheOfficialOnes() throws {
        #expect(Set(try #require(CommandTable.command(named: "logs")).flags.map(\.long)) == Self.officialFlags)
    }

    @Test func jsonWritesTheOfficialRecords() throws {
        let gateway = try GatewayFixture(["--log-raw-line", "not json at all"])
        let result = try gateway.run(["logs", "--json", "--limit", "50"])
        #expect(result.status == 0, "\(result.stderr)")
        let records = result.frames
        #expect(records.first?["type"]?.stringValue == "meta")
        #expect(records.first?["sourceKind"]?.stringValue == "file")
        #expect(records.first?["file"]?.stringValue?.hasSuffix(".log") == true)
        #expect(records.contains { $0 == ["type": "raw", "raw": "not json at all"] })
        let log = try #require(records.first { $0["type"]?.stringValue == "log" })
        #expect(log.objectValue?.members.map(\.key) == ["type", "time", "level", "subsystem", "message", "raw"])
        #expect(log["level"]?.stringValue == "info")
        #expect(log["subsystem"]?.stringValue == "gateway/ws")
        #expect(log["message"]?.stringValue?.hasPrefix("cli connected") == true)
        #expect(requests(gateway, "logs.tail").first == ["limit": 50, "maxBytes": 250000])
        #expect(result.stderr.isEmpty)
    }

    /// `src/logging/parse-log-line.ts` @b876f720: the arguments joined, `_meta`'s name, level and date.
    @Test func aTslogLineBecomesALogRecord() throws {
        let raw = #"{"0":"client connected","1":{"n":2},"_meta":{"name":"{\"subsystem\":\"gateway/ws\",\"module\":\"ws\"}","logLevelName":"WARN","date":"2026-09-13T10:15:02.123Z"}}"#
        let record = LogPrinter.record(try JSONValue.parse(Array(raw.utf8)), raw: raw)
        #expect(JSONValue.object(record) == ["type": "log", "time": "2026-09-13T10:15:02.123Z", "level": "warn", "subsystem": "gateway/ws",
                                             "module": "ws", "message": #"client connected {"n":2}"#, "raw": .string(raw)])
    }

    @Test func textPrintsTheFileThenOneLineEach() throws {
        let gateway = try GatewayFixture()
        let result = try gateway.run(["logs", "--utc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first?.hasPrefix("Log file: /tmp/openclaw-sim/openclaw-") == true)
        #expect(result.lines.dropFirst().first?.contains(" info gateway/ws cli connected") == true, "\(result.stdout)")
    }

    @Test func followRidesARotationWithOneNoticeAndEndsOnASignal() throws {
        let gateway = try GatewayFixture(["--log-rotate-after-polls", "3"])
        let logs = try gateway.cli.start(["logs", "--follow", "--json", "--interval", "20"])
        #expect(logs.waitForStdout("Log cursor reset (file rotated)."), "\(logs.stdout)")
        logs.send(signal: SIGINT)
        let result = logs.finish()
        #expect(result.status == 130, "\(result.stderr)")
        let notices = result.frames.filter { $0["type"]?.stringValue == "notice" }
        #expect(notices.first == ["type": "notice", "message": "Log cursor reset (file rotated)."])
        #expect(result.frames.filter { $0["type"]?.stringValue == "meta" }.count >= 2)  // the new file named
        #expect(result.frames.allSatisfy { $0["type"] != nil })
    }

    @Test func badFlagsAndAGatewayErrorAreOneLine() throws {
        let gateway = try GatewayFixture()
        let limit = try gateway.run(["logs", "--limit", "0"])
        #expect(limit.status == 2 && limit.stderr == "openclaw: error: --limit must be a positive integer.\n")
        let tooMany = try gateway.run(["logs", "--limit", "9000"])
        #expect(tooMany.status == 1, "\(tooMany.stderr)")
        #expect(tooMany.stderr.hasPrefix("openclaw: error: logs.tail failed: INVALID_REQUEST"), "\(tooMany.stderr)")
        #expect(tooMany.stdout.isEmpty)
    }

    /// A million lines followed: every one printed once, and the follower's peak memory flat.
    @Test(.notUnderQEMU("its peak RSS, read by /usr/bin/time, would be the emulator's, not the program's"))
    func followingAMillionLinesKeepsMemoryFlat() throws {
        func follow(_ lines: Int) throws -> (kilobytes: Int, records: Int) {
            let gateway = try GatewayFixture(["--log-append-per-poll", "5000"])
            let output = gateway.cli.home.appendingPathComponent("peak.txt")
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/usr/bin/time")
            shell.arguments = ["-f", "%M", "-o", output.path, BuiltProducts.executable("openclaw").path,
                               "logs", "--follow", "--json", "--limit", "5000", "--max-bytes", "1000000", "--interval", "0"]
            shell.environment = gateway.cli.variables
            let counter = Pipe()
            shell.standardOutput = counter
            try shell.run()
            var records = 0
            let handle = counter.fileHandleForReading
            // The appended lines (raw records) until `lines` of them; then the reader goes away.
            var pending = [UInt8]()
            reading: while true {
                let data = handle.availableData
                if data.isEmpty { break }
                for byte in data {
                    if byte != 0x0A { if pending.count < 64 { pending.append(byte) }; continue }
                    if pending.starts(with: Array(#"{"type":"raw","raw":"follow line"#.utf8)) { records += 1 }
                    pending.removeAll(keepingCapacity: true)
                    if records == lines { break reading }
                }
            }
            try handle.close()
            shell.waitUntilExit()
            let text = try String(contentsOf: output, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return (Int(text.split(separator: "\n").last ?? "") ?? -1, records)
        }
        let small = try follow(10_000)
        let large = try follow(1_000_000)
        #expect(small.records == 10_000 && large.records == 1_000_000)
        #expect(large.kilobytes > 0 && large.kilobytes < 24 * 1024, "peak RSS \(large.kilobytes) KiB")
        #expect(large.kilobytes - small.kilobytes < 4 * 1024, "10k lines: \(small.kilobytes) KiB, 1M: \(large.kilobytes) KiB")
    }
}
