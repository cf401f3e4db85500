import Foundation
import Testing
@_spi(Engine) import ClawJSON
@testable import openclaw

/// `openclaw cron` (and `automations`), the official CLI's `list`, `runs` and `run`, against the
/// simulator's cron jobs.
@Suite("cron")
struct CLICronTests {
    /// openclaw/openclaw `src/cli/cron-cli/register.cron-simple.ts` and `list-jobs.ts` @03680854
    /// (2026.9.4): list --all --agent --json; runs --id --run-id --limit; run --due --wait
    /// --wait-timeout --poll-interval; the shared --url --token --password (our global flags) --port
    /// --timeout --expect-final.
    static let officialFlags: Set = ["json", "all", "agent", "id", "run-id", "limit", "due", "wait", "wait-timeout",
                                     "poll-interval", "port", "timeout", "expect-final"]

    @Test func theFlagsAreTheOfficialOnesUnderBothNames() throws {
        for name in ["cron", "automations"] {
            #expect(Set(try #require(CommandTable.command(named: name)).flags.map(\.long)) == Self.officialFlags)
        }
    }

    @Test func listMergesEveryPage() throws {
        let gateway = try GatewayFixture(["--cron-jobs", "450", "--cron-job", "paused,ok,1,disabled"])
        let result = try gateway.run(["automations", "list", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let merged = try JSONValue.parse(Array(result.stdout.utf8))
        #expect(result.stdout == merged.prettyText + "\n")
        let jobs = try #require(merged["jobs"]?.arrayValue)
        #expect(jobs.count == 450)  // the enabled ones: more than two pages of 200
        #expect(Set(jobs.compactMap { $0["id"]?.stringValue }).count == jobs.count)
        #expect(merged["hasMore"] == .bool(false) && merged["nextOffset"] == .null)
        #expect(jobs.allSatisfy { ["idle", "ok", "error", "skipped", "running", "disabled"].contains($0["status"]?.stringValue ?? "") })
        #expect(requests(gateway, "cron.list").map { $0["offset"]?.intValue } == [0, 200, 400])
        #expect(requests(gateway, "cron.list").allSatisfy { $0["limit"] == 200 && $0["includeDisabled"] == false })
        let all = try gateway.run(["cron", "list", "--all", "--json"])
        let everyJob = try JSONValue.parse(Array(all.stdout.utf8))["jobs"]?.arrayValue ?? []
        #expect(everyJob.count == 451 && everyJob.contains { $0["id"] == "paused" && $0["status"] == "disabled" })
        let table = try gateway.run(["cron", "list"])
        #expect(table.status == 0 && table.lines.first?.hasPrefix("ID") == true, "\(table.stdout)")
    }

    @Test func runWaitEndsWithTheRunsCompletion() throws {
        let gateway = try GatewayFixture()
        let success = try gateway.run(["cron", "run", "daily-digest", "--wait", "--poll-interval", "100ms"])
        #expect(success.status == 0, "\(success.stderr)")
        let document = try JSONValue.parse(Array(success.stdout.utf8))
        #expect(document["ok"] == .bool(true) && document["enqueued"] == .bool(true))
        #expect(document["completed"] == .bool(true))
        #expect(document["status"] == "ok" && document["completionStatus"] == "succeeded")
        #expect(document["run"]?["completionStatus"] == "succeeded")
        #expect(document["run"]?["runId"] == document["runId"])
        #expect(requests(gateway, "cron.run").first == ["id": "daily-digest", "mode": "force"])
        #expect(requests(gateway, "cron.runs").allSatisfy { $0["limit"] == 1 && $0["runId"] == document["runId"] })

        let failure = try gateway.run(["cron", "run", "flaky-export", "--wait", "--poll-interval", "100ms"])
        #expect(failure.status == 1, "\(failure.stderr)")
        #expect(try JSONValue.parse(Array(failure.stdout.utf8))["completionStatus"] == "failed")
        #expect(failure.stderr.contains("failed: "), "\(failure.stderr)")
    }

    @Test func runWithoutWaitAndTheWaitTimeout() throws {
        let gateway = try GatewayFixture(["--cron-job", "slow-job,ok,30", "--cron-job", "slower-job,ok,30"])
        let enqueued = try gateway.run(["cron", "run", "slow-job"])
        #expect(enqueued.status == 0, "\(enqueued.stderr)")
        #expect(try JSONValue.parse(Array(enqueued.stdout.utf8))["enqueued"] == .bool(true))
        let timedOut = try gateway.run(["cron", "run", "slower-job", "--wait", "--wait-timeout", "300ms", "--poll-interval", "100ms"])
        #expect(timedOut.status == 5, "\(timedOut.stderr)")
        #expect(timedOut.stderr.hasPrefix("openclaw: error: timed out waiting for cron run "), "\(timedOut.stderr)")
    }

    @Test func runsPrintsTheRunLog() throws {
        let gateway = try GatewayFixture()
        #expect(try gateway.run(["cron", "run", "daily-digest", "--wait", "--poll-interval", "100ms"]).status == 0)
        let runs = try gateway.run(["cron", "runs", "--id", "daily-digest"])
        #expect(runs.status == 0, "\(runs.stderr)")
        let log = try JSONValue.parse(Array(runs.stdout.utf8))
        #expect(log["entries"]?.arrayValue?.count == 1)
        #expect(log["entries"]?.arrayValue?.first?["status"] == "ok")
        #expect(requests(gateway, "cron.runs").last == ["id": "daily-digest", "limit": 50])
    }

    @Test func badInputIsOneLineAndTheEnvelopeUnderJson() throws {
        let gateway = try GatewayFixture()
        let missing = try gateway.run(["cron", "runs"])
        #expect(missing.status == 2 && missing.stderr == "openclaw: error: Missing job id. Pass it positionally or with --id.\n")
        let conflict = try gateway.run(["cron", "runs", "a", "--id", "b"])
        #expect(conflict.status == 2 && conflict.stderr == "openclaw: error: Conflicting job ids: a and b\n")
        let interval = try gateway.run(["cron", "run", "daily-digest", "--wait", "--poll-interval", "0"])
        #expect(interval.status == 2, "\(interval.stderr)")
        let unknown = try gateway.run(["cron", "run", "no-such-job", "--json"])
        #expect(unknown.status == 1, "\(unknown.stderr)")
        let envelope = try JSONValue.parse(Array(unknown.stdout.utf8))
        #expect(envelope["ok"] == .bool(false) && envelope["error"]?["type"] == "cli_error")
        #expect(envelope["error"]?["message"]?.stringValue?.contains("id not found") == true, "\(unknown.stdout)")
        #expect(unknown.stderr.split(separator: "\n").count == 1)
    }
}
