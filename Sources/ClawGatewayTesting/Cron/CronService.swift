import Foundation
@_spi(Engine) import ClawSystem
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto

/// The simulated scheduler: the jobs, the runs in progress and the run history. A manual run is
/// enqueued at once and finishes after its job's seconds with the job's outcome; only finished runs
/// enter the history (`cron.runs`). Each start and finish is a `cron` event, as the gateway's.
final class CronService: @unchecked Sendable {
    /// One finished run: its `CronRunLogEntry` (without `jobName`, added per answer) and its order.
    struct Finished: Sendable {
        var entry: JSONObject
        var order: Int
        var jobId: String { entry["jobId"]?.stringValue ?? "" }
        var ts: Int64 { entry["ts"]?.int64Value ?? 0 }
    }

    enum RunRequest {
        /// `start` begins the run: the caller calls it once the answer is queued, so neither the
        /// run's `cron` events nor its end can overtake the `cron.run` response.
        case enqueued(runId: String, start: @Sendable () -> Void)
        case skipped(reason: String)
        case unknownJob
    }

    private let lock = NSLock()
    private var jobs: [CronJob]
    private var history: [Finished] = []
    private var manualRuns = 0
    private let hub: EventHub
    private let log: GatewayLog

    init(options: SimulatorOptions, hub: EventHub, log: GatewayLog, now: Int64) {
        jobs = CronJob.jobs(options: options, now: now)
        self.hub = hub
        self.log = log
    }

    /// A consistent copy of the jobs and the history, for listing.
    var snapshot: (jobs: [CronJob], history: [Finished]) { lock.withLock { (jobs, history) } }

    /// `cron.run`'s `enqueueRun`: refused while the job runs, and in mode `due` unless its next run is
    /// past; otherwise a run id `manual:<id>:<ms>:<n>` whose run ends after the job's seconds.
    func enqueueRun(id: String, mode: String) -> RunRequest {
        let now = WallClock.milliseconds()
        enum Admission { case unknown, refused(String), admitted(runId: String, seconds: Double) }
        let admission: Admission = lock.withLock {
            guard let index = jobs.firstIndex(where: { $0.id == id }) else { return .unknown }
            if jobs[index].runningAtMs != nil { return .refused("already-running") }
            if mode == "due" && !jobs[index].isDue(now: now) { return .refused("not-due") }
            jobs[index].runningAtMs = now
            manualRuns += 1
            return .admitted(runId: "manual:\(id):\(now):\(manualRuns)", seconds: jobs[index].spec.seconds)
        }
        switch admission {
        case .unknown: return .unknownJob
        case .refused(let reason): return .skipped(reason: reason)
        case .admitted(let runId, let seconds):
            return .enqueued(runId: runId, start: { [self] in
                hub.broadcast("cron", payload: ["jobId": .string(id), "action": "started", "runAtMs": JSONValue(now)], readScoped: true)
                log.write("cron: job run started jobId=\(id) runId=\(runId)", subsystem: "cron")
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in finish(id: id, runId: runId, runAtMs: now) }
            })
        }
    }

    private func finish(id: String, runId: String, runAtMs: Int64) {
        let endedAt = WallClock.milliseconds()
        let event: JSONValue? = lock.withLock {
            guard let index = jobs.firstIndex(where: { $0.id == id }) else { return nil }
            var job = jobs[index]
            let ok = job.spec.succeeds
            let status = ok ? "ok" : "error"
            let error = ok ? nil : "Error: simulated cron job failure"
            let summary = ok ? "\(job.name): done." : "\(job.name): failed."
            job.runningAtMs = nil
            job.lastRunAtMs = runAtMs
            job.lastStatus = status
            job.lastError = error
            job.lastDurationMs = endedAt - runAtMs
            job.consecutiveErrors = ok ? 0 : (job.consecutiveErrors ?? 0) + 1
            if job.spec.enabled { job.nextRunAtMs = job.schedule.next(after: max(endedAt, job.nextRunAtMs ?? endedAt)) }
            jobs[index] = job
            let sessionId = SecureRandom.uuid()
            let sessionKey = "agent:\(job.spec.agentId):cron:\(id):run:\(sessionId)"
            var entry: JSONObject = ["ts": JSONValue(endedAt), "jobId": .string(id), "action": "finished", "status": .string(status)]
            if let error { entry["error"] = .string(error) }
            entry["summary"] = .string(summary)
            entry["deliveryStatus"] = "not-requested"
            entry["sessionId"] = .string(sessionId)
            entry["sessionKey"] = .string(sessionKey)
            entry["runId"] = .string(runId)
            entry["runAtMs"] = JSONValue(runAtMs)
            entry["durationMs"] = JSONValue(endedAt - runAtMs)
            if let next = job.nextRunAtMs { entry["nextRunAtMs"] = JSONValue(next) }
            entry["model"] = "sim-1"
            entry["provider"] = "openclaw-sim"
            history.append(Finished(entry: entry, order: history.count))
            var payload: JSONObject = ["jobId": .string(id), "action": "finished", "status": .string(status)]
            if let error { payload["error"] = .string(error) }
            payload["summary"] = .string(summary)
            payload["sessionId"] = .string(sessionId)
            payload["sessionKey"] = .string(sessionKey)
            payload["runAtMs"] = JSONValue(runAtMs)
            payload["durationMs"] = JSONValue(endedAt - runAtMs)
            if let next = job.nextRunAtMs { payload["nextRunAtMs"] = JSONValue(next) }
            return .object(payload)
        }
        guard let event else { return }
        log.write("cron: job run finished jobId=\(id) runId=\(runId) status=\(event["status"]?.stringValue ?? "")",
                  subsystem: "cron", level: event["status"]?.stringValue == "ok" ? .info : .warn)
        hub.broadcast("cron", payload: event, readScoped: true)
    }
}
