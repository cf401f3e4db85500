import Foundation
import Testing
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawProtocol

/// `cron.list`, `cron.run` and `cron.runs` over the simulator's jobs: the official pages, run
/// outcomes, history, errors and scopes.
@Suite(.serialized) struct SimulatorCronTests {
    private static let admin = ["operator.admin"]

    private func payload(_ response: JSONValue) throws -> JSONValue {
        guard response["ok"] == true, let payload = response["payload"] else {
            throw TestGatewayClient.Failure(description: "failed: \(response.compactText)")
        }
        return payload
    }

    private func ids(_ page: JSONValue) -> [String] { (page["jobs"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue } }

    /// Waits for the `cron` event saying `jobId`'s run finished (no sleeping).
    private func finished(_ client: TestGatewayClient, _ jobId: String) throws -> JSONValue {
        try client.frame(timeout: 20) {
            $0["event"] == "cron" && $0["payload"]?["jobId"]?.stringValue == jobId && $0["payload"]?["action"] == "finished"
        }["payload"] ?? .null
    }

    @Test func theDefaultJobsAreListedAsTheOfficialCronJob() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let enabled = try payload(try client.call(GatewayMethod.cronList, [:]))
        #expect(ids(enabled) == ["daily-digest", "flaky-export"] || ids(enabled) == ["flaky-export", "daily-digest"])
        #expect(enabled.objectValue?.keys == ["jobs", "snapshotRevision", "total", "offset", "limit", "hasMore", "nextOffset",
                                              "deliveryPreviews"])
        #expect(enabled["total"] == 2 && enabled["offset"] == 0 && enabled["limit"] == 2)
        #expect(enabled["hasMore"] == false && enabled["nextOffset"] == .null)
        #expect(enabled["snapshotRevision"]?.stringValue?.hasPrefix("sha256:") == true)
        #expect(enabled["deliveryPreviews"]?["daily-digest"] == ["label": "not requested", "detail": "not requested"])
        let all = try payload(try client.call(GatewayMethod.cronList, ["includeDisabled": true]))
        #expect(ids(all).count == 3 && ids(all).last == "weekly-cleanup")
        let digest = try #require(all["jobs"]?.arrayValue?.first { $0["id"] == "daily-digest" })
        #expect(digest["name"] == "Daily digest" && digest["enabled"] == true && digest["agentId"] == "main")
        #expect(digest["schedule"] == ["kind": "cron", "expr": "0 9 * * *", "tz": "UTC"])
        #expect(digest["sessionTarget"] == "isolated" && digest["wakeMode"] == "now")
        #expect(digest["payload"]?["kind"] == "agentTurn")
        #expect(digest["state"]?["nextRunAtMs"] != nil && digest["nextRunAtMs"] == digest["state"]?["nextRunAtMs"])
        let cleanup = try #require(all["jobs"]?.arrayValue?.last)
        #expect(cleanup["enabled"] == false && cleanup["state"] == [:] && cleanup["nextRunAtMs"] == nil)
        // Sorted by next run: the one due first leads.
        let next = (enabled["jobs"]?.arrayValue ?? []).compactMap { $0["nextRunAtMs"]?.int64Value }
        #expect(next == next.sorted())
    }

    @Test func moreThanTwoHundredJobsComeInPages() throws {
        let sim = try SimulatorProcess(["--cron-jobs", "250"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        let first = try payload(try client.call(GatewayMethod.cronList, ["includeDisabled": true]))
        #expect(first["limit"] == 200 && first["total"] == 250 && first["hasMore"] == true && first["nextOffset"] == 200)
        #expect(ids(first).count == 200)
        let second = try payload(try client.call(GatewayMethod.cronList, ["includeDisabled": true, "offset": 200]))
        #expect(ids(second).count == 50 && second["hasMore"] == false && second["nextOffset"] == .null)
        #expect(Set(ids(first) + ids(second)) == Set((1...250).map { String(format: "job-%04d", $0) }))
        #expect(first["snapshotRevision"] == second["snapshotRevision"])
        let small = try payload(try client.call(GatewayMethod.cronList, ["limit": 100, "offset": 240]))
        #expect(ids(small).count == 10 && small["limit"] == 100 && small["nextOffset"] == .null)
        let compact = try payload(try client.call(GatewayMethod.cronList, ["compact": true, "limit": 1]))
        #expect(compact["deliveryPreviews"] == nil)
        #expect(compact["jobs"]?.arrayValue?.first?.objectValue?.keys
            == ["id", "name", "enabled", "nextRunAtMs", "scheduleKind", "lastRunAtMs", "lastRunStatus", "lastRunError"])
        let tooMany = try client.call(GatewayMethod.cronList, ["limit": 201])
        #expect(tooMany["error"] == ["code": "INVALID_REQUEST", "message": "invalid cron.list params: at /limit: must be <= 200"])
        let unknown = try client.call(GatewayMethod.cronList, ["page": 2])
        #expect(unknown["error"]?["message"] == "invalid cron.list params: at root: unexpected property 'page'")
    }

    @Test func queryAndAgentFilterTheList() throws {
        let sim = try SimulatorProcess(["--cron-job", "nightly-backup", "--cron-job", "ops-report,agent:ops", "--cron-job", "old,disabled"])
        let client = try TestGatewayClient.connected(sim, scopes: ["operator.read"])
        #expect(ids(try payload(try client.call(GatewayMethod.cronList, ["query": "BACKUP"]))) == ["nightly-backup"])
        #expect(ids(try payload(try client.call(GatewayMethod.cronList, ["agentId": "ops"]))) == ["ops-report"])
        #expect(ids(try payload(try client.call(GatewayMethod.cronList, ["enabled": "disabled"]))) == ["old"])
        #expect(try payload(try client.call(GatewayMethod.cronList, ["query": "nothing"]))["limit"] == 50)
    }

    @Test func aForcedRunIsEnqueuedAndFinishesIntoTheHistory() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: Self.admin)
        let before = try payload(try client.call(GatewayMethod.cronList, [:]))["snapshotRevision"]
        let run = try payload(try client.call(GatewayMethod.cronRun, ["id": "daily-digest", "mode": "force"]))
        #expect(run.objectValue?.keys == ["ok", "enqueued", "runId", "processInstanceId"])
        let runId = try #require(run["runId"]?.stringValue)
        #expect(runId.hasPrefix("manual:daily-digest:"))
        let event = try finished(client, "daily-digest")
        #expect(event["status"] == "ok")
        let runs = try payload(try client.call(GatewayMethod.cronRuns, ["id": "daily-digest", "runId": .string(runId), "limit": 1]))
        #expect(runs["total"] == 1 && runs["hasMore"] == false && runs["nextOffset"] == .null)
        let entry = try #require(runs["entries"]?.arrayValue?.first)
        #expect(entry["jobId"] == "daily-digest" && entry["action"] == "finished" && entry["status"] == "ok")
        #expect(entry["runId"]?.stringValue == runId && entry["jobName"] == "Daily digest")
        #expect(entry["deliveryStatus"] == "not-requested" && entry["error"] == nil)
        #expect((entry["durationMs"]?.intValue ?? -1) >= 0 && entry["runAtMs"] != nil && entry["summary"] != nil)
        // The job's state tells of the run, and the list's revision changed.
        let after = try payload(try client.call(GatewayMethod.cronList, [:]))
        let job = try #require(after["jobs"]?.arrayValue?.first { $0["id"] == "daily-digest" })
        #expect(job["state"]?["lastRunStatus"] == "ok" && job["lastRunStatus"] == "ok" && job["state"]?["lastRunAtMs"] != nil)
        #expect(after["snapshotRevision"] != before)
    }

    @Test func aFailingJobFinishesInError() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: Self.admin)
        // mode defaults to force.
        let run = try payload(try client.call(GatewayMethod.cronRun, ["jobId": "flaky-export"]))
        #expect(run["enqueued"] == true)
        #expect(try finished(client, "flaky-export")["status"] == "error")
        let entry = try payload(try client.call(GatewayMethod.cronRuns, ["id": "flaky-export", "limit": 1]))["entries"]?.arrayValue?.first
        #expect(entry?["status"] == "error" && entry?["error"]?.stringValue?.isEmpty == false)
        let job = try payload(try client.call(GatewayMethod.cronList, [:]))["jobs"]?.arrayValue?.first { $0["id"] == "flaky-export" }
        #expect(job?["state"]?["lastRunStatus"] == "error" && job?["state"]?["consecutiveErrors"] == 1)
        #expect(job?["lastRunError"] == entry?["error"])
    }

    @Test func dueRunsOnlyRunWhenDueAndARunningJobIsNotStartedTwice() throws {
        let sim = try SimulatorProcess(["--cron-job", "later", "--cron-job", "overdue,ok,0,due", "--cron-job", "slow,ok,600"])
        let client = try TestGatewayClient.connected(sim, scopes: Self.admin)
        let notDue = try payload(try client.call(GatewayMethod.cronRun, ["id": "later", "mode": "due"]))
        #expect(notDue["ok"] == true && notDue["ran"] == false && notDue["reason"] == "not-due")
        let due = try payload(try client.call(GatewayMethod.cronRun, ["id": "overdue", "mode": "due"]))
        #expect(due["enqueued"] == true)
        _ = try finished(client, "overdue")
        // Run, it is no longer due.
        #expect(try payload(try client.call(GatewayMethod.cronRun, ["id": "overdue", "mode": "due"]))["reason"] == "not-due")
        // A run in progress: no history yet, and a second run is refused.
        #expect(try payload(try client.call(GatewayMethod.cronRun, ["id": "slow"]))["enqueued"] == true)
        #expect(try payload(try client.call(GatewayMethod.cronRun, ["id": "slow"]))["reason"] == "already-running")
        let running = try payload(try client.call(GatewayMethod.cronRuns, ["id": "slow"]))
        #expect(running["entries"] == [] && running["total"] == 0)
        let listed = try payload(try client.call(GatewayMethod.cronList, [:]))["jobs"]?.arrayValue?.first { $0["id"] == "slow" }
        #expect(listed?["state"]?["runningAtMs"] != nil)
    }

    @Test func runErrorsAreTheOfficialOnes() throws {
        let sim = try SimulatorProcess()
        let client = try TestGatewayClient.connected(sim, scopes: Self.admin)
        let unknown = try client.call(GatewayMethod.cronRun, ["id": "nope"])
        #expect(unknown["error"] == ["code": "INVALID_REQUEST", "message": "invalid cron.run params: id not found"])
        let badMode = try client.call(GatewayMethod.cronRun, ["id": "daily-digest", "mode": "later"])
        #expect(badMode["error"]?["message"]?.stringValue?.hasPrefix("invalid cron.run params: ") == true)
        let both = try client.call(GatewayMethod.cronRun, ["id": "daily-digest", "jobId": "daily-digest"])
        #expect(both["error"]?["code"] == "INVALID_REQUEST")
        let stale = try client.call(GatewayMethod.cronRun, ["id": "daily-digest", "expectedProcessInstanceId": "another-process"])
        #expect(stale["error"]?["message"] == "invalid cron.run params: Gateway process changed after preflight")
        // Running jobs needs admin; reading them, read.
        let writer = try TestGatewayClient.connected(sim, scopes: ["operator.write"])
        #expect(try writer.call(GatewayMethod.cronRun, ["id": "daily-digest"])["error"]?["details"]?["missingScope"] == "operator.admin")
        #expect(try writer.call(GatewayMethod.cronRuns, ["id": "daily-digest"])["ok"] == true)
        let blind = try TestGatewayClient.connected(sim, scopes: [])
        #expect(try blind.call(GatewayMethod.cronList, [:])["error"]?["details"]?["missingScope"] == "operator.read")
    }

    @Test func theHistoryIsPagedNewestFirst() throws {
        let sim = try SimulatorProcess(["--cron-job", "quick,ok,0", "--cron-job", "other,error,0"])
        let client = try TestGatewayClient.connected(sim, scopes: Self.admin)
        var runIds: [String] = []
        for _ in 0..<3 {
            runIds.append(try payload(try client.call(GatewayMethod.cronRun, ["id": "quick"]))["runId"]?.stringValue ?? "")
            _ = try finished(client, "quick")
        }
        _ = try client.call(GatewayMethod.cronRun, ["id": "other"])
        _ = try finished(client, "other")
        let first = try payload(try client.call(GatewayMethod.cronRuns, ["id": "quick", "limit": 2]))
        #expect(first["total"] == 3 && first["limit"] == 2 && first["hasMore"] == true && first["nextOffset"] == 2)
        let newest = (first["entries"]?.arrayValue ?? []).compactMap { $0["runId"]?.stringValue }
        #expect(newest == [runIds[2], runIds[1]])
        let rest = try payload(try client.call(GatewayMethod.cronRuns, ["id": "quick", "limit": 2, "offset": 2]))
        #expect((rest["entries"]?.arrayValue ?? []).compactMap { $0["runId"]?.stringValue } == [runIds[0]])
        #expect(rest["nextOffset"] == .null)
        let oldest = try payload(try client.call(GatewayMethod.cronRuns, ["id": "quick", "sortDir": "asc", "limit": 1]))
        #expect(oldest["entries"]?.arrayValue?.first?["runId"]?.stringValue == runIds[0])
        // Without an id: every job's runs; filters by status.
        let all = try payload(try client.call(GatewayMethod.cronRuns, [:]))
        #expect(all["total"] == 4 && all["limit"] == 50)
        let failed = try payload(try client.call(GatewayMethod.cronRuns, ["statuses": ["error"]]))
        #expect((failed["entries"]?.arrayValue ?? []).compactMap { $0["jobId"]?.stringValue } == ["other"])
        #expect(try payload(try client.call(GatewayMethod.cronRuns, ["id": "nope"]))["total"] == 0)
        // The official refusals.
        #expect(try client.call(GatewayMethod.cronRuns, ["scope": "job"])["error"]?["message"] == "invalid cron.runs params: missing id")
        #expect(try client.call(GatewayMethod.cronRuns, ["id": "a/b"])["error"]?["message"]?.stringValue?
            .hasPrefix("invalid cron.runs params: at /id: must match pattern") == true)
        #expect(try client.call(GatewayMethod.cronRuns, ["statuses": []])["error"]?["message"]
            == "invalid cron.runs params: at /statuses: must NOT have fewer than 1 items")
        #expect(try client.call(GatewayMethod.cronRuns, ["id": "quick", "limit": 0])["error"]?["message"]
            == "invalid cron.runs params: at /limit: must be >= 1")
        #expect(try client.call(GatewayMethod.cronRuns, ["id": "nope", "agentId": "main"])["error"]?["message"]
            == "invalid cron.runs params: id not found")
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = BuiltProducts.executable("openclaw-gateway-sim")
        process.arguments = arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    @Test(arguments: [["--cron-job", ""], ["--cron-job", "a,sometimes"], ["--cron-job", "a/b"], ["--cron-job", "a,-1"],
                      ["--cron-jobs", "x"], ["--sessions", "0"], ["--sessions", "5:"], ["--log-lines", "-1"],
                      ["--log-rotate-bytes", "0"], ["--log-rotate-after-polls", "0"]])
    func badScriptingFlagsExit2(_ arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("openclaw-gateway-sim: ") && result.stderr.split(separator: "\n").count == 1)
    }
}
