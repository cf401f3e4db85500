import Foundation
@_spi(Engine) import ClawJSON
@_spi(Engine) import ClawCrypto

/// One simulated cron job: the official `CronJob` definition (an isolated agent turn, no delivery) and
/// the scheduler state its runs update. The simulator has no timer: jobs run only by `cron.run`.
struct CronJob: Sendable {
    enum Schedule: Sendable {
        /// `{kind:"cron", expr:"0 H * * *", tz:"UTC"}`: daily at hour H, UTC.
        case daily(hour: Int)
        /// `{kind:"every", everyMs, anchorMs}`.
        case every(ms: Int64, anchorMs: Int64)

        var kind: String {
            switch self {
            case .daily: return "cron"
            case .every: return "every"
            }
        }

        var json: JSONValue {
            switch self {
            case .daily(let hour): return ["kind": "cron", "expr": .string("0 \(hour) * * *"), "tz": "UTC"]
            case .every(let ms, let anchor): return ["kind": "every", "everyMs": JSONValue(ms), "anchorMs": JSONValue(anchor)]
            }
        }

        /// The first run time after `now`.
        func next(after now: Int64) -> Int64 {
            switch self {
            case .daily(let hour):
                let day: Int64 = 86_400_000
                var at = now - ((now % day) + day) % day + Int64(hour) * 3_600_000
                if at <= now { at += day }
                return at
            case .every(let ms, let anchor):
                guard now >= anchor else { return anchor }
                return anchor + ((now - anchor) / ms + 1) * ms
            }
        }
    }

    let spec: CronJobSpec
    let name: String
    let message: String
    let schedule: Schedule
    let createdAtMs: Int64
    var nextRunAtMs: Int64?
    var runningAtMs: Int64? = nil
    var lastRunAtMs: Int64? = nil
    var lastStatus: String? = nil
    var lastError: String? = nil
    var lastDurationMs: Int64? = nil
    var consecutiveErrors: Int? = nil

    var id: String { spec.id }

    /// The jobs of the command line, in the order given: the `--cron-job`s (or the three defaults),
    /// then the `--cron-jobs` generic ones, each created a day before `now`.
    static func jobs(options: SimulatorOptions, now: Int64) -> [CronJob] {
        var specs = options.cronJobs ?? CronJobSpec.defaults
        if options.cronJobCount > 0 {
            specs += (1...options.cronJobCount).map { CronJobSpec(id: String(format: "job-%04d", $0)) }
        }
        return specs.enumerated().map { index, spec in
            let created = now - 86_400_000 + Int64(index)
            // Hourly jobs run at half past their creation (then a second apart, in flag order), so the
            // next run is half an hour away when the simulator starts.
            let hourly = Schedule.every(ms: 3_600_000, anchorMs: created + 1_800_000 + Int64(index) * 1000)
            let (name, message, schedule): (String, String, Schedule)
            switch spec.id {
            case "daily-digest": (name, message, schedule) = ("Daily digest", "Summarise yesterday's activity.", .daily(hour: 9))
            case "flaky-export": (name, message, schedule) = ("Flaky export", "Export the reports.", hourly)
            case "weekly-cleanup": (name, message, schedule) = ("Weekly cleanup", "Archive old sessions.", .daily(hour: 3))
            default:
                let generic = spec.id.hasPrefix("job-") ? "Job " + spec.id.dropFirst(4) : spec.id
                (name, message, schedule) = (generic, "Run \(spec.id).", hourly)
            }
            var job = CronJob(spec: spec, name: name, message: message, schedule: schedule, createdAtMs: created)
            // Disabled jobs have no next run; a due one's is already past.
            job.nextRunAtMs = spec.enabled ? (spec.due ? now - 60_000 : schedule.next(after: now)) : nil
            return job
        }
    }

    /// Whether `cron.run` mode `due` may run it now.
    func isDue(now: Int64) -> Bool { spec.enabled && (nextRunAtMs.map { $0 <= now } ?? false) }

    var lastRunStatus: String? { lastStatus }

    /// The definition without scheduler state (what `configRevision` covers).
    private var definition: JSONObject {
        [
            "id": .string(id), "agentId": .string(spec.agentId), "name": .string(name), "enabled": .bool(spec.enabled),
            "createdAtMs": JSONValue(createdAtMs), "updatedAtMs": JSONValue(createdAtMs), "schedule": schedule.json,
            "sessionTarget": "isolated", "wakeMode": "now", "payload": ["kind": "agentTurn", "message": .string(message)],
            "delivery": ["mode": "none"],
        ]
    }

    var state: JSONValue {
        var state = JSONObject()
        if let nextRunAtMs { state["nextRunAtMs"] = JSONValue(nextRunAtMs) }
        if let runningAtMs { state["runningAtMs"] = JSONValue(runningAtMs) }
        if let lastRunAtMs { state["lastRunAtMs"] = JSONValue(lastRunAtMs) }
        if let lastStatus {
            state["lastRunStatus"] = .string(lastStatus)
            state["lastStatus"] = .string(lastStatus)
        }
        if let lastError { state["lastError"] = .string(lastError) }
        if let lastDurationMs { state["lastDurationMs"] = JSONValue(lastDurationMs) }
        if let consecutiveErrors { state["consecutiveErrors"] = JSONValue(consecutiveErrors) }
        if lastStatus != nil { state["lastDeliveryStatus"] = "not-requested" }
        return .object(state)
    }

    /// The job as `cron.list` answers it (the official `cronJobReadView`): the definition, its state,
    /// `configRevision`, and the state's run fields repeated at the top level.
    var readView: JSONValue {
        var view = definition
        view["state"] = state
        view["configRevision"] = .string(Self.revision(of: .object(definition)))
        if let nextRunAtMs { view["nextRunAtMs"] = JSONValue(nextRunAtMs) }
        if let lastRunAtMs { view["lastRunAtMs"] = JSONValue(lastRunAtMs) }
        if let lastStatus { view["lastRunStatus"] = .string(lastStatus) }
        if let lastError { view["lastRunError"] = .string(lastError) }
        if lastStatus != nil { view["lastDeliveryStatus"] = "not-requested" }
        return .object(view)
    }

    /// The row of `cron.list` with `compact: true`.
    var compactView: JSONValue {
        var row: JSONObject = [
            "id": .string(id), "name": .string(name), "enabled": .bool(spec.enabled),
            "nextRunAtMs": nextRunAtMs.map { JSONValue($0) } ?? .null, "scheduleKind": .string(schedule.kind),
            "lastRunAtMs": lastRunAtMs.map { JSONValue($0) } ?? .null, "lastRunStatus": lastStatus.map { .string($0) } ?? .null,
            "lastRunError": lastError.map { .string($0) } ?? .null,
        ]
        if lastStatus != nil { row["lastDeliveryStatus"] = "not-requested" }
        return .object(row)
    }

    /// `sha256:<base64url>` of the encoded value, the form of the official revisions.
    static func revision(of value: JSONValue) -> String {
        "sha256:" + Base64.encodeURL(Digest.sha256(FrameEncoder.encode(value)))
    }
}
